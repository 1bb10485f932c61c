#include "post/deposit_map.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <unordered_map>

#include "formats/error.h"
#include "geometry/terrain_from_file.h"
#include "terrain/height_grid.h"

namespace scree::post {

namespace {

std::string metres(double v) {
  std::ostringstream s;
  s.precision(3);
  s << v << " m";
  return s.str();
}

}  // namespace

void check_dem_matches_terrain(const std::filesystem::path& dem, const formats::Terrain& terrain,
                               const std::filesystem::path& terrain_file) {
  terrain::HeightGrid grid = terrain::read_raster(dem);
  if (grid.geographic) {
    if (terrain.crs_wkt.empty())
      throw formats::FileError(dem, "it is in degrees but the terrain " + terrain_file.string() + " has no coordinate system");
    terrain::project(grid, terrain.crs_wkt);
  } else if (!terrain::same_crs(grid.crs_wkt, terrain.crs_wkt)) {
    throw formats::FileError(dem, "its coordinate system is not the terrain's (" + terrain_file.string() +
                                      "): a deposit map would not lie over the ground it was simulated on");
  }
  const geometry::TerrainField field = geometry::terrain_field(terrain, terrain_file);
  const auto& offset = terrain.origin_offset;
  // Up to about 2000 nodes spread over the raster.
  const std::size_t stride = std::max<std::size_t>(1, std::size_t(std::sqrt(double(grid.size()) / 2000)));
  std::vector<double> differences;
  for (std::size_t j = 0; j < grid.ny; j += stride)
    for (std::size_t i = 0; i < grid.nx; i += stride) {
      const std::size_t k = grid.index(i, j);
      if (std::isnan(grid.z[k])) continue;
      if (const auto ground = field.ground_height(grid.x[k] - offset[0], grid.y[k] - offset[1]))
        differences.push_back(std::abs(*ground + offset[2] - grid.z[k]));
    }
  if (differences.empty())
    throw formats::FileError(dem, "no cell of it lies over the terrain " + terrain_file.string() + ": not its DEM?");
  std::nth_element(differences.begin(), differences.begin() + std::ptrdiff_t(differences.size() / 2), differences.end());
  const double median = differences[differences.size() / 2];
  if (median > 2 * field.voxel_size())
    throw formats::FileError(dem, "its heights differ from the terrain's (" + terrain_file.string() + ") by " + metres(median) +
                                      " (median of " + std::to_string(differences.size()) +
                                      " cells): not the DEM the terrain was built from");
}

MapAlignment alignment_with(const terrain::RasterGrid& dem, const std::string& terrain_crs,
                            const std::array<double, 3>& offset) {
  const auto& g = dem.geotransform;
  MapAlignment a;
  if (dem.geographic || !terrain::same_crs(dem.taken_as_wkt, terrain_crs) || g[2] != 0 || g[4] != 0 ||
      std::abs(std::abs(g[1]) - std::abs(g[5])) > 1e-9 * std::abs(g[1]))
    return a;
  a.cell = std::abs(g[1]);
  a.corner = {g[0] - offset[0], g[3] - offset[1]};
  return a;
}

DepositMap map_deposit(const DepositRaster& deposit, const terrain::RasterGrid& dem, const std::string& terrain_crs,
                       const std::array<double, 3>& offset) {
  const ColumnGrid& c = deposit.grid;
  std::vector<double> x, y, volume;
  for (std::size_t j = 0; j < c.ny; ++j)
    for (std::size_t i = 0; i < c.nx; ++i)
      if (deposit.covered(j * c.nx + i)) {
        x.push_back(c.x(i) + offset[0]);
        y.push_back(c.y(j) + offset[1]);
        volume.push_back(double(deposit.thickness[j * c.nx + i]) * c.spacing * c.spacing);
      }
  terrain::transform_points(terrain_crs, dem.taken_as_wkt, x, y);
  DepositMap map;
  std::vector<double> cell_volume(dem.nx * dem.ny, 0.0);
  for (std::size_t n = 0; n < x.size(); ++n) {
    const auto [col, row] = dem.pixel_of(x[n], y[n]);
    if (col >= 0 && row >= 0 && col < double(dem.nx) && row < double(dem.ny)) {
      cell_volume[std::size_t(row) * dem.nx + std::size_t(col)] += volume[n];
      map.volume_on_map += volume[n];
    } else {
      map.volume_off_map += volume[n];
    }
  }
  // Each cell's area in the terrain's metric system, from its corners: exact for a DEM in the
  // same system; for one in degrees the projected quadrilateral, all corners moved at once.
  map.thickness.assign(cell_volume.size(), 0.f);
  std::vector<std::size_t> touched;
  for (std::size_t k = 0; k < cell_volume.size(); ++k)
    if (cell_volume[k] != 0) touched.push_back(k);
  const auto& g = dem.geotransform;
  std::vector<double> area(touched.size(), std::abs(g[1] * g[5] - g[2] * g[4]));
  if (!terrain::same_crs(dem.taken_as_wkt, terrain_crs)) {
    std::vector<double> cx, cy;
    for (const std::size_t k : touched)
      for (const auto& [dc, dr] : {std::pair(0, 0), std::pair(1, 0), std::pair(1, 1), std::pair(0, 1)}) {
        const auto p = dem.corner(double(k % dem.nx + dc), double(k / dem.nx + dr));
        cx.push_back(p[0]), cy.push_back(p[1]);
      }
    terrain::transform_points(dem.taken_as_wkt, terrain_crs, cx, cy);
    for (std::size_t t = 0; t < touched.size(); ++t) {
      double twice = 0;
      for (std::size_t n = 0; n < 4; ++n) {
        const std::size_t a = 4 * t + n, b = 4 * t + (n + 1) % 4;
        twice += cx[a] * cy[b] - cx[b] * cy[a];
      }
      area[t] = std::abs(twice) / 2;
    }
  }
  for (std::size_t t = 0; t < touched.size(); ++t) map.thickness[touched[t]] = float(cell_volume[touched[t]] / area[t]);
  return map;
}

}  // namespace scree::post
