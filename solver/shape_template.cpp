#include "solver/shape_template.h"

#include <cmath>
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
}

bool ShapeTemplate::cell(const Eigen::Vector3d& body, std::array<float, 8>& corner, Eigen::Vector3d& local) const {
  const Eigen::Vector3d p = body_to_index_ * body + index_offset_;
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
  return values_.size() * sizeof(float) + nodes_.size() * sizeof(Eigen::Vector3f) + sizeof(*this);
}

}  // namespace scree::solver
