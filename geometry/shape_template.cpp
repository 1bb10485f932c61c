#include "geometry/shape_template.h"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "geometry/trilinear.h"

namespace scree::geometry {

ShapeTemplate::ShapeTemplate(std::array<int, 3> dims, std::vector<float> values, float background,
                             const Eigen::Matrix3d& body_to_index, const Eigen::Vector3d& index_offset,
                             std::vector<Eigen::Vector3f> nodes)
    : ShapeTemplate(dims, std::make_shared<const std::vector<float>>(std::move(values)), background, body_to_index,
                    index_offset, std::move(nodes)) {}

ShapeTemplate::ShapeTemplate(std::array<int, 3> dims, std::shared_ptr<const std::vector<float>> own, float background,
                             const Eigen::Matrix3d& body_to_index, const Eigen::Vector3d& index_offset,
                             std::vector<Eigen::Vector3f> nodes)
    : ShapeTemplate(dims, std::span<const float>(*own), own, background, body_to_index, index_offset, std::move(nodes)) {}

ShapeTemplate::ShapeTemplate(std::array<int, 3> dims, std::span<const float> values, std::shared_ptr<const void> keep,
                             float background, const Eigen::Matrix3d& body_to_index, const Eigen::Vector3d& index_offset,
                             std::vector<Eigen::Vector3f> nodes)
    : dims_(dims), keep_(std::move(keep)), values_(values), background_(background), body_to_index_(body_to_index),
      index_offset_(index_offset), nodes_(std::move(nodes)) {
  if (dims_[0] < 2 || dims_[1] < 2 || dims_[2] < 2 ||
      values_.size() != std::size_t(dims_[0]) * std::size_t(dims_[1]) * std::size_t(dims_[2]))
    throw std::invalid_argument("shape template: values do not fill a box of at least 2 points a side");
  cluster_nodes();
  find_block_minima();
  find_lipschitz();
}

void ShapeTemplate::cluster_nodes() {
  // Halve the nodes at the median of their box's longest side until a part holds at most
  // `leaf` nodes: a k-d tree, stored depth first (about 500 parts for 2000 nodes).
  constexpr std::uint32_t leaf = 8;
  clustered_nodes_.resize(nodes_.size());
  std::iota(clustered_nodes_.begin(), clustered_nodes_.end(), 0u);
  auto build = [&](auto& self, std::uint32_t begin, std::uint32_t end) -> void {
    Eigen::AlignedBox3f box;
    for (std::uint32_t k = begin; k < end; ++k) box.extend(nodes_[clustered_nodes_[k]]);
    float radius = 0;
    const Eigen::Vector3f centre = box.center();
    for (std::uint32_t k = begin; k < end; ++k) radius = std::max(radius, (nodes_[clustered_nodes_[k]] - centre).norm());
    const std::size_t index = clusters_.size();
    clusters_.push_back({centre, radius, begin, end, 0, end - begin <= leaf});
    if (!clusters_[index].leaf) {
      int axis;
      box.sizes().maxCoeff(&axis);
      const std::uint32_t middle = begin + (end - begin) / 2;
      std::nth_element(clustered_nodes_.begin() + begin, clustered_nodes_.begin() + middle, clustered_nodes_.begin() + end,
                       [&](std::uint32_t a, std::uint32_t b) {
                         return nodes_[a][axis] < nodes_[b][axis] || (nodes_[a][axis] == nodes_[b][axis] && a < b);
                       });
      self(self, begin, middle);
      self(self, middle, end);
    }
    clusters_[index].after = std::uint32_t(clusters_.size());
  };
  if (!nodes_.empty()) build(build, 0, std::uint32_t(nodes_.size()));
}

bool ShapeTemplate::cell(const Eigen::Vector3d& body, std::array<float, 8>& corner, Eigen::Vector3d& local) const {
  return cell_at_index(index_of(body), corner, local);
}

bool ShapeTemplate::cell_at_index(const Eigen::Vector3d& p, std::array<float, 8>& corner, Eigen::Vector3d& local) const {
  int c[3];
  for (int a = 0; a < 3; ++a) {
    double f = std::floor(p[a]);
    if (!(f >= 0 && f <= dims_[a] - 2)) return false;  // also false for NaN
    c[a] = int(f);
    local[a] = p[a] - f;
  }
  const std::size_t yz = std::size_t(dims_[1]) * dims_[2], z = std::size_t(dims_[2]);
  const float* base = values_.data() + std::size_t(c[0]) * yz + std::size_t(c[1]) * z + c[2];
  corner = {base[0], base[1], base[z], base[z + 1], base[yz], base[yz + 1], base[yz + z], base[yz + z + 1]};
  return true;
}

double ShapeTemplate::value(const Eigen::Vector3d& body) const { return value_at_index(index_of(body)); }

double ShapeTemplate::value_at_index(const Eigen::Vector3d& index) const {
  std::array<float, 8> v;
  Eigen::Vector3d t;
  if (!cell_at_index(index, v, t)) return background_;
  return trilinear(v, t);
}

void ShapeTemplate::find_block_minima() {
  // Block (I, J, K) covers the cells whose lowest corner is in [block I, block (I + 1)) along
  // each axis; a cell reads its corners one further, hence the inclusive upper bound.
  for (int a = 0; a < 3; ++a) blocks_[a] = (dims_[a] - 1 + block - 1) / block;
  block_minima_.assign(std::size_t(blocks_[0]) * blocks_[1] * blocks_[2], std::numeric_limits<float>::infinity());
  for (int i = 0; i < dims_[0]; ++i)
    for (int j = 0; j < dims_[1]; ++j)
      for (int k = 0; k < dims_[2]; ++k) {
        const float v = values_[(std::size_t(i) * dims_[1] + j) * dims_[2] + k];
        const int c[3] = {i, j, k};
        int low[3], high[3];
        for (int a = 0; a < 3; ++a) {
          low[a] = std::max(c[a] - 1, 0) / block;  // the cells with corner c[a] start at c[a] − 1 or c[a]
          high[a] = std::min(c[a], dims_[a] - 2) / block;
        }
        for (int bi = low[0]; bi <= high[0]; ++bi)
          for (int bj = low[1]; bj <= high[1]; ++bj)
            for (int bk = low[2]; bk <= high[2]; ++bk) {
              float& m = block_minima_[(std::size_t(bi) * blocks_[1] + bj) * blocks_[2] + bk];
              m = std::min(m, v);
            }
      }
}

void ShapeTemplate::find_lipschitz() {
  // The steepest corner of the box's cells (trilinear.h) bounds the slope between any two
  // points of the box, in index units; body_to_index_'s largest stretch turns it into body units.
  const std::size_t yz = std::size_t(dims_[1]) * dims_[2], z = std::size_t(dims_[2]);
  double steepest2 = 0;
  for (int i = 0; i + 1 < dims_[0]; ++i)
    for (int j = 0; j + 1 < dims_[1]; ++j)
      for (int k = 0; k + 1 < dims_[2]; ++k) {
        const float* c = values_.data() + std::size_t(i) * yz + std::size_t(j) * z + k;
        steepest2 = std::max(steepest2, steepest_slope2({c[0], c[1], c[z], c[z + 1], c[yz], c[yz + 1], c[yz + z], c[yz + z + 1]}));
      }
  const double stretch = Eigen::JacobiSVD<Eigen::Matrix3d>(body_to_index_).singularValues()[0];
  lipschitz_ = std::sqrt(steepest2) * stretch;
}

bool ShapeTemplate::may_be_below(const Eigen::Vector3d& body, double radius, double below) const {
  if (background_ < below) return true;  // beyond the box value() is the background
  const Eigen::Vector3d p = index_of(body);
  const double reach = radius / voxel_size();  // index units are voxels
  int low[3], high[3];
  for (int a = 0; a < 3; ++a) {
    const double from = std::floor(p[a] - reach), to = std::floor(p[a] + reach);
    if (!(to >= 0 && from <= dims_[a] - 2)) return false;  // all beyond the box: the background (also NaN)
    low[a] = int(std::max(from, 0.0)) / block;
    high[a] = int(std::min(to, double(dims_[a] - 2))) / block;
  }
  // Within the box value() is at least the point's less lipschitz_ × radius; beyond it the
  // background, which is at least `below` (above). The margin covers the round-off of two
  // interpolations at nearby points. A part so large that the bound could not clear `below`
  // from a value at most the background skips the look-up.
  std::array<float, 8> corner;
  Eigen::Vector3d local;
  if (lipschitz_ * radius < background_ - below && cell_at_index(p, corner, local) &&
      trilinear(corner, local) - lipschitz_ * radius * (1 + 1e-6) >= below + 1e-6 * voxel_size())
    return false;
  if (reach > block) return true;  // a large part: its halves will tell, for less than the blocks' loop
  for (int bi = low[0]; bi <= high[0]; ++bi)
    for (int bj = low[1]; bj <= high[1]; ++bj)
      for (int bk = low[2]; bk <= high[2]; ++bk)
        if (block_minima_[(std::size_t(bi) * blocks_[1] + bj) * blocks_[2] + bk] < below) return true;
  return false;
}

double ShapeTemplate::value_and_gradient(const Eigen::Vector3d& body, Eigen::Vector3d& gradient) const {
  std::array<float, 8> v;
  Eigen::Vector3d t;
  if (!cell(body, v, t)) {
    gradient.setZero();
    return background_;
  }
  Eigen::Vector3d index_gradient;
  const double value = trilinear(v, t, &index_gradient);
  gradient = body_to_index_.transpose() * index_gradient;  // chain rule
  return value;
}

std::size_t ShapeTemplate::bytes() const {
  return (values_.size() + block_minima_.size()) * sizeof(float) +
         nodes_.size() * (sizeof(Eigen::Vector3f) + sizeof(std::uint32_t)) +
         clusters_.size() * sizeof(NodeCluster) + sizeof(*this);
}

}  // namespace scree::geometry
