#pragma once
// Narrow phase, node to surface (seed 004): the boundary nodes of one body sampled in the
// other body's level set. A node inside the other body (φ < margin) is a contact candidate
// with its depth and the other body's outward normal there.
#include <Eigen/Dense>
#include <Eigen/Geometry>

#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "geometry/shape_template.h"

namespace scree::solver {

using geometry::NodeCluster;
using geometry::ShapeTemplate;

// Where a grain is: body frame → world is x = position + orientation · (scale · body).
struct Pose {
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();
  double scale = 1;  // uniform, of the template's lengths
};

struct NodeContact {
  std::uint32_t node;      // index into the master's nodes
  Eigen::Vector3d point;   // the node, world frame
  Eigen::Vector3d normal;  // unit, world: the other body's outward normal at the node
  double depth;            // −φ_other(node): > 0 inside the other body, m
};

// Node contacts in node order, as a walk of the node hierarchy leaves them otherwise.
void sort_by_node(std::vector<NodeContact>& contacts);

// φ of a posed template at a world point, and its world gradient.
double posed_value(const ShapeTemplate& shape, const Pose& pose, const Eigen::Vector3d& world,
                   Eigen::Vector3d* gradient = nullptr);

// The nodes of `master` whose φ in `other` is below `margin` (metres), in node order. The
// master's node hierarchy is walked first: parts outside the other's bounding sphere
// (`other_radius` + margin, world metres) and parts where no value of the other's level set
// is below the margin are skipped before their nodes are sampled (exactly: the same contacts
// as sampling every node), so the cost follows the nodes near the contact.
std::vector<NodeContact> node_contacts(const ShapeTemplate& master, const Pose& master_pose,
                                       const ShapeTemplate& other, const Pose& other_pose, double margin,
                                       double other_radius = std::numeric_limits<double>::infinity());

// What one search of a pair leaves for the next ones (the same step's later sweeps, the
// steps after): where the two were, every master node whose φ in the other lay below
// `reach`, with that φ, and a value no node's φ lay below. Once the master has moved by δ in
// the other's frame, no node's φ has changed by more than L δ (L the other's `lipschitz()`, at
// least 1 for the bounding sphere's test), so while `least` − L δ stays above the margin the
// pair cannot touch, and while `reach` − L δ does only listed nodes can, those whose φ then
// less L δ is below the margin.
struct NearNode {
  std::uint32_t node;
  double phi;  // m
};
struct NearNodes {
  // The master as the search that listed the nodes saw it in the other's frame: its turn,
  // R_Bᵀ R_A, and its centre there, R_Bᵀ (x_A − x_B); with both scales. All the cover needs
  // of the two poses, in 36 bytes rather than 160 (a heap keeps two of these a pair): the turn
  // and the centre in single precision, whose round-off the cover adds to the motion it
  // bounds (near_nodes_cover). The scales are only compared, to tell another grain; reach
  // and least are kept rounded down, which can only make the cover sample more: 56 bytes in
  // all (docs/benchmarks.md, "The tenth pass" and "The eleventh pass").
  Eigen::Quaternion<float, Eigen::DontAlign> turn_in_other = Eigen::Quaternion<float, Eigen::DontAlign>::Identity();
  Eigen::Vector3f centre_in_other = Eigen::Vector3f::Zero();
  float master_scale = 1, other_scale = 1;
  float reach = -1;  // m; below zero: nothing listed yet
  float least = 0;   // m

  // Lists `nodes` (ascending, each φ in [least, reach)).
  void list(const std::vector<NearNode>& nodes);
  // f(node, φ rounded down) for each listed node, ascending.
  template <class F>
  void for_each_listed(F&& f) const {
    const double step = phi_step();
    std::uint32_t node = 0;
    const std::uint8_t* packed = packed_.data();
    for (std::size_t k = 0, size = packed_.size(); k < size;) {
      std::uint32_t gap = 0;
      for (int shift = 0;; shift += 7) {
        const std::uint8_t byte = packed[k++];
        gap |= std::uint32_t(byte & 0x7f) << shift;
        if (!(byte & 0x80)) break;
      }
      node += gap;
      f(node, least + packed[k++] * step);
    }
  }

