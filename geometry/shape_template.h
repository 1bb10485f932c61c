#pragma once
// A grain template as the solver samples it: the avatar's level set copied into a flat float
// array over its active box (DESIGN §7: flat sampling is ~6× faster than walking an OpenVDB
// tree and takes half the memory of a dense double grid), with the affine map from the body
// frame to index space, plus the boundary nodes. Many grains share one template; a grain's
// uniform scale s is applied by the caller (φ_grain(x) = s φ(x / s)).
// Light header: Eigen only; `geometry/template_from_avatar.h` builds one from an avatar.
#include <Eigen/Dense>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace scree::geometry {

// A part of a template's boundary nodes and the sphere around them, in a bounding hierarchy
// (a k-d tree of spheres, stored depth first): the contact search tests a part's sphere
// before its halves and a leaf's before its nodes, so its cost follows the nodes near a
// contact, not all of them.
struct NodeCluster {
  Eigen::Vector3f centre;     // body frame, template units
  float radius;               // every node of the part is within it of the centre
  std::uint32_t begin, end;   // the part's nodes: clustered_nodes()[begin, end)
  std::uint32_t after;        // the index of the first cluster past this one's subtree
  bool leaf;                  // no halves: its nodes are visited
};

class ShapeTemplate {
 public:
  // `values` is x-major: value(i, j, k) = values[(i·ny + j)·nz + k] for index (i, j, k) of
  // the box; index = body_to_index · body + index_offset (then relative to the box's corner).
  ShapeTemplate(std::array<int, 3> dims, std::vector<float> values, float background,
                const Eigen::Matrix3d& body_to_index, const Eigen::Vector3d& index_offset,
                std::vector<Eigen::Vector3f> nodes);
  // The same on values that lie elsewhere, held by `keep` (a node's ranks share them:
  // flat_shapes.h). Copies of a template share its values.
  ShapeTemplate(std::array<int, 3> dims, std::span<const float> values, std::shared_ptr<const void> keep, float background,
                const Eigen::Matrix3d& body_to_index, const Eigen::Vector3d& index_offset,
                std::vector<Eigen::Vector3f> nodes);

  // Trilinear φ at a body-frame point; the background (outside) beyond the box.
  double value(const Eigen::Vector3d& body) const;
  // The same at a point already in index space (index_of): for callers that fold the map
  // from body to index into a transform of their own, one product a point fewer.
  double value_at_index(const Eigen::Vector3d& index) const;
  // Whether value() may fall below `below` anywhere within `radius` (body frame) of a point:
  // false only where it provably does not, so that culling with it is exact. Two proofs: the
  // value at the point less `lipschitz()` × radius (one look-up, any radius), and, for a
  // radius of a few voxels, every grid value the interpolation there could use (the minima of
  // blocks of 4³ cells).
  bool may_be_below(const Eigen::Vector3d& body, double radius, double below) const;
  // The steepest slope of value() anywhere in the box, per body-frame metre (a distance
  // field's is about 1): |value(x) − value(y)| ≤ lipschitz() |x − y| within the box.
  double lipschitz() const { return lipschitz_; }
  // φ and its gradient (body frame) from the same trilinear cell; zero gradient beyond the box.
  double value_and_gradient(const Eigen::Vector3d& body, Eigen::Vector3d& gradient) const;

  const std::array<int, 3>& dims() const { return dims_; }
  Eigen::Vector3d index_of(const Eigen::Vector3d& body) const { return body_to_index_ * body + index_offset_; }
  const Eigen::Matrix3d& body_to_index() const { return body_to_index_; }
  const Eigen::Vector3d& index_offset() const { return index_offset_; }
  std::span<const float> values() const { return values_; }  // x-major over the box
  float background() const { return background_; }
  const std::vector<Eigen::Vector3f>& nodes() const { return nodes_; }
  const std::vector<NodeCluster>& node_clusters() const { return clusters_; }
  const std::vector<std::uint32_t>& clustered_nodes() const { return clustered_nodes_; }  // node indices

  // Calls visit(i) for each node i of every leaf whose sphere, and every larger part's
  // around it, `near(centre, radius)` accepts, leaf by leaf (not in node order).
  template <class Near, class Visit>
  void for_nodes_near(Near near, Visit visit) const {
    for (std::size_t c = 0; c < clusters_.size();) {
      const NodeCluster& part = clusters_[c];
      if (!near(part.centre, part.radius)) {
        c = part.after;
        continue;
      }
      if (!part.leaf) {
        ++c;
        continue;
      }
      for (std::uint32_t k = part.begin; k < part.end; ++k) visit(clustered_nodes_[k]);
      c = part.after;
    }
  }

  double voxel_size() const { return 1.0 / body_to_index_.row(0).norm(); }  // body-frame metres
  std::size_t bytes() const;  // memory held: values and nodes

 private:
  ShapeTemplate(std::array<int, 3> dims, std::shared_ptr<const std::vector<float>> own, float background,
                const Eigen::Matrix3d& body_to_index, const Eigen::Vector3d& index_offset, std::vector<Eigen::Vector3f> nodes);
  void cluster_nodes();
  void find_block_minima();
  void find_lipschitz();
  bool cell(const Eigen::Vector3d& body, std::array<float, 8>& corner, Eigen::Vector3d& local) const;
  bool cell_at_index(const Eigen::Vector3d& index, std::array<float, 8>& corner, Eigen::Vector3d& local) const;

  std::array<int, 3> dims_;
  std::shared_ptr<const void> keep_;  // what holds the values
  std::span<const float> values_;
  float background_;
  Eigen::Matrix3d body_to_index_;
  Eigen::Vector3d index_offset_;
  std::vector<Eigen::Vector3f> nodes_;
  static constexpr int block = 4;      // cells a side of a block of `block_minima_`
  std::array<int, 3> blocks_;          // blocks along each axis
  std::vector<float> block_minima_;    // the least value a cell of the block interpolates from
  double lipschitz_ = 0;
  std::vector<NodeCluster> clusters_;
  std::vector<std::uint32_t> clustered_nodes_;
};

}  // namespace scree::geometry
