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

namespace {

// One pair's frames: the master's nodes in the other's template units, and the test of one node.
class NodeSampler {
 public:
  NodeSampler(const ShapeTemplate& master, const Pose& master_pose, const ShapeTemplate& other, const Pose& other_pose,
              double margin, double other_radius)
      : nodes_(master.nodes()), other_(other), master_pose_(master_pose), other_pose_(other_pose) {
    centre_ = (master_pose.orientation.conjugate() * (other_pose.position - master_pose.position) / master_pose.scale)
                  .cast<float>();
    reach_ = (other_radius + std::max(margin, 0.0)) / master_pose.scale;
    bounded_ = std::isfinite(reach_);
    reach2_ = bounded_ ? float(reach_ * reach_) * 1.0001f : std::numeric_limits<float>::infinity();
    // Master body frame to the other's (both in template units): y = A x + t, one matrix for
    // the pair instead of two quaternion turns per node.
    to_other_scale_ = master_pose.scale / other_pose.scale;
    to_other_ = (other_pose.orientation.conjugate() * master_pose.orientation).toRotationMatrix() * to_other_scale_;
    offset_ = other_pose.orientation.conjugate() * (master_pose.position - other_pose.position) / other_pose.scale;
    // And on into the other's index space, for the samples that need φ only.
    to_index_ = other.body_to_index() * to_other_;
    index_offset_ = other.index_of(offset_);
    other_margin_ = margin / other_pose.scale;  // φ_posed = s φ(y)
  }

  // Whether a part of the master's node hierarchy (a sphere in its body frame) may hold a node
  // below the margin: outside the other's bounding sphere, or where no value of the other's
  // level set is below the margin, it holds none.
  bool may_touch(const Eigen::Vector3f& cluster, float radius) const {
    if (bounded_ && (cluster - centre_).norm() > float(reach_) * 1.0001f + radius) return false;
    return other_.may_be_below(to_other_ * cluster.cast<double>() + offset_, to_other_scale_ * double(radius) * 1.0001,
                               other_margin_);
  }

  // Whether node i lies within the other's bounding sphere, grown by the margin.
  bool within(std::uint32_t i) const { return (nodes_[i] - centre_).squaredNorm() <= reach2_; }
  // φ of the other at node i, in the other's template units.
  double value_at(std::uint32_t i) const { return other_.value_at_index(to_index_ * nodes_[i].cast<double>() + index_offset_); }
  // Node i, whose φ is `value`, as a contact if it lies below the margin.
  void add_if_below(std::uint32_t i, double value, std::vector<NodeContact>& contacts) const {
    if (value >= other_margin_) return;
    const Eigen::Vector3d y = to_other_ * nodes_[i].cast<double>() + offset_;
    Eigen::Vector3d gradient;
    const double phi = other_pose_.scale * other_.value_and_gradient(y, gradient);
    const double norm = gradient.norm();
    if (!(norm > 0)) return;  // a flat spot of the interpolant deep inside: no direction
    const Eigen::Vector3d world =
        master_pose_.position + master_pose_.orientation * (master_pose_.scale * nodes_[i].cast<double>());
    contacts.push_back({i, world, other_pose_.orientation * (gradient / norm), -phi});
  }
  // Node i as a contact if it lies below the margin (the cheap tests first).
  void sample(std::uint32_t i, std::vector<NodeContact>& contacts) const {
    if (within(i)) add_if_below(i, value_at(i), contacts);
  }

 private:
  const std::vector<Eigen::Vector3f>& nodes_;
  const ShapeTemplate& other_;
  const Pose &master_pose_, &other_pose_;
  Eigen::Vector3f centre_;
  double reach_ = 0;
  bool bounded_ = false;
  float reach2_ = 0;
  double to_other_scale_ = 1;
  Eigen::Matrix3d to_other_, to_index_;
  Eigen::Vector3d offset_, index_offset_;
  double other_margin_ = 0;
};

}  // namespace

void sort_by_node(std::vector<NodeContact>& contacts) {
  std::sort(contacts.begin(), contacts.end(), [](const NodeContact& a, const NodeContact& b) { return a.node < b.node; });
}

