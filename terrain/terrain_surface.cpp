#include "terrain/terrain_surface.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace scree::terrain {

using Eigen::Vector3d;

Vector3d closest_point_on_triangle(const Vector3d& p, const Vector3d& a, const Vector3d& b, const Vector3d& c) {
  // Voronoi regions of the vertices, then the edges, then the face (Ericson, Real-Time
  // Collision Detection, §5.1.5).
  const Vector3d ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Vector3d bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + ab * (d1 / (d1 - d3));
  const Vector3d cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + ac * (d2 / (d2 - d6));
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
  const double denominator = 1 / (va + vb + vc);
  return a + ab * (vb * denominator) + ac * (vc * denominator);
}

TerrainSurface::TerrainSurface(std::vector<Vector3d> vertices, std::vector<Triangle> triangles)
    : vertices_(std::move(vertices)), triangles_(std::move(triangles)) {
  if (triangles_.empty()) throw std::invalid_argument("the ground has no triangle");
  lower_ = upper_ = vertices_[triangles_[0][0]];
  double footprint = 0;
  for (const Triangle& t : triangles_)
    for (std::uint32_t v : t) {
      if (v >= vertices_.size()) throw std::invalid_argument("a triangle names a vertex that does not exist");
      lower_ = lower_.cwiseMin(vertices_[v]);
      upper_ = upper_.cwiseMax(vertices_[v]);
    }
  for (const Triangle& t : triangles_) {
    const Vector3d e1 = vertices_[t[1]] - vertices_[t[0]], e2 = vertices_[t[2]] - vertices_[t[0]];
    footprint += 0.5 * std::abs(e1.x() * e2.y() - e1.y() * e2.x());
  }
  // Bins about two triangles wide: few triangles per bin, few bins per query.
  bin_size_ = std::max(2 * std::sqrt(footprint / double(triangles_.size())), 1e-9 * (upper_ - lower_).norm());
  if (!(bin_size_ > 0)) throw std::invalid_argument("the ground's triangles have no extent across x-y");
  bins_x_ = std::size_t((upper_.x() - lower_.x()) / bin_size_) + 1;
  bins_y_ = std::size_t((upper_.y() - lower_.y()) / bin_size_) + 1;
  auto bin_range = [&](const Triangle& t, std::size_t (&lo)[2], std::size_t (&hi)[2]) {
    for (int axis = 0; axis < 2; ++axis) {
      double mn = vertices_[t[0]][axis], mx = mn;
      for (std::uint32_t v : t) {
        mn = std::min(mn, vertices_[v][axis]);
        mx = std::max(mx, vertices_[v][axis]);
      }
      const std::size_t bins = axis == 0 ? bins_x_ : bins_y_;
      lo[axis] = std::min(bins - 1, std::size_t((mn - lower_[axis]) / bin_size_));
      hi[axis] = std::min(bins - 1, std::size_t((mx - lower_[axis]) / bin_size_));
    }
  };
  std::vector<std::uint32_t> count(bins_x_ * bins_y_ + 1, 0);
  for (const Triangle& t : triangles_) {
    std::size_t lo[2], hi[2];
    bin_range(t, lo, hi);
    for (std::size_t j = lo[1]; j <= hi[1]; ++j)
      for (std::size_t i = lo[0]; i <= hi[0]; ++i) ++count[j * bins_x_ + i + 1];
  }
  for (std::size_t b = 1; b < count.size(); ++b) count[b] += count[b - 1];
  bin_start_ = count;
  bin_triangles_.resize(count.back());
  for (std::uint32_t k = 0; k < triangles_.size(); ++k) {
    std::size_t lo[2], hi[2];
    bin_range(triangles_[k], lo, hi);
    for (std::size_t j = lo[1]; j <= hi[1]; ++j)
      for (std::size_t i = lo[0]; i <= hi[0]; ++i) bin_triangles_[count[j * bins_x_ + i]++] = k;
  }
}

