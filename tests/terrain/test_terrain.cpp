// The ground's level set: exact distances to analytic surfaces, every DEM of the shared
// datasets read back at its cell centres, the SRTM tile's size in metres, and the readers.
#include <gtest/gtest.h>
#include <openvdb/tools/Interpolation.h>

#include <cmath>
#include <map>
#include <numbers>
#include <set>
#include <vector>

#include "common/temp_dir.h"
#include "formats/error.h"
#include "terrain/build_terrain.h"
#include "terrain/terrain_level_set.h"

namespace scree::terrain {
namespace {

using Eigen::Vector3d;

// A regular grid of nodes 1 m apart with heights f(x, y).
template <class F>
HeightGrid grid_of(std::size_t nx, std::size_t ny, F f) {
  HeightGrid g;
  g.nx = nx, g.ny = ny;
  for (std::size_t j = 0; j < ny; ++j)
    for (std::size_t i = 0; i < nx; ++i) {
      g.x.push_back(double(i));
      g.y.push_back(double(j));
      g.z.push_back(f(double(i), double(j)));
    }
  return g;
}

// The largest |φ − exact| over the active voxels whose x-y lie `inset` inside the footprint.
template <class Exact>
double worst_error(const openvdb::FloatGrid& phi, double x_max, double y_max, double inset, Exact exact) {
  double worst = 0;
  for (auto v = phi.cbeginValueOn(); v; ++v) {
    const openvdb::Vec3d p = phi.indexToWorld(v.getCoord());
    if (p.x() < inset || p.y() < inset || p.x() > x_max - inset || p.y() > y_max - inset) continue;
    worst = std::max(worst, std::abs(double(*v) - exact(Vector3d(p.x(), p.y(), p.z()))));
  }
  return worst;
}

TEST(TerrainLevelSet, PlaneTiltedTwentyFiveDegreesIsExact) {
  const double slope = std::tan(25 * std::numbers::pi / 180);
  const TerrainSurface ground = TerrainSurface::from_grid(grid_of(41, 41, [&](double x, double) { return slope * x; }));
  TerrainGrid settings;
  const auto phi = terrain_level_set(ground, settings);
  EXPECT_GT(phi->activeVoxelCount(), 41u * 41 * 5);
  const double error = worst_error(*phi, 40, 40, 3, [&](const Vector3d& p) { return (p.z() - slope * p.x()) / std::hypot(1, slope); });
  EXPECT_LT(error, 0.05);  // voxel = 1 m
  EXPECT_LT(error, 1e-5);  // the triangles are the plane: only float round-off
  // Below the band the solid goes on: inactive values there are negative.
  EXPECT_LT(phi->tree().getValue(phi->transform().worldToIndexCellCentered(openvdb::Vec3d(20, 20, -30))), 0);
  EXPECT_GT(phi->tree().getValue(phi->transform().worldToIndexCellCentered(openvdb::Vec3d(20, 20, 60))), 0);
}

// A valley z = A (1 − cos(2π x / L)): the distance to the curve in the x-z plane, by Newton
// from the nearest of many samples.
TEST(TerrainLevelSet, SinusoidalValleyWithinFiveHundredthsOfAVoxel) {
  const double A = 5, L = 40, k = 2 * std::numbers::pi / L;
  auto f = [&](double x) { return A * (1 - std::cos(k * x)); };
  const TerrainSurface ground = TerrainSurface::from_grid(grid_of(41, 21, [&](double x, double) { return f(x); }));
  const auto phi = terrain_level_set(ground, TerrainGrid{});
  auto exact = [&](const Vector3d& p) {
    double best = p.x(), gap = INFINITY;
    for (double s = p.x() - 4; s <= p.x() + 4; s += 0.01)
      if (const double d = std::hypot(s - p.x(), f(s) - p.z()); d < gap) gap = d, best = s;
    for (int it = 0; it < 20; ++it) {  // d/ds of ½((s − x)² + (f − z)²) = 0
      const double fs = f(best), d1 = A * k * std::sin(k * best), d2 = A * k * k * std::cos(k * best);
      best -= ((best - p.x()) + (fs - p.z()) * d1) / (1 + d1 * d1 + (fs - p.z()) * d2);
    }
    const double d = std::hypot(best - p.x(), f(best) - p.z());
    return p.z() < f(p.x()) ? -d : d;
  };
  const double error = worst_error(*phi, 40, 20, 3, exact);
  std::printf("valley: worst |φ − exact| = %.4f voxel\n", error);
  EXPECT_LT(error, 0.05);
}

// The height of the level set's zero above (x, y): bisection on the trilinear interpolant.
double zero_height(const openvdb::FloatGrid& phi, double x, double y, double z_low, double z_high) {
  openvdb::tools::GridSampler<openvdb::FloatGrid, openvdb::tools::BoxSampler> sample(phi);
  auto at = [&](double z) { return double(sample.wsSample(openvdb::Vec3d(x, y, z))); };
  if (!(at(z_low) < 0 && at(z_high) > 0)) return NAN;
  for (int it = 0; it < 60; ++it) {
    const double mid = 0.5 * (z_low + z_high);
    (at(mid) < 0 ? z_low : z_high) = mid;
  }
  return 0.5 * (z_low + z_high);
}

struct Dem {
  const char* name;
  const char* path;  // under the datasets folder
  // The worst height error allowed at the source's own nodes, in cells. Where the level set's
  // grid columns pass through them (unprojected grids) the ground comes back within 0.01
  // cell. Projected grids and meshes have their nodes between the columns: the columns carry
  // the ground resampled onto the level set's grid (linearly, from the triangles through the
  // nodes), and at a node the level set is that resampled ground's interpolant, off by up to
  // 0.3 cell on the rough 3″ SRTM tile and 0.75 cell at the sharp breaks of slope of the
  // coarse Authume meshes (it shrinks in proportion to --voxel-size).
  double at_nodes = 0.01;
  char up = 'z';
};
void PrintTo(const Dem& d, std::ostream* os) { *os << d.name; }

class EveryDem : public ::testing::TestWithParam<Dem> {};

// Columns of the grid whose band does not have ground (negative) just below it and air
// (positive) just above it, as docs/formats.md promises and the solver's terrain relies on.
std::size_t columns_not_ground_to_air(const openvdb::FloatGrid& phi) {
  std::map<std::pair<int, int>, std::pair<int, int>> runs;  // column → lowest, highest active k
  for (auto v = phi.cbeginValueOn(); v; ++v) {
    const openvdb::Coord c = v.getCoord();
    auto [it, fresh] = runs.try_emplace({c.x(), c.y()}, c.z(), c.z());
    it->second = {std::min(it->second.first, c.z()), std::max(it->second.second, c.z())};
  }
  auto acc = phi.getConstAccessor();
  std::size_t wrong = 0;
  for (const auto& [column, run] : runs)
    if (!(acc.getValue({column.first, column.second, run.first - 1}) < 0) ||
        !(acc.getValue({column.first, column.second, run.second + 1}) > 0))
      ++wrong;
  return wrong;
}

// Inactive voxels of the tree's leaves, in columns without a band (beyond the ground's edge
// or in a hole), that hold ground (negative): none, as docs/formats.md promises.
std::size_t ground_beyond_the_band(const openvdb::FloatGrid& phi) {
  std::set<std::pair<int, int>> band;
  for (auto v = phi.cbeginValueOn(); v; ++v) band.emplace(v.getCoord().x(), v.getCoord().y());
  std::size_t wrong = 0;
  for (auto leaf = phi.tree().cbeginLeaf(); leaf; ++leaf)
    for (auto v = leaf->cbeginValueOff(); v; ++v)
      if (*v < 0 && !band.count({v.getCoord().x(), v.getCoord().y()})) ++wrong;
  return wrong;
}

// The worst |zero height − ground height| over points (x, y) in map coordinates more than
// the band inside the ground's footprint (within the band of the edge the level set holds the
// distance to the edge, not to the ground continued), m; `checked` counts them.
template <class Points>
double worst_height_error(const formats::Terrain& terrain, const TerrainSurface& ground, const TerrainReport& report,
                          const Points& points, std::size_t& checked) {
  const auto& o = terrain.origin_offset;
  const double h = report.voxel_size, inside = (report.band + 1) * h;
  const std::size_t every = points.size() < 10000 ? 1 : 7;  // all of a small DEM's points
  double worst = 0;
  checked = 0;
  for (std::size_t n = 0; n < points.size(); n += every) {
    const double x = points[n][0], y = points[n][1];
    bool interior = true;
    for (const double dx : {-inside, inside})
      for (const double dy : {-inside, inside}) interior = interior && ground.height(x + dx, y + dy).has_value();
    const auto z = ground.height(x, y);
    if (!interior || !z) continue;
    const double found = zero_height(*terrain.phi, x - o[0], y - o[1], *z - o[2] - 2 * h, *z - o[2] + 2 * h);
    EXPECT_TRUE(std::isfinite(found)) << "no ground near (" << x << ", " << y << ")";
    worst = std::max(worst, std::abs(found - (*z - o[2])));
    ++checked;
  }
  return worst;
}

// Every DEM converts, with ground below and air above every column's band and no ground in
// the leaves beyond the band's columns; the ground comes
// back along every grid column within a hundredth of a cell (the level set crosses zero at
// the ground there, on rough ground as on smooth), and at the source's nodes within what the
// DEM allows (see Dem).
TEST_P(EveryDem, HeightsComeBackAtTheCellCentres) {
  const std::filesystem::path file = std::filesystem::path(SCREE_DATASETS) / GetParam().path;
  TerrainOptions options;
  options.up = GetParam().up;
  TerrainReport report, again;
  const formats::Terrain terrain = build_terrain(file, options, report);
  EXPECT_EQ(columns_not_ground_to_air(*terrain.phi), 0u);
  EXPECT_EQ(ground_beyond_the_band(*terrain.phi), 0u);
  std::string crs;
  const TerrainSurface ground = read_ground(file, options, again, crs);

  std::set<std::array<double, 2>> columns;
  for (auto v = terrain.phi->cbeginValueOn(); v; ++v) {
    const openvdb::Vec3d p = terrain.phi->indexToWorld(openvdb::Coord(v.getCoord().x(), v.getCoord().y(), 0));
    columns.insert({p.x() + terrain.origin_offset[0], p.y() + terrain.origin_offset[1]});
  }
  std::size_t on_columns = 0, on_nodes = 0;
  const double columns_error = worst_height_error(terrain, ground, report, std::vector(columns.begin(), columns.end()), on_columns);
  const double nodes_error = worst_height_error(terrain, ground, report, ground.vertices(), on_nodes);
  std::printf("%s: worst height error %.5f cell at %zu grid columns, %.5f cell at %zu nodes of the source\n", GetParam().name,
              columns_error / report.cell_size, on_columns, nodes_error / report.cell_size, on_nodes);
  EXPECT_LT(columns_error, 0.01 * report.cell_size);
  EXPECT_LT(nodes_error, GetParam().at_nodes * report.cell_size);
  // All but the two tiny grids (4 × 3 cells) have nodes more than the band from their edges.
  if (ground.vertices().size() > 12) {
    EXPECT_GT(on_columns, 0u);
    EXPECT_GT(on_nodes, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Datasets, EveryDem,
    ::testing::Values(Dem{"dc7", "geotaichi/dc7_dem_1411slide.asc"}, Dem{"pysheds", "pysheds/dem.tif", 0.3},
                      Dem{"SRTM", "landlab/SRTMGL3_40.09_-105.56_40.209999999999994_-105.44.asc", 0.3},
                      Dem{"west_bijou_gully", "landlab/west_bijou_gully.asc"}, Dem{"hugo_site", "landlab/hugo_site.asc"},
                      Dem{"pre_runout", "landlab/pre_runout_DEM.asc"}, Dem{"A_PlanarSlope", "landlab/A_PlanarSlope.asc"},
                      Dem{"C_WideFlumeWithBench", "landlab/C_WideFlumeWithBench.asc"},
                      Dem{"F_VaryConvergenceConvex", "landlab/F_VaryConvergenceConvex.asc"},
                      Dem{"synthetic_landscape", "landlab/synthetic_landscape.asc"}, Dem{"four_by_three", "landlab/4_x_3.asc"},
                      Dem{"four_by_three_no_nodata", "landlab/4_x_3_no_nodata_value.asc"},
                      Dem{"avaSlide", "avaframe/avaSlide/Inputs/slideTopo.asc"},
                      Dem{"avaDamBreak", "avaframe/avaDamBreak/Inputs/DEM_IP_Topo.asc"},
                      Dem{"avaPfa", "avaframe/avaPfa/Inputs/avaPfa.asc"},
                      Dem{"fluchthorn", "avaframe/scarpExample/Inputs/fluchthorn.tif"},
                      Dem{"yu_tung_road", "lsdem_parallel_benchmark/yu_tung_road_landslide/topography.txt"},
                      Dem{"authume_blue", "authume/Geometries/STL/DTM_Blue_zone.stl", 0.75, 'y'},
                      Dem{"authume_gray", "authume/Geometries/STL/DTM_Gray_zone.stl", 0.75, 'y'},
                      Dem{"authume_red", "authume/Geometries/STL/DTM_Red_zone.stl", 0.75, 'y'}),
    [](const auto& info) { return std::string(info.param.name); });

// The SRTM tile, 144 cells of 3″ each way at 40.15° N: its size in metres from the
// ellipsoid's radii of curvature (WGS 84), N cos φ Δλ east-west and M Δφ north-south.
TEST(TerrainProjection, SrtmTileHasItsSizeInMetres) {
  const std::filesystem::path file = std::filesystem::path(SCREE_DATASETS) / "landlab/SRTMGL3_40.09_-105.56_40.209999999999994_-105.44.asc";
  HeightGrid grid = read_raster(file);
  ASSERT_TRUE(grid.geographic);
  project(grid, "utm");
  const double a = 6378137, e2 = 0.00669437999014, rad = std::numbers::pi / 180;
  const double lat = (40.090416666671 + 0.5 * 144 * 0.000833333333) * rad, s = std::sin(lat);
  const double N = a / std::sqrt(1 - e2 * s * s), M = a * (1 - e2) / std::pow(1 - e2 * s * s, 1.5);
  const double span = 143 * 0.000833333333 * rad;  // between the first and last centres
  const double east_west = N * std::cos(lat) * span, north_south = M * span;
  auto length = [&](std::size_t k0, std::size_t k1) { return std::hypot(grid.x[k1] - grid.x[k0], grid.y[k1] - grid.y[k0]); };
  const std::size_t middle_row = grid.index(0, 72), middle_column = grid.index(72, 0);
  EXPECT_NEAR(length(middle_row, grid.index(143, 72)), east_west, 0.01 * east_west);
  EXPECT_NEAR(length(middle_column, grid.index(72, 143)), north_south, 0.01 * north_south);
  std::printf("SRTM tile: %.1f m × %.1f m (ellipsoid: %.1f × %.1f)\n", length(middle_row, grid.index(143, 72)),
              length(middle_column, grid.index(72, 143)), east_west, north_south);
}

TEST(PointGrid, YuTungRoadPointsFillTheirGrid) {
  const HeightGrid g = read_point_grid(std::filesystem::path(SCREE_DATASETS) /
                                       "lsdem_parallel_benchmark/yu_tung_road_landslide/topography.txt");
  EXPECT_EQ(g.size(), 28600u);
  EXPECT_EQ(g.missing(), 0u);
  EXPECT_DOUBLE_EQ(g.x[1] - g.x[0], 2);
}

TEST(PointGrid, RefusesPointsThatLeaveAHole) {
  testing::TempDir dir;
  testing::write_text(dir / "holes.xyz", "0 0 1\n1 0 1\n0 1 1\n");
  EXPECT_THROW(read_point_grid(dir / "holes.xyz"), formats::FileError);
  testing::write_text(dir / "text.xyz", "0 0 1\nzero 0 1\n");
  EXPECT_THROW(read_point_grid(dir / "text.xyz"), formats::FileError);
}

TEST(HeightGridEdits, FillMissingTakesNeighboursAndCropKeepsTheWindow) {
  HeightGrid g = grid_of(5, 5, [](double x, double y) { return x + y; });
  g.z[g.index(2, 2)] = NAN;
  EXPECT_EQ(fill_missing(g), 1u);
  EXPECT_DOUBLE_EQ(g.z[g.index(2, 2)], 4);  // the mean of its eight neighbours
  crop(g, 0.5, 0.5, 3.5, 2.5);
  EXPECT_EQ(g.nx, 3u);
  EXPECT_EQ(g.ny, 2u);
  EXPECT_THROW(crop(g, 10, 10, 20, 20), std::invalid_argument);
  HeightGrid empty = grid_of(3, 3, [](double, double) { return NAN; });
  EXPECT_THROW(fill_missing(empty), std::invalid_argument);
}

}  // namespace
}  // namespace scree::terrain