std::vector<NodeContact> node_contacts(const ShapeTemplate& master, const Pose& master_pose,
                                       const ShapeTemplate& other, const Pose& other_pose, double margin,
                                       double other_radius) {
  // A part of the node hierarchy that cannot touch is skipped on one look-up instead of a
  // sample a node: in a loose cloud most pairs whose bounding spheres overlap do not touch.
  std::vector<NodeContact> contacts;
  const NodeSampler sampler(master, master_pose, other, other_pose, margin, other_radius);
  master.for_nodes_near([&](const Eigen::Vector3f& cluster, float radius) { return sampler.may_touch(cluster, radius); },
                        [&](std::uint32_t i) { sampler.sample(i, contacts); });
  sort_by_node(contacts);
  return contacts;
}

namespace {

// The master's centre and turn in the other's frame.
Eigen::Vector3d centre_in_other(const Pose& m, const Pose& o) { return o.orientation.conjugate() * (m.position - o.position); }
Eigen::Quaterniond turn_in_other(const Pose& m, const Pose& o) { return o.orientation.conjugate() * m.orientation; }

// How far any master node can have moved in the other's frame since `near` was listed: the
// shift of the master's centre there, plus the chord of the relative turn times the farthest
// node (|(Q − Q₀) x| ≤ 2 sin(θ/2) |x| for rotations Q, Q₀ θ apart); plus what the listing
// pose lost to single precision: each component of the centre by at most 2⁻²⁴ of the
// centre's length, the turn's quaternion by at most 2⁻²⁴ each, which turns a node by a chord
// of at most 4 × 2⁻²⁴ of its distance (taken as 1e-6 of both, generously).
double relative_motion(const ShapeTemplate& master, const NearNodes& near, const Pose& master_pose,
                       const Pose& other_pose) {
  const Eigen::Quaterniond listed_turn = near.turn_in_other.cast<double>();
  const Eigen::Vector3d listed_centre = near.centre_in_other.cast<double>();
  const Eigen::Quaterniond turn = turn_in_other(master_pose, other_pose) * listed_turn.conjugate();
  const NodeCluster& all = master.node_clusters().front();
  const double farthest = (double(all.centre.norm()) + double(all.radius)) * master_pose.scale;
  return (centre_in_other(master_pose, other_pose) - listed_centre).norm() +
         2 * turn.vec().norm() / turn.norm() * farthest + 1e-6 * (listed_centre.norm() + farthest);
}

// The float at or below x: what the cover keeps of a bound it may only lower.
float rounded_down(double x) {
  const float f = float(x);
  return double(f) > x ? std::nextafter(f, -std::numeric_limits<float>::infinity()) : f;
}

// The float at or above x: what a list keeps of a bound it may only raise.
float rounded_up(double x) {
  const float f = float(x);
  return double(f) < x ? std::nextafter(f, std::numeric_limits<float>::infinity()) : f;
}

// What a list says of nodes whose φ may each have changed by `drift` since it was made.
NearNodesState cover_with(const NearNodes& near, double drift, double margin) {
  if (near.least - drift >= margin) return {NearNodesCover::clear, drift};
  if (near.reach - drift >= margin) return {NearNodesCover::listed, drift};
  return {NearNodesCover::stale, drift};
}

}  // namespace

void NearNodes::list(const std::vector<NearNode>& nodes) {
  thread_local std::vector<std::uint8_t> packed;
  packed.clear();
  const double step = phi_step();
  std::uint32_t last = 0;
  for (const NearNode& n : nodes) {
    for (std::uint32_t gap = n.node - last;; gap >>= 7) {
      packed.push_back(std::uint8_t((gap & 0x7f) | (gap > 0x7f ? 0x80 : 0)));
      if (gap <= 0x7f) break;
    }
    last = n.node;
    // The level at or below φ, as for_each_listed() makes it.
    int level = step > 0 ? int(std::min(255.0, std::floor((n.phi - least) / step))) : 0;
    while (level > 0 && least + level * step > n.phi) --level;
    packed.push_back(std::uint8_t(std::max(level, 0)));
  }
  // Kept at its size until the pair goes stale: a heap holds ~16 lists a grain.
  packed_ = Bytes(packed);
}

