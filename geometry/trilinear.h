#pragma once
// Trilinear interpolation in one grid cell, shared by the grain templates and the terrain.
#include <Eigen/Dense>

#include <array>

namespace scree::geometry {

// The value at `t` ∈ [0, 1]³ of the cell whose corners hold `v`, ordered (i, j, k) with k
// fastest: v[4i + 2j + k]; with `index_gradient`, also its gradient in index units from the
// same cell.
inline double trilinear(const std::array<float, 8>& v, const Eigen::Vector3d& t,
                        Eigen::Vector3d* index_gradient = nullptr) {
  const double c00 = v[0] + (v[1] - v[0]) * t[2], c01 = v[2] + (v[3] - v[2]) * t[2];
  const double c10 = v[4] + (v[5] - v[4]) * t[2], c11 = v[6] + (v[7] - v[6]) * t[2];
  const double c0 = c00 + (c01 - c00) * t[1], c1 = c10 + (c11 - c10) * t[1];
  if (index_gradient) {
    (*index_gradient)[0] = c1 - c0;
    (*index_gradient)[1] = (c01 - c00) * (1 - t[0]) + (c11 - c10) * t[0];
    const double d0 = (v[1] - v[0]) * (1 - t[1]) + (v[3] - v[2]) * t[1];
    const double d1 = (v[5] - v[4]) * (1 - t[1]) + (v[7] - v[6]) * t[1];
    (*index_gradient)[2] = d0 * (1 - t[0]) + d1 * t[0];
  }
  return c0 + (c1 - c0) * t[0];
}

}  // namespace scree::geometry
