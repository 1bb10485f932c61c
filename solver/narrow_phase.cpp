#include "solver/narrow_phase.h"

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
  const float reach2 = std::isfinite(reach) ? float(reach * reach) * 1.0001f : std::numeric_limits<float>::infinity();
  for (std::uint32_t i = 0; i < nodes.size(); ++i) {
    if ((nodes[i] - centre).squaredNorm() > reach2) continue;
    const Eigen::Vector3d world =
        master_pose.position + master_pose.orientation * (master_pose.scale * nodes[i].cast<double>());
    if (posed_value(other, other_pose, world) >= margin) continue;  // the cheap test first
    Eigen::Vector3d gradient;
    const double phi = posed_value(other, other_pose, world, &gradient);
    const double norm = gradient.norm();
    if (!(norm > 0)) continue;  // a flat spot of the interpolant deep inside: no direction
    contacts.push_back({i, world, gradient / norm, -phi});
  }
  return contacts;
}

}  // namespace scree::solver