NearNodesState near_nodes_cover(const NearNodes& near, const ShapeTemplate& master, const Pose& master_pose,
                                const ShapeTemplate& other, const Pose& other_pose, double margin) {
  if (near.reach < 0 || master.nodes().empty() || near.master_scale != float(master_pose.scale) ||
      near.other_scale != float(other_pose.scale))
    return {NearNodesCover::stale, 0};
  // φ is in world metres on both sides; the last term covers the round-off of two
  // interpolations at nearby points.
  const double drift = std::max(other.lipschitz(), 1.0) * relative_motion(master, near, master_pose, other_pose) *
                           (1 + 1e-9) +
                       1e-9 * other.voxel_size() * other_pose.scale;
  return cover_with(near, drift, margin);
}

NearNodesState terrain_nodes_cover(const TerrainNearNodes& near, const ShapeTemplate& master, const Pose& master_pose,
                                   const Pose& terrain_pose, double voxel, double margin) {
  if (near.near.reach < 0 || master.nodes().empty() || near.near.master_scale != float(master_pose.scale))
    return {NearNodesCover::stale, 0};
  const double motion = relative_motion(master, near.near, master_pose, terrain_pose);
  if (!(motion <= near.roam)) return {NearNodesCover::stale, 0};
  // The terrain's values are floats interpolated in double: the slope's bound holds to the
  // round-off TerrainField::may_be_below allows for.
  return cover_with(near.near, double(near.slope) * motion * (1 + 1e-6) + 1e-6 * voxel, margin);
}

void list_near_nodes(NearNodes& near, const Pose& master_pose, const Pose& other_pose, double reach, std::vector<NearNode>& nodes) {
  near.centre_in_other = centre_in_other(master_pose, other_pose).cast<float>();
  near.turn_in_other = turn_in_other(master_pose, other_pose).cast<float>();
  near.master_scale = float(master_pose.scale);
  near.other_scale = float(other_pose.scale);
  std::sort(nodes.begin(), nodes.end(), [](const NearNode& a, const NearNode& b) { return a.node < b.node; });
  double least = reach;
  for (const NearNode& n : nodes) least = std::min(least, n.phi);
  near.reach = rounded_down(reach);
  near.least = rounded_down(least);
  near.list(nodes);
}

void list_terrain_nodes(TerrainNearNodes& near, const Pose& master_pose, const Pose& terrain_pose, double reach,
                        std::vector<NearNode>& nodes, std::optional<double> slope, double roam) {
  list_near_nodes(near.near, master_pose, terrain_pose, reach, nodes);
  if (!slope) {
    near.near.reach = -1;
    return;
  }
  near.slope = rounded_up(*slope);
  near.roam = rounded_down(roam);
}

std::vector<NodeContact> node_contacts(const ShapeTemplate& master, const Pose& master_pose,
                                       const ShapeTemplate& other, const Pose& other_pose, double margin,
                                       double other_radius, double skin, NearNodes& near) {
  std::vector<NodeContact> contacts;
  const NearNodesState state = near_nodes_cover(near, master, master_pose, other, other_pose, margin);
  switch (state.cover) {
    case NearNodesCover::clear:
      return contacts;
    case NearNodesCover::listed: {
      const NodeSampler sampler(master, master_pose, other, other_pose, margin, other_radius);
      const double below = margin + state.drift;
      near.for_each_listed([&](std::uint32_t node, double phi) {
        if (phi < below) sampler.sample(node, contacts);
      });
      return contacts;  // in node order, as listed
    }
    case NearNodesCover::stale:
      break;
  }
  // The walk and the bounding sphere reach the skin further; the contacts are still those
  // below the margin, by the same test on each node as without.
  const double reach = margin + skin;
  thread_local std::vector<NearNode> listed;
  listed.clear();
  const NodeSampler wide(master, master_pose, other, other_pose, reach, other_radius);
  const NodeSampler exact(master, master_pose, other, other_pose, margin, other_radius);
  master.for_nodes_near([&](const Eigen::Vector3f& cluster, float radius) { return wide.may_touch(cluster, radius); },
                        [&](std::uint32_t i) {
                          if (!wide.within(i)) return;
                          const double value = wide.value_at(i);  // the same frames as exact's
                          const double phi = value * other_pose.scale;
                          if (phi >= reach) return;
                          listed.push_back({i, phi});
                          if (exact.within(i)) exact.add_if_below(i, value, contacts);
                        });
  list_near_nodes(near, master_pose, other_pose, reach, listed);
  sort_by_node(contacts);
  return contacts;
}

}  // namespace scree::solver