 private:
  // The listed nodes packed (~2 bytes a node where a settled heap lists ~380 a grain,
  // docs/benchmarks.md, "The tenth pass"): each node's gap from the one before in 7-bit groups,
  // low first, the top bit set on all but the last (LEB128); then its φ as the level below it
  // of 256 from `least` up to `reach`, a bound from below, which is all the cover needs.
  // The bytes behind one pointer, their count in the block's first four (8 bytes, not a
  // vector's 24); copied whole.
  class Bytes {
   public:
    Bytes() = default;
    explicit Bytes(const std::vector<std::uint8_t>& bytes) { assign(std::uint32_t(bytes.size()), bytes.data()); }
    Bytes(const Bytes& other) { assign(other.size(), other.data()); }
    Bytes(Bytes&&) = default;
    Bytes& operator=(const Bytes& other) { return *this = Bytes(other); }
    Bytes& operator=(Bytes&&) = default;
    std::uint32_t size() const {
      std::uint32_t n = 0;
      if (block_) std::memcpy(&n, block_.get(), sizeof n);
      return n;
    }
    const std::uint8_t* data() const { return block_ ? block_.get() + sizeof(std::uint32_t) : nullptr; }

   private:
    void assign(std::uint32_t n, const std::uint8_t* bytes) {
      if (n == 0) return;
      block_ = std::make_unique_for_overwrite<std::uint8_t[]>(sizeof n + n);
      std::memcpy(block_.get(), &n, sizeof n);
      std::memcpy(block_.get() + sizeof n, bytes, n);
    }
    std::unique_ptr<std::uint8_t[]> block_;
  };
  Bytes packed_;
  double phi_step() const { return (double(reach) - double(least)) / 255; }
};

// What `near` says of the pair posed so, for contacts below `margin`: no node can be below
// it (clear), only listed nodes can (listed), or it no longer covers the pair (stale); with
// the most any node's φ can have changed since the listing (m).
enum class NearNodesCover { clear, listed, stale };
struct NearNodesState {
  NearNodesCover cover;
  double drift;
};
NearNodesState near_nodes_cover(const NearNodes& near, const ShapeTemplate& master, const Pose& master_pose,
                                const ShapeTemplate& other, const Pose& other_pose, double margin);

// Lists `nodes` (each φ below `reach`, m; any order, sorted here) in `near`, as the master
// posed at `master_pose` lies in the other's frame at `other_pose`.
void list_near_nodes(NearNodes& near, const Pose& master_pose, const Pose& other_pose, double reach, std::vector<NearNode>& nodes);

// What one search of a grain against the terrain leaves for the next ones: its nodes below
// the margin and a skin in the terrain's level set, listed in the terrain's frame (its grid's
// origin, unturned), and the steepest slope of the terrain under the ball its nodes may roam
// while the list serves (`roam` beyond the farthest node): the terrain's slope stands for the
// other grain's Lipschitz bound. Where the grain has moved farther than `roam`, or no slope
// was known (a ball not wholly over the grid), the list is stale.
struct TerrainNearNodes {
  NearNodes near;
  float slope = 0;  // per metre, rounded up
  float roam = 0;   // m, rounded down
};
// Lists `nodes` in `near` as list_near_nodes() does, with the terrain's `slope` under the
// ball the nodes stay in while the grain moves by `roam` (m); with no slope known the list
// stays stale.
void list_terrain_nodes(TerrainNearNodes& near, const Pose& master_pose, const Pose& terrain_pose, double reach,
                        std::vector<NearNode>& nodes, std::optional<double> slope, double roam);
// As near_nodes_cover for a grain at `master_pose` against the terrain posed at
// `terrain_pose` (grid spacing `voxel`).
NearNodesState terrain_nodes_cover(const TerrainNearNodes& near, const ShapeTemplate& master, const Pose& master_pose,
                                   const Pose& terrain_pose, double voxel, double margin);

// NearNodes of grain pairs and of grains against the terrain, kept from search to search
// (contact finding's, solver/world.h). A cache only: the contacts are a fresh search's bit
// for bit, so checkpoints leave it out.
struct NearNodeCache {
  std::vector<std::uint64_t> pairs;            // first << 32 | second, ascending
  std::vector<std::array<NearNodes, 2>> near;  // by pair: the first's nodes in the second, then the reverse
  std::vector<TerrainNearNodes> terrain;       // by grain (as many as the last search against a terrain met)
};

// node_contacts, the same bit for bit, from what `near` holds while it covers the pair (no
// sample when the pair is clear, the listed nodes only when they hold every candidate); else
// searching afresh, listing the nodes below margin + `skin` (m) in `near`.
std::vector<NodeContact> node_contacts(const ShapeTemplate& master, const Pose& master_pose,
                                       const ShapeTemplate& other, const Pose& other_pose, double margin,
                                       double other_radius, double skin, NearNodes& near);

}  // namespace scree::solver
