// The ground's level set: exact distances to analytic surfaces, every DEM of the shared
// datasets read back at its cell centres, the SRTM tile's size in metres, and the readers.
#include <gtest/gtest.h>
#include <openvdb/tools/Interpolation.h>

#include <cmath>
#include <map>
#include <numbers>

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
  // Projected from degrees: the projected cell centres lie between the level set's grid
  // columns, where the trilinear zero of a rough ground is off by up to 0.3 cell (an open
  // gap of issue 5). Elsewhere the columns pass through the cell centres and the heights come
  // back within 0.01 cell.
  bool projected;
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

// Every DEM converts, with ground below and air above every column's band, and the ground
// comes back at the source's cell centres: within a hundredth of a cell, on rough ground as
// on smooth (the level set crosses zero at the ground along every grid column).
TEST_P(EveryDem, HeightsComeBackAtTheCellCentres) {
  const std::filesystem::path file = std::filesystem::path(SCREE_DATASETS) / GetParam().path;
  TerrainReport report;
  const formats::Terrain terrain = build_terrain(file, TerrainOptions{}, report);
  EXPECT_EQ(columns_not_ground_to_air(*terrain.phi), 0u);
  HeightGrid source = read_raster(file);
  fill_missing(source);
  if (source.geographic) project(source, "utm");
  const auto& o = terrain.origin_offset;
  const double h = report.voxel_size;
  double worst = 0;
  std::size_t checked = 0;
  // Cell centres more than the band from the DEM's edge: beyond the edge there is no ground,
  // and within the band of it the distance is to the edge, not to the ground continued.
  const std::size_t rim = std::size_t(std::ceil(report.band * h / report.cell_size)) + 1;
  for (std::size_t k = 0; k < source.size(); k += 7) {
    const std::size_t i = k % source.nx, j = k / source.nx;
    if (i < rim || j < rim || i + rim >= source.nx || j + rim >= source.ny) continue;
    const double x = source.x[k] - o[0], y = source.y[k] - o[1], z = source.z[k] - o[2];
    const double found = zero_height(*terrain.phi, x, y, z - 2 * h, z + 2 * h);
    ASSERT_TRUE(std::isfinite(found)) << "no ground near (" << source.x[k] << ", " << source.y[k] << ")";
    worst = std::max(worst, std::abs(found - z));
    ++checked;
  }
  std::printf("%s: %zu centres, worst height error %.4f cell\n", GetParam().name, checked, worst / report.cell_size);
  EXPECT_LT(worst, (GetParam().projected ? 0.3 : 0.01) * report.cell_size);
}

INSTANTIATE_TEST_SUITE_P(
    Datasets, EveryDem,
    ::testing::Values(Dem{"dc7", "geotaichi/dc7_dem_1411slide.asc", false}, Dem{"pysheds", "pysheds/dem.tif", true},
                      Dem{"SRTM", "landlab/SRTMGL3_40.09_-105.56_40.209999999999994_-105.44.asc", true},
                      Dem{"west_bijou_gully", "landlab/west_bijou_gully.asc", false}, Dem{"hugo_site", "landlab/hugo_site.asc", false},
                      Dem{"pre_runout", "landlab/pre_runout_DEM.asc", false}, Dem{"A_PlanarSlope", "landlab/A_PlanarSlope.asc", false},
                      Dem{"C_WideFlumeWithBench", "landlab/C_WideFlumeWithBench.asc", false},
                      Dem{"F_VaryConvergenceConvex", "landlab/F_VaryConvergenceConvex.asc", false},
                      Dem{"synthetic_landscape", "landlab/synthetic_landscape.asc", false}, Dem{"four_by_three", "landlab/4_x_3.asc", false},
                      Dem{"four_by_three_no_nodata", "landlab/4_x_3_no_nodata_value.asc", false},
                      Dem{"avaSlide", "avaframe/avaSlide/Inputs/slideTopo.asc", false},
                      Dem{"avaDamBreak", "avaframe/avaDamBreak/Inputs/DEM_IP_Topo.asc", false},
                      Dem{"avaPfa", "avaframe/avaPfa/Inputs/avaPfa.asc", false},
                      Dem{"fluchthorn", "avaframe/scarpExample/Inputs/fluchthorn.tif", false}),
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
