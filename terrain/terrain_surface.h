#pragma once
// The ground as triangles whose projections onto the x-y plane do not overlap (a height
// field z = h(x, y)), with a bin grid over x-y for the queries a level set needs: the height
// above a point, and the Euclidean distance from a point to the nearest triangle.
// Light header: Eigen only.
#include <Eigen/Core>

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "terrain/height_grid.h"

namespace scree::terrain {

class TerrainSurface {
 public:
  using Triangle = std::array<std::uint32_t, 3>;
  TerrainSurface(std::vector<Eigen::Vector3d> vertices, std::vector<Triangle> triangles);
  // Two triangles per cell whose four corners have heights, through the nodes.
  static TerrainSurface from_grid(const HeightGrid& grid);

  // h(x, y) on the triangle above or below (x, y); none outside the ground's footprint and in
  // holes.
  std::optional<double> height(double x, double y) const;
  // The point of the ground nearest to p, when one lies within `reach`.
  std::optional<Eigen::Vector3d> nearest_point(const Eigen::Vector3d& p, double reach) const;
  // Lowest and highest vertex of the triangles whose x-y boxes come within `reach` of (x, y);
  // none when there is no such triangle.
  std::optional<std::array<double, 2>> height_range(double x, double y, double reach) const;

  const std::vector<Eigen::Vector3d>& vertices() const { return vertices_; }
  const std::vector<Triangle>& triangles() const { return triangles_; }
  Eigen::Vector3d lower() const { return lower_; }
  Eigen::Vector3d upper() const { return upper_; }

 private:
  template <class Visit>
  void for_each_triangle_near(double x, double y, double reach, Visit visit) const;

  std::vector<Eigen::Vector3d> vertices_;
  std::vector<Triangle> triangles_;
  Eigen::Vector3d lower_, upper_;
  // Bins over x-y: each lists the triangles whose x-y boxes overlap it.
  double bin_size_ = 1;
  std::size_t bins_x_ = 1, bins_y_ = 1;
  std::vector<std::uint32_t> bin_start_, bin_triangles_;
};

// The point of triangle (a, b, c) nearest to p.
Eigen::Vector3d closest_point_on_triangle(const Eigen::Vector3d& p, const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                          const Eigen::Vector3d& c);

}  // namespace scree::terrain
