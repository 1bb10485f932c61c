#include "solver/shape_template.h"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "solver/trilinear.h"

namespace scree::solver {

ShapeTemplate::ShapeTemplate(std::array<int, 3> dims, std::vector<float> values, float background,
                             const Eigen::Matrix3d& body_to_index, const Eigen::Vector3d& index_offset,
                             std::vector<Eigen::Vector3f> nodes)
    : dims_(dims), values_(std::move(values)), background_(background), body_to_index_(body_to_index),
      index_offset_(index_offset), nodes_(std::move(nodes)) {
  if (dims_[0] < 2 || dims_[1] < 2 || dims_[2] < 2 ||
      values_.size() != std::size_t(dims_[0]) * std::size_t(dims_[1]) * std::size_t(dims_[2]))
    throw std::invalid_argument("shape template: values do not fill a box of at least 2 points a side");
  cluster_nodes();
}

void ShapeTemplate::cluster_nodes() {
  // Halve the nodes at the median of their box's longest side until a part holds at most
  // `leaf` nodes (a k-d tree's leaves): about 60 clusters of 2000 nodes.
  constexpr std::uint32_t leaf = 32;
  clustered_nodes_.resize(nodes_.size());
  std::iota(clustered_nodes_.begin(), clustered_nodes_.end(), 0u);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> parts{{0, std::uint32_t(nodes_.size())}};
  while (!parts.empty()) {
    const auto [begin, end] = parts.back();
    parts.pop_back();
    Eigen::AlignedBox3f box;
    for (std::uint32_t k = begin; k < end; ++k) box.extend(nodes_[clustered_nodes_[k]]);
    if (end - begin <= leaf) {
      float radius = 0;
      const Eigen::Vector3f centre = box.center();
      for (std::uint32_t k = begin; k < end; ++k) radius = std::max(radius, (nodes_[clustered_nodes_[k]] - centre).norm());
      clusters_.push_back({centre, radius, begin, end});
      continue;
    }
    int axis;
    box.sizes().maxCoeff(&axis);
    const std::uint32_t middle = begin + (end - begin) / 2;
    std::nth_element(clustered_nodes_.begin() + begin, clustered_nodes_.begin() + middle, clustered_nodes_.begin() + end,
                     [&](std::uint32_t a, std::uint32_t b) {
                       return nodes_[a][axis] < nodes_[b][axis] || (nodes_[a][axis] == nodes_[b][axis] && a < b);
                     });
    parts.push_back({middle, end});
    parts.push_back({begin, middle});
  }
}

bool ShapeTemplate::cell(const Eigen::Vector3d& body, std::array<float, 8>& corner, Eigen::Vector3d& local) const {
  const Eigen::Vector3d p = index_of(body);
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

double ShapeTemplate::value(const Eigen::Vector3d& body) const {
  std::array<float, 8> v;
  Eigen::Vector3d t;
  if (!cell(body, v, t)) return background_;
  return trilinear(v, t);
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
  return values_.size() * sizeof(float) + nodes_.size() * (sizeof(Eigen::Vector3f) + sizeof(std::uint32_t)) +
         clusters_.size() * sizeof(NodeCluster) + sizeof(*this);
}

}  // namespace scree::solver
