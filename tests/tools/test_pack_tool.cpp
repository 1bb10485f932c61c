// scree-pack as a user runs it: an assembly in a box that scree-solve then runs, a release
// area on dc7 (a polygon) and the Mt St Helens failure depth raster filled above the ground
// and below its thickness, and bad input with one line and no state written.
#include <gtest/gtest.h>

#include <numbers>

#include <cmath>

#include "formats/terrain.h"
#include "geometry/terrain_from_file.h"
#include "tools/solve_case.h"

namespace scree {
namespace {

using testing::TempDir;
const std::string datasets = SCREE_DATASETS;

TEST(PackTool, BoxAssemblyRunsInTheSolver) {
  TempDir dir;
  testing::write_validation_case(dir, "sphere_bounce", {{"  duration: 0.8", "  duration: 0.05"}});
  const auto r = testing::run_tool(dir, "scree-pack", testing::in_dir(dir, "DIR/case.yaml -o DIR/state.h5 --count 300 --box -0.5,-0.5,0.05,0.5,0.5,1 --diameter lognormal:0.06,0.2 --seed 4"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("300 grains (ball 300) in box 1 × 1 × 0.95 m"), std::string::npos) << r.out;
  const formats::State s = formats::read_state(dir / "state.h5");
  ASSERT_EQ(s.bodies.size(), 300u);
  EXPECT_EQ(s.templates, std::vector<std::string>{"ball"});
  // The solver takes it: no grain starts inside another or the floor.
  const auto run = testing::run_tool(dir, "scree-solve", (dir / "case.yaml").string());
  EXPECT_EQ(run.status, 0) << run.err;
  // The same seed again: the same file contents.
  const auto again = testing::run_tool(dir, "scree-pack", testing::in_dir(dir, "DIR/case.yaml -o DIR/again.h5 --count 300 --box -0.5,-0.5,0.05,0.5,0.5,1 --diameter lognormal:0.06,0.2 --seed 4"));
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_EQ(formats::read_state(dir / "again.h5").bodies.position, s.bodies.position);
}

// --settle: 300 frictionless balls dropped from up to 3 m into a narrow box on the floor come
// to rest as a bed some eight grains deep. Its solid fraction, from the centre of mass (a
// uniform bed of height H has it at H/2: φ = V / (A · 2 z̄)), is a random packing's, 0.5–0.68
// (measured 0.58, the walls loosening it), where the loose assembly's was 0.17; every grain is
// at rest inside the holding box, and the solver takes the state.
TEST(PackTool, SettleLetsTheAssemblyComeToRestInItsBox) {
  TempDir dir;
  testing::write_validation_case(dir, "sphere_bounce", {{"  duration: 0.8", "  duration: 0.05"}, {"  step: 1.0e-4", "  step: 1.0e-3"}});
  const auto r = testing::run_tool(dir, "scree-pack", testing::in_dir(dir, "DIR/case.yaml -o DIR/state.h5 --count 300 --box -0.15,-0.15,0.05,0.15,0.15,3 --diameter lognormal:0.06,0.2 --seed 4 --settle 2"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("solid fraction 0.1754"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("settled 2 s in a box"), std::string::npos) << r.out;
  const formats::State s = formats::read_state(dir / "state.h5");
  ASSERT_EQ(s.bodies.size(), 300u);
  double volume = 0, moment = 0, reach = 0;
  for (std::size_t i = 0; i < s.bodies.size(); ++i) {
    const double radius = 0.05 * s.bodies.scale[i], v = 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
    reach = std::max(reach, radius);
    volume += v;
    moment += v * s.bodies.position[i][2];
    EXPECT_EQ(s.bodies.velocity[i], (formats::Vec3{0, 0, 0}));
    EXPECT_EQ(s.bodies.angular_velocity[i], (formats::Vec3{0, 0, 0}));
  }
  const double side = 0.3 + 2 * 1.01 * reach;  // the holding box: the region grown by the largest reach
  for (std::size_t i = 0; i < s.bodies.size(); ++i)
    for (int a = 0; a < 2; ++a) EXPECT_LE(std::abs(s.bodies.position[i][a]), 0.5 * side) << i;
  const double fraction = volume / (side * side * 2 * moment / volume);
  EXPECT_GT(fraction, 0.5);
  EXPECT_LT(fraction, 0.68);
  const auto run = testing::run_tool(dir, "scree-solve", (dir / "case.yaml").string());
  EXPECT_EQ(run.status, 0) << run.err;
}

// Grains on a terrain: every centre inside the area's footprint, above the ground and below
// the ground plus the thickness there, no node in the ground.
void expect_on_ground(const TempDir& dir, const std::function<double(double, double)>& thickness) {
  const formats::State s = formats::read_state(dir / "state.h5");
  ASSERT_GT(s.bodies.size(), 10u);
  const formats::Terrain t = formats::read_terrain(dir / "ground.vdb");
  const geometry::TerrainField ground = geometry::terrain_field(t, dir / "ground.vdb");
  for (std::size_t i = 0; i < s.bodies.size(); ++i) {
    const auto& p = s.bodies.position[i];
    const double r = 0.5 * s.bodies.scale[i] * 2;  // balls of radius 1 × scale
    const auto g = ground.ground_height(p[0], p[1]);
    ASSERT_TRUE(g.has_value());
    EXPECT_GE(p[2] - r, *g - 0.01) << i;
    EXPECT_LE(p[2] + r, *g + thickness(p[0] + t.origin_offset[0], p[1] + t.origin_offset[1]) + 0.01) << i;
    EXPECT_TRUE(ground.clear_of(Eigen::Vector3d(p[0], p[1], p[2]), r)) << i;
  }
}

void write_ball_case(const TempDir& dir) {
  testing::write_validation_case(dir, "terrain_dem",
                                 {{"  - {name: block, file: block.vdb, material: rock}", "  - {name: ball, sphere: 1.0, material: rock}"},
                                  {"file: dc7.vdb", "file: ground.vdb"}});
}

TEST(PackTool, PolygonReleaseAreaOnDc7) {
  TempDir dir;
  const auto made = testing::run_tool(dir, "scree-terrain", datasets + "/geotaichi/dc7_dem_1411slide.asc --crop 618149,3996310,618249,3996410 --origin 618199,3996360,1660 -o " + (dir / "ground.vdb").string());
  ASSERT_EQ(made.status, 0) << made.err;
  write_ball_case(dir);
  // A triangle in map coordinates, closed as GIS files close rings.
  testing::write_text(dir / "source.txt", "# release area\n618214 3996380\n618234 3996380\n618224 3996400\n618214 3996380\n");
  const auto r = testing::run_tool(dir, "scree-pack", testing::in_dir(dir, "DIR/case.yaml -o DIR/state.h5 --fill --area DIR/source.txt --thickness 4 --diameter lognormal:1.2,0.15"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("source.txt: polygon of 3 corners"), std::string::npos) << r.out;
  auto inside = [](double x, double y) {  // the triangle above
    const double u = (y - 3996380) / 20;
    return u >= 0 && u <= 1 && std::abs(x - 618224) <= 10 * (1 - u);
  };
  expect_on_ground(dir, [&](double x, double y) { return inside(x, y) ? 4.0 : -1e9; });
}

TEST(PackTool, MtStHelensFailureDepthFilledAboveTheGround) {
  TempDir dir;
  const std::string landlab = datasets + "/landlab/";
  const auto made = testing::run_tool(dir, "scree-terrain", landlab + "pre_runout_DEM.asc -o " + (dir / "ground.vdb").string());
  ASSERT_EQ(made.status, 0) << made.err;
  write_ball_case(dir);
  const auto r = testing::run_tool(dir, "scree-pack", testing::in_dir(dir, "DIR/case.yaml -o DIR/state.h5 --count 150 --depth " + landlab + "landslide_depth.asc --diameter lognormal:3,0.2"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("thickness raster of 30 cells"), std::string::npos) << r.out;
  // The depth raster's cells: |depth| at each, read back here from the ASCII grid.
  const std::string text = testing::read_text(landlab + "landslide_depth.asc");
  std::istringstream in(text);
  std::string key;
  double ncols = 0, nrows = 0, xll = 0, yll = 0, cell = 0, nodata = 0;
  for (int k = 0; k < 6; ++k) {
    double v;
    in >> key >> v;
    if (key == "ncols") ncols = v;
    if (key == "nrows") nrows = v;
    if (key == "xllcorner") xll = v;
    if (key == "yllcorner") yll = v;
    if (key == "cellsize") cell = v;
    if (key == "NODATA_value") nodata = v;
  }
  std::vector<double> depth(std::size_t(ncols * nrows));
  for (double& d : depth) in >> d;
  expect_on_ground(dir, [&](double x, double y) {
    const int i = int(std::floor((x - xll) / cell)), row = int(nrows) - 1 - int(std::floor((y - yll) / cell));
    if (i < 0 || row < 0 || i >= int(ncols) || row >= int(nrows)) return -1e9;
    const double d = depth[std::size_t(row) * std::size_t(ncols) + std::size_t(i)];
    return d == nodata ? -1e9 : std::abs(d);
  });
}

using testing::BadArguments;

class PackToolRefuses : public ::testing::TestWithParam<BadArguments> {};

TEST_P(PackToolRefuses, OneLineNoState) {
  const BadArguments bad = GetParam();
  TempDir dir;
  testing::write_validation_case(dir, "sphere_bounce");
  testing::write_text(dir / "sieve.txt", "0.1 0\n0.2 60\n0.15 100\n");
  const auto r = testing::run_tool(dir, "scree-pack", testing::in_dir(dir, std::string("DIR/case.yaml -o DIR/state.h5 ") + bad.args));
  testing::expect_refusal(dir, r, "scree-pack", bad.status, bad.message, dir / "state.h5");
}

INSTANTIATE_TEST_SUITE_P(
    BadInputs, PackToolRefuses,
    ::testing::Values(
        BadArguments{"NoRegion", "--count 10", "give one region: --box, --cylinder, --area or --depth", 2},
        BadArguments{"TwoRegions", "--count 10 --box 0,0,0,1,1,1 --cylinder 0,0,1,0,1", "give one region", 2},
        BadArguments{"CountAndFill", "--count 10 --fill --box 0,0,0,1,1,1", "give --count N or --fill", 2},
        BadArguments{"InsideOutBox", "--count 10 --box 1,1,1,0,0,0", "--box: the box's upper corner must lie above its lower one", 2},
        BadArguments{"UnknownTemplate", "--count 10 --box 0,0,0,1,1,1 --mix boulder=1", "--mix: the case has no template 'boulder'", 2},
        BadArguments{"BadDiameter", "--count 10 --box 0,0,0,1,1,1 --diameter weibull:2", "--diameter: 'weibull:2': expects fixed:D", 2},
        BadArguments{"BadSieve", "--count 10 --box 0,0,0,1,1,1 --diameter sieve:DIR/sieve.txt", "sieve.txt: diameters must increase", 1},
        BadArguments{"RegionTooSmall", "--count 5000 --box 0,0,0.1,0.5,0.5,0.6", "case.yaml: the release region holds only", 1},
        BadArguments{"AreaWithoutTerrain", "--count 10 --depth DIR/depth.asc", "case.yaml: has no terrain: a release area on", 1},
        BadArguments{"AreaWithoutThickness", "--count 10 --area DIR/a.txt", "--area needs --thickness", 2},
        BadArguments{"NegativeSettle", "--count 10 --box 0,0,0,1,1,1 --settle -1", "--settle: must be a time ≥ 0 s", 2}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace scree
