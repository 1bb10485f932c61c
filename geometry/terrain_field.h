#pragma once
// The terrain as the solver samples it: the narrow band of the terrain's level set stored
// column by column. A ground that is a height field has, in every vertical grid column, one
// contiguous run of band values (φ grows with height along a column), solid below it and air
// above it; the columns hold just that run. A sample reads its cell's eight values from four
// columns, no tree walk, and the memory is the band itself plus two integers per column, in three flat arrays that one
// copy per machine can serve (seed 000 keeps the band only, for the same reason).
// Light header: Eigen only; `geometry/terrain_from_file.h` builds one from a terrain file.
#include <Eigen/Dense>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace scree::geometry {

class TerrainField {
 public:
  // Grid point (i, j, k) lies at origin + voxel · (i, j, k), for 0 ≤ i < nx, 0 ≤ j < ny and
  // any k. Column c = i · ny + j holds values[start[c] .. start[c + 1]) for k = first_k[c] on;
  // below them the ground (−band), above them and beyond the columns air (+band). `start`
  // has nx · ny + 1 entries.
  TerrainField(const Eigen::Vector3d& origin, double voxel, int nx, int ny, std::vector<std::int32_t> first_k,
               std::vector<std::uint32_t> start, std::vector<float> values, float band);

  // φ (m, negative below the ground), trilinear between grid points.
  double value(const Eigen::Vector3d& world) const;
  // φ and its gradient from the same cell; the gradient is zero where the cell lies wholly
  // below or above the band.
  double value_and_gradient(const Eigen::Vector3d& world, Eigen::Vector3d& gradient) const;
  // Whether a ball of `radius` about `centre` lies clear of the ground: its centre is
  // farther than the radius from it by the band's exact distance, or the ball passes above
  // every band value of the columns under it.
  bool clear_of(const Eigen::Vector3d& centre, double radius) const;
  // Whether value() may fall below `below` anywhere within `radius` of `centre`: false only
  // where it provably does not (the value at the centre less the steepest slope under the ball
  // × radius), so that culling a grain's nodes with it is exact; true for a ball not wholly
  // over the grid's cells.
  bool may_be_below(const Eigen::Vector3d& centre, double radius, double below) const;
  // The steepest slope of value() under a ball of `radius` about `centre` (per metre, rounded
  // up): |value(x) − value(y)| ≤ slope |x − y| for x and y within the ball; none for a ball
  // not wholly over the grid's cells.
  std::optional<double> steepest_slope_under(const Eigen::Vector3d& centre, double radius) const;

  // The height of the ground (φ's zero) on the vertical line through (x, y), where the four
  // columns around it hold ground; none beyond the terrain.
  std::optional<double> ground_height(double x, double y) const;

  double band() const { return band_; }  // m
  const Eigen::Vector3d& origin() const { return origin_; }  // grid point (0, 0, 0)
  double voxel_size() const { return voxel_; }
  std::size_t bytes() const;  // memory held

  // The field as one block of bytes, and a field that reads such a block where it lies,
  // `keep` holding it: one copy of a node's memory serves every rank there (docs/parallel.md,
  // "Memory"). Copies of a field share its arrays.
  std::vector<std::byte> flat() const;
  static TerrainField in_place(std::span<const std::byte> block, std::shared_ptr<const void> keep);
  // A field on arrays that `keep` holds.
  static TerrainField in_place_arrays(const Eigen::Vector3d& origin, double voxel, int nx, int ny,
                                      std::span<const std::int32_t> first_k, std::span<const std::uint32_t> start,
                                      std::span<const float> values, float band, std::shared_ptr<const void> keep);

 private:
  // Values at k and k + 1 of column (i, j).
  void column_pair(int i, int j, int k, float* pair) const;
  bool cell(const Eigen::Vector3d& world, std::array<float, 8>& corner, Eigen::Vector3d& local) const;
  std::vector<float> steepest_slopes() const;
  std::size_t tile_count() const;

  // With `tile_slopes` (tile_count() of them, as steepest_slopes() gives) where a flat block
  // carries them; empty: found anew.
  TerrainField(const Eigen::Vector3d& origin, double voxel, int nx, int ny, std::span<const std::int32_t> first_k,
               std::span<const std::uint32_t> start, std::span<const float> values, float band, std::shared_ptr<const void> keep,
               std::span<const float> tile_slopes = {});

  Eigen::Vector3d origin_;
  double voxel_;
  int nx_, ny_;
  std::shared_ptr<const void> keep_;  // what holds the arrays
  std::span<const std::int32_t> first_k_;
  std::span<const std::uint32_t> start_;
  std::span<const float> values_;
  float band_;
  // The steepest slope of value() (per metre, rounded up) over the cells of each tile of
  // `tile` × `tile` columns, at any height: |value(x) − value(y)| ≤ slope |x − y| for x and y
  // over the tile. A distance's is about 1; where the grid cuts the band off at its sides it
  // is several times that, so one bound for the whole grid would cull little anywhere. Found
  // once a node, as the columns are: a flat block carries them after the values.
  static constexpr int tile = 8;
  static int tiles_along(int columns) { return std::max(columns - 2, 0) / tile + 1; }  // over columns − 1 cells
  int tiles_y_ = 0;
  std::shared_ptr<const std::vector<float>> own_slopes_;  // where found here rather than read in place
  std::span<const float> tile_slopes_;
};

}  // namespace scree::geometry
