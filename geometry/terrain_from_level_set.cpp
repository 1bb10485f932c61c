#include "geometry/terrain_from_level_set.h"

#include <cmath>
#include <limits>
#include <string>

#include "formats/error.h"
#include "formats/level_set_grid.h"

namespace scree::geometry {

TerrainField terrain_field(const formats::VdbGrid& phi, const std::filesystem::path& file) {
  const double h = formats::vdb::voxel_size(phi);
  const auto& m = phi.index_to_world;  // world = A · index + t, row major
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      if (std::abs(m[4 * r + c] - (r == c ? h : 0)) > 1e-9 * h)
        throw formats::FileError(file, "the terrain grid is rotated against the world's axes; scree-solve needs "
                                       "index axes along x, y and z");
  const float band = phi.background[0];
  const auto [low_corner, high_corner] = phi.active_box();
  if (low_corner[0] > high_corner[0]) throw formats::FileError(file, "the terrain has no band");
  const int nx = high_corner[0] - low_corner[0] + 1, ny = high_corner[1] - low_corner[1] + 1;
  const std::size_t columns = std::size_t(nx) * std::size_t(ny);
  // Each column's active run, lowest to highest.
  std::vector<std::int32_t> low(columns, std::numeric_limits<std::int32_t>::max());
  std::vector<std::int32_t> high(columns, std::numeric_limits<std::int32_t>::min());
  phi.for_each_active([&](const formats::VoxelCoord& first, int edge, const float*) {
    for (int i = first[0]; i < first[0] + edge; ++i)
      for (int j = first[1]; j < first[1] + edge; ++j) {
        const std::size_t c = std::size_t(i - low_corner[0]) * ny + std::size_t(j - low_corner[1]);
        low[c] = std::min(low[c], first[2]);
        high[c] = std::max(high[c], first[2] + edge - 1);
      }
  });
  // The values laid out at their size, and each column's lowest k becoming its first: the
  // field is made beside the file's grid, and this is a node's first rank's peak of memory as
  // a run starts (docs/parallel.md, "Memory").
  std::size_t value_count = 0;
  for (std::size_t c = 0; c < columns; ++c)
    if (low[c] <= high[c]) value_count += std::size_t(high[c] - low[c] + 1);
  std::vector<std::uint32_t> start(columns + 1, 0);
  std::vector<float> values;
  values.reserve(value_count);
  for (std::size_t c = 0; c < columns; ++c) {
    start[c] = std::uint32_t(values.size());
    if (low[c] > high[c]) {  // no ground here (a masked hole): air all the way down
      low[c] = std::numeric_limits<std::int32_t>::min();
      continue;
    }
    const int i = low_corner[0] + int(c / ny), j = low_corner[1] + int(c % ny);
    if (!(*phi.value({i, j, low[c] - 1}) < 0) || !(*phi.value({i, j, high[c] + 1}) > 0))
      throw formats::FileError(file, "the terrain is not a height field: the band of column (" + std::to_string(i) +
                                         ", " + std::to_string(j) + ") does not run from ground below to air above");
    for (int k = low[c]; k <= high[c]; ++k) values.push_back(*phi.value({i, j, k}));
  }
  start[columns] = std::uint32_t(values.size());
  high = std::vector<std::int32_t>();  // its room too: `= {}` keeps it (solver/let_go.h)
  std::vector<std::int32_t> first_k = std::move(low);
  const Eigen::Vector3d corner = Eigen::Vector3d(low_corner[0], low_corner[1], low_corner[2]) * h +
                                 Eigen::Vector3d(m[3], m[7], m[11]);
  return TerrainField(Eigen::Vector3d(corner[0], corner[1], m[11]), h, nx, ny, std::move(first_k), std::move(start),
                      std::move(values), band);
}

}  // namespace scree::geometry
