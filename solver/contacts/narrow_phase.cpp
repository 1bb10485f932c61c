#include "solver/contacts/narrow_phase.h"

#include <algorithm>
#include <cmath>

namespace scree::solver {

double posed_value(const ShapeTemplate& shape, const Pose& pose, const Eigen::Vector3d& world,
                   Eigen::Vector3d* gradient) {
  // φ_posed(x) = s φ(Rᵀ (x − p) / s); its gradient is R ∇φ (the scale cancels).
  const Eigen::Vector3d body = pose.orientation.conjugate() * (world - pose.position) / pose.scale;
  if (!gradient) return pose.scale * shape.value(body);
  Eigen::Vector3d body_gradient;
  const double value = pose.scale * shape.value_and_gradient(body, body_gradient);
  *gradient = pose.orientation * body_gradient;
  return value;
}

std::vector<NodeContact> node_contacts(const ShapeTemplate& master, const Pose& master_pose,
                                       const ShapeTemplate& other, const Pose& other_pose, double margin,
                                       double other_radius) {
  std::vector<NodeContact> contacts;
  const auto& nodes = master.nodes();
  // The other's bounding sphere in the master's body frame (template units).
  const Eigen::Vector3f centre =
      (master_pose.orientation.conjugate() * (other_pose.position - master_pose.position) / master_pose.scale)
          .cast<float>();
  const double reach = (other_radius + std::max(margin, 0.0)) / master_pose.scale;
  const bool bounded = std::isfinite(reach);
  const float reach2 = bounded ? float(reach * reach) * 1.0001f : std::numeric_limits<float>::infinity();
  // Master body frame to the other's (both in template units): y = A x + t, one matrix for
  // the pair instead of two quaternion turns per node.
  const double to_other_scale = master_pose.scale / other_pose.scale;
  const Eigen::Matrix3d to_other =
      (other_pose.orientation.conjugate() * master_pose.orientation).toRotationMatrix() * to_other_scale;
  const Eigen::Vector3d offset = other_pose.orientation.conjugate() * (master_pose.position - other_pose.position) / other_pose.scale;
  const double other_margin = margin / other_pose.scale;  // φ_posed = s φ(y)
  // A part of the node hierarchy whose sphere holds no point where the other's φ could be
  // below the margin is skipped on one look-up instead of a sample a node: in a loose cloud
  // most pairs whose bounding spheres overlap do not touch.
  master.for_nodes_near(
      [&](const Eigen::Vector3f& cluster, float radius) {
        if (bounded && (cluster - centre).norm() > float(reach) * 1.0001f + radius) return false;
        const double other_radius = to_other_scale * double(radius);
        if (other_radius > 4 * other.voxel_size()) return true;  // a large part: its halves will tell
        return other.may_be_below(to_other * cluster.cast<double>() + offset, other_radius * 1.0001,
                                  other_margin);
      },
      [&](std::uint32_t i) {
        if ((nodes[i] - centre).squaredNorm() > reach2) return;
        const Eigen::Vector3d y = to_other * nodes[i].cast<double>() + offset;
        if (other.value(y) >= other_margin) return;  // the cheap test first
        Eigen::Vector3d gradient;
        const double phi = other_pose.scale * other.value_and_gradient(y, gradient);
        const double norm = gradient.norm();
        if (!(norm > 0)) return;  // a flat spot of the interpolant deep inside: no direction
        const Eigen::Vector3d world =
            master_pose.position + master_pose.orientation * (master_pose.scale * nodes[i].cast<double>());
        contacts.push_back({i, world, other_pose.orientation * (gradient / norm), -phi});
      });
  std::sort(contacts.begin(), contacts.end(), [](const NodeContact& a, const NodeContact& b) { return a.node < b.node; });
  return contacts;
}

}  // namespace scree::solver
