#include "solver/shape_template.h"

#include <cmath>
#include <stdexcept>

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
  const double c00 = v[0] + (v[1] - v[0]) * t[2], c01 = v[2] + (v[3] - v[2]) * t[2];
  const double c10 = v[4] + (v[5] - v[4]) * t[2], c11 = v[6] + (v[7] - v[6]) * t[2];
  const double c0 = c00 + (c01 - c00) * t[1], c1 = c10 + (c11 - c10) * t[1];
  return c0 + (c1 - c0) * t[0];
}

double ShapeTemplate::value_and_gradient(const Eigen::Vector3d& body, Eigen::Vector3d& gradient) const {
  std::array<float, 8> v;
  Eigen::Vector3d t;
  if (!cell(body, v, t)) {
    gradient.setZero();
    return background_;
  }
  const double c00 = v[0] + (v[1] - v[0]) * t[2], c01 = v[2] + (v[3] - v[2]) * t[2];
  const double c10 = v[4] + (v[5] - v[4]) * t[2], c11 = v[6] + (v[7] - v[6]) * t[2];
  const double c0 = c00 + (c01 - c00) * t[1], c1 = c10 + (c11 - c10) * t[1];
  Eigen::Vector3d index_gradient;
  index_gradient[0] = c1 - c0;
  index_gradient[1] = (c01 - c00) * (1 - t[0]) + (c11 - c10) * t[0];
  const double d0 = (v[1] - v[0]) * (1 - t[1]) + (v[3] - v[2]) * t[1];
  const double d1 = (v[5] - v[4]) * (1 - t[1]) + (v[7] - v[6]) * t[1];
  index_gradient[2] = d0 * (1 - t[0]) + d1 * t[0];
  gradient = body_to_index_.transpose() * index_gradient;  // chain rule
  return c0 + (c1 - c0) * t[0];
}

std::size_t ShapeTemplate::bytes() const {
  return values_.size() * sizeof(float) + nodes_.size() * sizeof(Eigen::Vector3f) + sizeof(*this);
}

}  // namespace scree::solver