TerrainSurface TerrainSurface::from_grid(const HeightGrid& grid) {
  std::vector<Vector3d> vertices(grid.size());
  for (std::size_t k = 0; k < grid.size(); ++k) vertices[k] = Vector3d(grid.x[k], grid.y[k], grid.z[k]);
  std::vector<Triangle> triangles;
  auto has = [&](std::size_t i, std::size_t j) { return std::isfinite(grid.z[grid.index(i, j)]); };
  for (std::size_t j = 0; j + 1 < grid.ny; ++j)
    for (std::size_t i = 0; i + 1 < grid.nx; ++i) {
      if (!has(i, j) || !has(i + 1, j) || !has(i, j + 1) || !has(i + 1, j + 1)) continue;
      const auto a = std::uint32_t(grid.index(i, j)), b = std::uint32_t(grid.index(i + 1, j)),
                 c = std::uint32_t(grid.index(i + 1, j + 1)), d = std::uint32_t(grid.index(i, j + 1));
      triangles.push_back({a, b, c});
      triangles.push_back({a, c, d});
    }
  if (triangles.empty()) throw std::invalid_argument("no cell has heights at all four corners");
  return TerrainSurface(std::move(vertices), std::move(triangles));
}

template <class Visit>
void TerrainSurface::for_each_triangle_near(double x, double y, double reach, Visit visit) const {
  const double lo_x = (x - reach - lower_.x()) / bin_size_, hi_x = (x + reach - lower_.x()) / bin_size_;
  const double lo_y = (y - reach - lower_.y()) / bin_size_, hi_y = (y + reach - lower_.y()) / bin_size_;
  if (hi_x < 0 || hi_y < 0 || lo_x >= double(bins_x_) || lo_y >= double(bins_y_)) return;
  const std::size_t i0 = std::size_t(std::max(lo_x, 0.0)), i1 = std::min(bins_x_ - 1, std::size_t(hi_x));
  const std::size_t j0 = std::size_t(std::max(lo_y, 0.0)), j1 = std::min(bins_y_ - 1, std::size_t(hi_y));
  for (std::size_t j = j0; j <= j1; ++j)
    for (std::size_t i = i0; i <= i1; ++i) {
      const std::size_t bin = j * bins_x_ + i;
      for (std::uint32_t k = bin_start_[bin]; k < bin_start_[bin + 1]; ++k)
        if (!visit(triangles_[bin_triangles_[k]])) return;
    }
}

std::optional<double> TerrainSurface::height(double x, double y) const {
  std::optional<double> found;
  for_each_triangle_near(x, y, 0, [&](const Triangle& t) {
    const Vector3d &a = vertices_[t[0]], &b = vertices_[t[1]], &c = vertices_[t[2]];
    // Barycentric coordinates in x-y; a point on a shared edge belongs to either triangle.
    const double det = (b.x() - a.x()) * (c.y() - a.y()) - (c.x() - a.x()) * (b.y() - a.y());
    if (det == 0) return true;
    const double u = ((x - a.x()) * (c.y() - a.y()) - (c.x() - a.x()) * (y - a.y())) / det;
    const double v = ((b.x() - a.x()) * (y - a.y()) - (x - a.x()) * (b.y() - a.y())) / det;
    constexpr double tolerance = 1e-12;
    if (u < -tolerance || v < -tolerance || u + v > 1 + tolerance) return true;
    found = a.z() + u * (b.z() - a.z()) + v * (c.z() - a.z());
    return false;
  });
  return found;
}

std::optional<Vector3d> TerrainSurface::nearest_point(const Vector3d& p, double reach) const {
  std::optional<Vector3d> nearest;
  double gap = reach * reach;
  for_each_triangle_near(p.x(), p.y(), reach, [&](const Triangle& t) {
    const Vector3d q = closest_point_on_triangle(p, vertices_[t[0]], vertices_[t[1]], vertices_[t[2]]);
    if (const double d = (p - q).squaredNorm(); d <= gap) gap = d, nearest = q;
    return true;
  });
  return nearest;
}

std::optional<std::array<double, 2>> TerrainSurface::height_range(double x, double y, double reach) const {
  std::optional<std::array<double, 2>> range;
  for_each_triangle_near(x, y, reach, [&](const Triangle& t) {
    for (std::uint32_t v : t) {
      const double z = vertices_[v].z();
      if (!range) range = std::array<double, 2>{z, z};
      (*range)[0] = std::min((*range)[0], z);
      (*range)[1] = std::max((*range)[1], z);
    }
    return true;
  });
  return range;
}

}  // namespace scree::terrain
