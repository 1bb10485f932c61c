// Runout statistics against deposits whose answers are known in closed form: grains on a
// line (runout, spread, area, volume, the centre of mass's H/L), cone-shaped heaps and
// wedges of known slope (angle of repose by seed 003's grid and fit, mound height and
// spread), and a level-set grain's columns integrating to its volume.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "common/level_set_grain.h"
#include "common/temp_dir.h"
#include "geometry/template_from_avatar.h"
#include "geometry/terrain_from_file.h"
#include "post/runout.h"
#include "terrain/build_terrain.h"

namespace scree::post {
namespace {

using Eigen::Vector2d;
using Eigen::Vector3d;
constexpr double pi = std::numbers::pi;

formats::Case sphere_case(double radius) {
  formats::Case c;
  c.materials.push_back({"rock", 2650.0, 0.5, 0.2});
  c.templates.push_back({"ball", {}, radius, "rock", {}});
  return c;
}

formats::State frame_of(double time, const std::vector<Vector3d>& centres) {
  formats::State s;
  s.kind = formats::StateKind::frame;
  s.time = time;
  s.templates = {"ball"};
  s.bodies.resize(centres.size());
  for (std::size_t i = 0; i < centres.size(); ++i) {
    s.bodies.id[i] = i;
    s.bodies.template_index[i] = 0;
    s.bodies.scale[i] = 1;
    s.bodies.position[i] = {centres[i].x(), centres[i].y(), centres[i].z()};
    s.bodies.orientation[i] = {1, 0, 0, 0};
    s.bodies.velocity[i] = {0, 0, 0};
    s.bodies.angular_velocity[i] = {0, 0, 0};
  }
  return s;
}

// The solid along columns every h, summed, times h².
double column_volume(const PlacedGrain& grain, double h) {
  double volume = 0;
  const double reach = grain.reach();
  for (double x = grain.position.x() - reach; x < grain.position.x() + reach; x += h)
    for (double y = grain.position.y() - reach; y < grain.position.y() + reach; y += h)
      volume += vertical_chord(grain, x, y).length * h * h;
  return volume;
}

// The trilinear level set's zero lies inside a convex surface by about h²/4R, so the columns
// of a level-set sphere hold a little less than it: 1 % at 7.5 voxels per radius, a quarter of
// that at 15 (measured 0.93 % and 0.22 %).
TEST(GrainColumns, LevelSetSphereColumnsHoldItsVolume) {
  const double R = 0.15, scale = 1.5;
  for (const auto& [voxel, tolerance] : {std::pair(0.02, 0.012), std::pair(0.01, 0.003)}) {
    const geometry::GrainShape sphere = testing::level_set_grain(levelset::make_sphere(R), voxel, 300);
    const PlacedGrain grain{&sphere, scale, Vector3d(3, -2, 7), Eigen::Quaterniond(Eigen::AngleAxisd(0.5, Vector3d(1, 2, 3).normalized()))};
    const double exact = 4 * pi * std::pow(R * scale, 3) / 3;
    EXPECT_NEAR(column_volume(grain, 0.005) / exact, 1, tolerance) << voxel;
    EXPECT_NEAR(vertical_chord(grain, 3, -2).length, 2 * R * scale, 0.25 * voxel * scale);
    EXPECT_NEAR(vertical_chord(grain, 3, -2).top, 7 + R * scale, 0.25 * voxel * scale);
  }
}

// A turned box: its highest corner and its chord through the centroid, exactly; and the
// deposit raster holds its volume (the grain's own, from its level set).
TEST(GrainColumns, TurnedBoxTopChordAndVolume) {
  const Vector3d half(0.1, 0.15, 0.2);
  const double voxel = 0.02, scale = 1.5;
  const geometry::GrainShape box = testing::level_set_grain(levelset::make_box(levelset::Vec3d(half.x(), half.y(), half.z())), voxel, 300);
  const Eigen::Quaterniond turn(Eigen::AngleAxisd(0.5, Vector3d(1, 2, 3).normalized()));
  const PlacedGrain grain{&box, scale, Vector3d(3, -2, 7), turn};
  const DepositRaster r = rasterize_deposit({grain}, columns_over({grain}, 0.005));
  double volume = 0, top = -INFINITY;
  for (std::size_t k = 0; k < r.grid.size(); ++k) {
    volume += double(r.thickness[k]) * 0.005 * 0.005;
    if (r.covered(k)) top = std::max(top, double(r.top[k]));
  }
  EXPECT_NEAR(volume / grain.volume(), 1, 1e-5);
  EXPECT_NEAR(grain.volume() / (8 * half.prod() * std::pow(scale, 3)), 1, 0.005);
  double corner = -INFINITY;
  for (int k = 0; k < 8; ++k) {
    const Vector3d c((k & 1 ? 1 : -1) * half.x(), (k & 2 ? 1 : -1) * half.y(), (k & 4 ? 1 : -1) * half.z());
    corner = std::max(corner, (grain.position + turn * (scale * c)).z());
  }
  EXPECT_NEAR(top, corner, 0.5 * voxel * scale);
  const Vector3d down = turn.conjugate() * Vector3d::UnitZ();
  double exit = INFINITY;
  for (int a = 0; a < 3; ++a)
    if (std::abs(down[a]) > 0) exit = std::min(exit, half[a] / std::abs(down[a]));
  EXPECT_NEAR(vertical_chord(grain, 3, -2).length, 2 * exit * scale, 0.1 * voxel * scale);
}

// A grain narrower than the columns still lands in the raster, whole.
TEST(GrainColumns, GrainBetweenColumnCentresLandsWhole) {
  const geometry::GrainShape tiny = geometry::GrainShape::sphere(0.01);
  const PlacedGrain grain{&tiny, 1, Vector3d(0.05, 0.05, 1), Eigen::Quaterniond::Identity()};
  const DepositRaster r = rasterize_deposit({grain}, columns_over({grain}, 0.1));
  double volume = 0;
  for (const float t : r.thickness) volume += double(t) * 0.01;
  EXPECT_NEAR(volume, grain.volume(), 1e-9);
}

// Spheres of radius r with centres along a line; the volume-weighted quantile along the line
// by direct integration of the spheres' cross-sections.
double line_quantile(const std::vector<double>& centres, double r, double fraction) {
  const double lo = centres.front() - r, hi = centres.back() + r, step = 1e-5;
  auto area = [&](double s) {
    double a = 0;
    for (const double c : centres) a += std::max(0.0, pi * (r * r - (s - c) * (s - c)));
    return a;
  };
  double total = 0;
  for (double s = lo; s < hi; s += step) total += area(s + 0.5 * step) * step;
  double below = 0;
  for (double s = lo; s < hi; s += step) {
    below += area(s + 0.5 * step) * step;
    if (below >= fraction * total) return s + step;
  }
  return hi;
}

// Across a line of equal spheres: the offset beyond which (1 − fraction) of a sphere's
// volume lies, from the cap volume π a² (3r − a) / 3.
double cap_offset(double r, double fraction) {
  double lo = -r, hi = r;
  for (int n = 0; n < 100; ++n) {
    const double c = 0.5 * (lo + hi), a = r - c;
    ((pi * a * a * (3 * r - a) / 3) / (4 * pi * r * r * r / 3) > 1 - fraction ? lo : hi) = c;
  }
  return 0.5 * (lo + hi);
}

class RunoutOfALine : public ::testing::TestWithParam<double> {};

// Grains set off on a line along the direction of travel and come to rest on a line across
// it, 20 m on; the runout, the lateral spread, the area and the volume follow from the
// spheres' cross-sections.
TEST_P(RunoutOfALine, MatchesTheLinesGeometry) {
  const double r = 0.1, percentile = GetParam(), p = percentile / 100;
  const Vector2d d = Vector2d(std::cos(0.5), std::sin(0.5));  // travel 28.6° from x
  const Vector2d across(-d.y(), d.x());
  std::vector<double> source, deposit;
  for (int i = 0; i <= 10; ++i) source.push_back(0.25 * i);
  for (int i = 0; i <= 20; ++i) deposit.push_back(-2.5 + 0.25 * i);
  auto placed = [&](const std::vector<double>& along, const std::vector<double>& sideways, double z) {
    std::vector<Vector3d> centres;
    for (std::size_t i = 0; i < std::max(along.size(), sideways.size()); ++i) {
      const Vector2d xy = along[std::min(i, along.size() - 1)] * d + sideways[std::min(i, sideways.size() - 1)] * across;
      centres.emplace_back(xy.x(), xy.y(), z);
    }
    return centres;
  };
  // Start 10 m up; half-way 3 m aside; at rest at z = 0.
  const std::vector<formats::State> frames{frame_of(0, placed(source, {0.0}, 10)), frame_of(1, placed({10.0}, {3.0}, 5)),
                                           frame_of(2, placed({20.0}, deposit, 0))};
  RunoutOptions options;
  options.percentile = percentile;
  const RunoutReport report = measure_runout(sphere_case(r), frames, options);

  EXPECT_NEAR(report.direction[0], d.x(), 1e-12);
  EXPECT_NEAR(report.direction[1], d.y(), 1e-12);
  const double rear = line_quantile(source, r, 1 - p), front = 20 + cap_offset(r, p);
  EXPECT_NEAR(report.source_rear, rear, report.spacing);
  EXPECT_NEAR(report.deposit_front, front, report.spacing);
  EXPECT_NEAR(report.runout_distance, front - rear, 0.01 * (front - rear));
  EXPECT_NEAR(report.front_travel, front - line_quantile(source, r, p), 0.01 * report.front_travel);
  const double spread = line_quantile(deposit, r, p) - line_quantile(deposit, r, 1 - p);
  EXPECT_NEAR(report.lateral_spread, spread, 0.01 * spread);
  // The source is one sphere wide across the travel, each edge to the width of a column
  // across it (columns spread their grain evenly over it: P100 takes in the edge columns).
  const double source_spread = line_quantile({0.0}, r, p) - line_quantile({0.0}, r, 1 - p);
  EXPECT_NEAR(report.source_lateral_spread, source_spread, 2 * report.spacing * (std::abs(d.x()) + std::abs(d.y())));
  const double n = double(deposit.size()), volume = n * 4 * pi * r * r * r / 3;
  EXPECT_NEAR(report.deposit_area, n * pi * r * r, 0.01 * n * pi * r * r);
  EXPECT_NEAR(report.grain_volume, volume, 1e-12);
  EXPECT_NEAR(report.deposit_volume, volume, 1e-6 * volume);
  // The centre of mass: from 1.25 m along the line at z = 10 to 20 m at z = 0, by way of
  // 10 m along and 3 m aside; the centres' runout from the source's rear centre.
  EXPECT_NEAR(report.drop, 10, 1e-9);
  EXPECT_NEAR(report.horizontal_distance, 18.75, 1e-9);
  EXPECT_NEAR(report.h_over_l, 10 / 18.75, 1e-9);
  EXPECT_NEAR(report.path_length, std::hypot(8.75, 3) + std::hypot(10, 3), 1e-9);
  ASSERT_EQ(report.over_time.size(), 3u);
  EXPECT_NEAR(report.over_time[2].runout_of_centres, 20 - source[std::size_t(std::floor((1 - p) * 11 * (1 + 1e-12)))], 1e-9);
  // The deposit is a line across the travel: elongated at ±90° to it. Its variances are the
  // centres' along the line, 0.25² (21² − 1)/12, plus a sphere's own r²/5 about each axis.
  // (The columns' grid, turned 28.6° to the line, tilts it by about a thousandth of a degree.)
  EXPECT_NEAR(std::abs(report.elongation_angle), 90, 0.01);
  EXPECT_NEAR(std::abs(report.elongation_axis[0] * across.x() + report.elongation_axis[1] * across.y()), 1, 1e-8);
  const double along_line = 0.0625 * (21 * 21 - 1) / 12 + r * r / 5, across_line = r * r / 5;
  EXPECT_NEAR(report.elongation_aspect, std::sqrt(along_line / across_line), 0.01 * std::sqrt(along_line / across_line));
}

INSTANTIATE_TEST_SUITE_P(Percentiles, RunoutOfALine, ::testing::Values(100.0, 95.0, 80.0),
                         [](const auto& info) { return "P" + std::to_string(int(info.param)); });

// Spheres on a cubic lattice filling a heap of slope `angle`: a cone (radius R about the
// origin) or a wedge (falling along +x from x = 0 to R, y in [0, R]), on the floor z = 0.
std::vector<Vector3d> heap_of_spheres(bool cone, double angle, double R, double r) {
  std::vector<Vector3d> centres;
  const double t = std::tan(angle * pi / 180), a = 2 * r;
  for (double x = -R; x <= R; x += a)
    for (double y = -R; y <= R; y += a) {
      const double run = cone ? std::hypot(x, y) : x;
      if (!cone && (x < 0 || y < 0)) continue;
      for (double z = r; z + r <= (R - run) * t + 1e-12; z += a) centres.emplace_back(x, y, z);
    }
  return centres;
}

struct Heap {
  const char* name;
  bool cone;
  double angle;
};

void PrintTo(const Heap& h, std::ostream* os) { *os << h.name; }

class ReposeOfAHeap : public ::testing::TestWithParam<Heap> {};

TEST_P(ReposeOfAHeap, GridAndFitFindsItsSlope) {
  const Heap heap = GetParam();
  const double r = 0.01, R = 0.6;
  const std::vector<Vector3d> centres = heap_of_spheres(heap.cone, heap.angle, R, r);
  const std::vector<formats::State> frames{frame_of(0, centres), frame_of(1, centres)};
  RunoutOptions options;
  options.percentile = 100;
  options.repose = heap.cone ? ReposeMethod::heap : ReposeMethod::slope;
  if (!heap.cone) options.direction = std::array<double, 2>{1, 0};
  const RunoutReport report = measure_runout(sphere_case(r), frames, options);
  double top = -INFINITY, reach = 0;
  for (const Vector3d& c : centres) {
    top = std::max(top, c.z() + r);
    reach = std::max(reach, c.head<2>().norm() + r);
  }
  std::printf("%s: repose %.3f° ± %.3f°, height %.5f m (%.5f), spread %.5f m (%.5f)\n", heap.name, report.repose.mean,
              report.repose.error, report.mound_height, top, report.mound_spread, 2 * reach);
  EXPECT_NEAR(report.repose.mean, heap.angle, 1.0);
  EXPECT_EQ(report.repose.angles.size(), 8u);
  EXPECT_NEAR(report.mound_height, top, 0.01 * top);
  if (heap.cone) {
    EXPECT_NEAR(report.mound_spread, 2 * reach, 0.01 * 2 * reach);
  }
}

INSTANTIATE_TEST_SUITE_P(Heaps, ReposeOfAHeap,
                         ::testing::Values(Heap{"Cone25", true, 25}, Heap{"Cone35", true, 35}, Heap{"Wedge22", false, 22},
                                           Heap{"Wedge33", false, 33}),
                         [](const auto& info) { return std::string(info.param.name); });

// The check of every frame: spheres of 0.1 m on a flat ground at z = 0 (a DEM of 0.5 m cells
// through scree-terrain). One sinks 0.05 m in (0.1 voxel) in the second frame, one becomes
// NaN in the third, and one goes missing in the last.
TEST(Runout, IntegrityFindsGrainsBelowGroundNonFiniteAndLost) {
  scree::testing::TempDir dir;
  std::string dem = "ncols 40\nnrows 40\nxllcorner -10\nyllcorner -10\ncellsize 0.5\n";
  for (int row = 0; row < 40; ++row) {
    for (int col = 0; col < 40; ++col) dem += "0 ";
    dem += "\n";
  }
  scree::testing::write_text(dir / "flat.asc", dem);
  terrain::TerrainReport built;
  terrain::TerrainOptions flat;
  flat.origin = std::array<double, 3>{0, 0, 0};
  const formats::Terrain t = terrain::build_terrain(dir / "flat.asc", flat, built);
  const geometry::TerrainField ground = geometry::terrain_field(t, dir / "flat.vdb");

  const double r = 0.1;
  const std::vector<Vector3d> resting{{0, 0, r}, {1, 0, r}, {2, 0, r}};
  std::vector<formats::State> frames{frame_of(0, resting), frame_of(1, {{0, 0, r}, {1, 0, r - 0.05}, {2, 0, r}})};
  RunoutReport report = measure_runout(sphere_case(r), frames, RunoutOptions{}, &ground);
  EXPECT_NEAR(report.deepest_below_ground, 0.05, 1e-6);
  EXPECT_NEAR(report.deepest_below_ground_voxels, 0.1, 2e-6);
  EXPECT_NEAR(report.over_time[0].deepest_below_ground, 0, 1e-6);  // and the frame it is in
  EXPECT_NEAR(report.over_time[1].deepest_below_ground, 0.05, 1e-6);
  EXPECT_EQ(report.grains_lost, 0u);
  EXPECT_EQ(report.non_finite, 0u);

  frames.push_back(frame_of(2, resting));
  frames.back().bodies.velocity[2][0] = std::nan("");
  frames.push_back(frame_of(3, {{0, 0, r}, {1, 0, r}}));
  report = measure_runout(sphere_case(r), frames, RunoutOptions{}, &ground);
  EXPECT_EQ(report.non_finite, 1u);
  EXPECT_EQ(report.grains_lost, 1u);
}

TEST(Runout, RefusesAPercentileOfHalfOrLess) {
  const std::vector<formats::State> frames{frame_of(0, {Vector3d(0, 0, 1)})};
  RunoutOptions options;
  options.percentile = 50;
  EXPECT_THROW(measure_runout(sphere_case(0.1), frames, options), std::invalid_argument);
}

}  // namespace
}  // namespace scree::post
