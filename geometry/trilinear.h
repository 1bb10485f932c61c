#pragma once
// Trilinear interpolation in one grid cell, shared by the grain templates and the terrain.
#include <Eigen/Dense>

#include <algorithm>
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

// The steepest |gradient|² (index units) of that interpolant anywhere in the cell: ∂φ/∂i is
// the bilinear blend over (j, k) of the cell's four differences along i, and likewise along j
// and k, so |∇φ|² is convex along each axis and largest at a corner, where the three are edge
// differences. Cells that join continuously over a convex region bound the slope between any
// two of its points by their steepest corner.
inline double steepest_slope2(const std::array<float, 8>& v) {
  double steepest2 = 0;
  for (int corner = 0; corner < 8; ++corner) {
    const int ci = corner >> 2, cj = (corner >> 1) & 1, ck = corner & 1;
    const double di = double(v[4 + 2 * cj + ck]) - v[2 * cj + ck];
    const double dj = double(v[4 * ci + 2 + ck]) - v[4 * ci + ck];
    const double dk = double(v[4 * ci + 2 * cj + 1]) - v[4 * ci + 2 * cj];
    steepest2 = std::max(steepest2, di * di + dj * dj + dk * dk);
  }
  return steepest2;
}

}  // namespace scree::geometry
