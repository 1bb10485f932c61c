// scree-runout end to end: grains that slid down real DEMs (dc7 in metres, SRTM in degrees)
// give a deposit map that gdalinfo reads on the DEM's own size, origin, cell and CRS, and whose
// thickness integrates to the grains' volume (2 %); the summary and the table read back; bad
// input gets one line and no output.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <fstream>
#include <numbers>
#include <regex>

#include "formats/csv_log.h"
#include "formats/terrain.h"
#include "geometry/terrain_from_file.h"
#include "tools/solve_case.h"

namespace scree {
namespace {

using testing::TempDir;
const std::string datasets = SCREE_DATASETS;
const std::string dc7 = datasets + "/geotaichi/dc7_dem_1411slide.asc";
const std::string srtm = datasets + "/landlab/SRTMGL3_40.09_-105.56_40.209999999999994_-105.44.asc";

// A case on the terrain dir/ground.vdb (built with `terrain_args`) with spheres of radius r in
// rings: in frame 0 above the ground about `source`, in frame 1 resting on it about `deposit`
// (both as fractions of the terrain's box).
struct DemRun {
  TempDir dir;
  double r = 0;
  std::size_t grains = 0;
  Eigen::Vector2d source_centre, deposit_centre;

  DemRun(const std::string& terrain_args, double radius, const Eigen::Vector2d& source, const Eigen::Vector2d& deposit)
      : r(radius) {
    const auto made = testing::run_tool(dir, "scree-terrain", terrain_args + " -o " + (dir / "ground.vdb").string());
    EXPECT_EQ(made.status, 0) << made.err;
    testing::write_validation_case(dir, "terrain_dem",
                                   {{"  - {name: block, file: block.vdb, material: rock}", "  - {name: ball, sphere: " +
                                                                                                std::to_string(r) + ", material: rock}"},
                                    {"file: dc7.vdb", "file: ground.vdb"}});
    const formats::Terrain t = formats::read_terrain(dir / "ground.vdb");
    const geometry::TerrainField ground = geometry::terrain_field(t, dir / "ground.vdb");
    const openvdb::BBoxd box = t.phi->transform().indexToWorld(t.phi->evalActiveVoxelBoundingBox());
    auto inside = [&](const Eigen::Vector2d& f) {
      return Eigen::Vector2d(box.min().x() + f.x() * (box.max().x() - box.min().x()),
                             box.min().y() + f.y() * (box.max().y() - box.min().y()));
    };
    deposit_centre = inside(deposit);
    source_centre = inside(source);
    auto on_ground = [&](const Eigen::Vector2d& xy, double lift) {
      const auto z = ground.ground_height(xy.x(), xy.y());
      EXPECT_TRUE(z.has_value()) << xy.transpose();
      return formats::Vec3{xy.x(), xy.y(), z.value_or(0) + r + lift};
    };
    std::vector<formats::Vec3> start, end;
    for (int ring = 0; ring < 3; ++ring)
      for (int k = 0; k < 6 * ring + (ring == 0); ++k) {
        const double angle = 2 * std::numbers::pi * k / std::max(1, 6 * ring);
        const Eigen::Vector2d offset = 2.2 * r * ring * Eigen::Vector2d(std::cos(angle), std::sin(angle));
        start.push_back(on_ground(source_centre + offset, 5 * r));
        end.push_back(on_ground(deposit_centre + offset, 0));
      }
    grains = end.size();
    std::filesystem::create_directories(dir / "out");
    for (int f = 0; f < 2; ++f) {
      formats::State s;
      s.kind = formats::StateKind::frame;
      s.time = f;
      s.run = "feedfacecafebeef";
      s.georeference = formats::Georeference{t.origin_offset, t.crs_wkt};
      s.templates = {"ball"};
      s.bodies.resize(grains);
      for (std::size_t i = 0; i < grains; ++i) {
        s.bodies.id[i] = i + 1;
        s.bodies.template_index[i] = 0;
        s.bodies.scale[i] = 1;
        s.bodies.position[i] = f == 0 ? start[i] : end[i];
        s.bodies.orientation[i] = {1, 0, 0, 0};
        s.bodies.velocity[i] = {0, 0, f == 0 ? -1.0 : 0.0};
        s.bodies.angular_velocity[i] = {0, 0, 0};
      }
      formats::write_state(testing::frame_file(dir, f), s);
    }
  }
  double volume() const { return double(grains) * 4 * std::numbers::pi * r * r * r / 3; }
};

std::string gdalinfo(const std::string& args) {
  std::string text;
  FILE* pipe = popen(("gdalinfo " + args + " 2>&1").c_str(), "r");
  char buffer[4096];
  while (std::size_t n = fread(buffer, 1, sizeof buffer, pipe)) text.append(buffer, n);
  pclose(pipe);
  return text;
}

// What gdalinfo says of a raster's grid: size, origin and cell, and its coordinate system.
struct GdalGrid {
  YAML::Node size, geotransform;
  std::string crs;  // its WKT, empty for none
  double mean = 0;
};
GdalGrid gdal_grid(const std::string& file, bool stats = false) {
  const YAML::Node info = YAML::Load(gdalinfo(std::string("-json ") + (stats ? "-stats " : "") + file));
  GdalGrid g;
  g.size = info["size"];
  g.geotransform = info["geoTransform"];
  if (info["coordinateSystem"]) g.crs = info["coordinateSystem"]["wkt"].as<std::string>();
  // The band's mean to ten digits (the "mean" key has three decimals).
  if (stats) g.mean = info["bands"][0]["metadata"][""]["STATISTICS_MEAN"].as<double>();
  return g;
}

void expect_same_grid(const GdalGrid& a, const GdalGrid& b) {
  ASSERT_TRUE(a.size && b.size && a.geotransform && b.geotransform);
  for (int k = 0; k < 2; ++k) EXPECT_EQ(a.size[k].as<int>(), b.size[k].as<int>());
  for (int k = 0; k < 6; ++k) EXPECT_DOUBLE_EQ(a.geotransform[k].as<double>(), b.geotransform[k].as<double>()) << k;
  EXPECT_EQ(a.crs, b.crs);
}

TEST(RunoutTool, DepositMapOnDc7sGridHoldsTheGrainsVolume) {
  DemRun run(dc7 + " --crop 618107,3996242,618147,3996282 --origin 618127,3996262,1609", 0.5, {0.2, 0.2}, {0.7, 0.6});
  const auto result = testing::run_tool(run.dir, "scree-runout", testing::in_dir(run.dir, "DIR/case.yaml -o DIR/runout --dem " + dc7));
  ASSERT_EQ(result.status, 0) << result.err;
  const std::string tif = (run.dir / "runout" / "deposit.tif").string();
  const GdalGrid dem = gdal_grid(dc7), map = gdal_grid(tif, true);
  expect_same_grid(dem, map);
  const double cells = map.size[0].as<double>() * map.size[1].as<double>();
  const double cell_area = std::abs(dem.geotransform[1].as<double>() * dem.geotransform[5].as<double>());
  std::printf("dc7: map holds %.4f m³ of %.4f m³\n", map.mean * cells * cell_area, run.volume());
  EXPECT_NEAR(map.mean * cells * cell_area, run.volume(), 0.02 * run.volume());

  // The summary: in map coordinates, the deposit's centre where the grains were put.
  const YAML::Node summary = YAML::LoadFile((run.dir / "runout" / "runout.yaml").string());
  EXPECT_EQ(summary["grains"].as<std::size_t>(), run.grains);
  EXPECT_NEAR(summary["mound"]["centre"][0].as<double>(), 618127 + run.deposit_centre.x(), 0.01);
  EXPECT_NEAR(summary["mound"]["centre"][1].as<double>(), 3996262 + run.deposit_centre.y(), 0.01);
  EXPECT_NEAR(summary["deposit_volume"].as<double>(), run.volume(), 1e-4 * run.volume());
  const double along = (run.deposit_centre - run.source_centre).norm();
  EXPECT_NEAR(summary["centre_of_mass"]["horizontal_distance"].as<double>(), along, 1e-6 * along);
  const formats::CsvTable table = formats::read_csv_log(run.dir / "runout" / "runout.csv");
  ASSERT_EQ(table.rows.size(), 2u);
  EXPECT_EQ(table.rows[0][table.column("speed_max")], 1);
  EXPECT_EQ(table.rows[1][table.column("speed_max")], 0);
}

// WGS 84 latitude φ: metres per radian of longitude and of latitude.
std::pair<double, double> metres_per_radian(double latitude) {
  const double a = 6378137, e2 = 6.69437999014e-3, s = std::sin(latitude);
  const double n = a / std::sqrt(1 - e2 * s * s), m = a * (1 - e2) / std::pow(1 - e2 * s * s, 1.5);
  return {n * std::cos(latitude), m};
}

TEST(RunoutTool, DepositMapOnAGridInDegrees) {
  // The terrain is the SRTM tile projected to UTM; the map goes back onto the tile's degrees.
  DemRun run(srtm + " --crop -105.51,40.12,-105.49,40.14", 2, {0.2, 0.2}, {0.7, 0.6});
  const auto result = testing::run_tool(run.dir, "scree-runout", testing::in_dir(run.dir, "DIR/case.yaml -o DIR/runout --dem " + srtm));
  ASSERT_EQ(result.status, 0) << result.err;
  const std::string tif = (run.dir / "runout" / "deposit.tif").string();
  const GdalGrid dem = gdal_grid(srtm), map = gdal_grid(tif, true);
  expect_same_grid(dem, map);
  // Cell area at the deposit's latitude (the crop's middle, 40.13°; the UTM scale within 0.1 %).
  const double cell = dem.geotransform[1].as<double>() * std::numbers::pi / 180;
  const auto [east, north] = metres_per_radian(40.13 * std::numbers::pi / 180);
  const double cells = map.size[0].as<double>() * map.size[1].as<double>();
  std::printf("SRTM: map holds %.2f m³ of %.2f m³\n", map.mean * cells * east * north * cell * cell, run.volume());
  EXPECT_NEAR(map.mean * cells * east * north * cell * cell, run.volume(), 0.02 * run.volume());
}

struct BadRun {
  const char* name;
  std::string args;  // after DIR/case.yaml -o DIR/runout
  std::string message;
  int status;
};
void PrintTo(const BadRun& b, std::ostream* os) { *os << b.name; }

class RunoutToolRefuses : public ::testing::TestWithParam<BadRun> {};

TEST_P(RunoutToolRefuses, OneLineNoOutput) {
  const BadRun bad = GetParam();
  DemRun run(dc7 + " --crop 618107,3996242,618147,3996282 --origin 618127,3996262,1609", 0.5, {0.2, 0.2}, {0.7, 0.6});
  const TempDir& dir = run.dir;
  std::string args = bad.args;
  if (std::string(bad.name) == "NoFrames") {
    for (int f = 0; f < 2; ++f) std::filesystem::remove(testing::frame_file(dir, f));
  } else if (std::string(bad.name) == "RunsMixed") {
    formats::State other = formats::read_state(testing::frame_file(dir, 1));
    other.run = "0123456789abcdef";
    formats::write_state(testing::frame_file(dir, 1), other);
  } else if (std::string(bad.name) == "DemOfAnotherPlace") {
    // dc7 moved 60 cells east: the same heights, put over other ground.
    std::string text = testing::read_text(dc7);
    text = std::regex_replace(text, std::regex("xllcorner +618049.313"), "xllcorner 618109.313");
    testing::write_text(dir / "moved.asc", text);
  } else if (std::string(bad.name) == "TerrainRebuilt") {
    const auto remade = testing::run_tool(dir, "scree-terrain", dc7 + " --crop 618107,3996242,618147,3996282 --origin 618128,3996262,1609 -o " +
                                                                    (dir / "ground.vdb").string());
    ASSERT_EQ(remade.status, 0) << remade.err;
  } else if (std::string(bad.name) == "DemWithoutTerrain") {
    std::string text = testing::read_text(dir / "case.yaml");
    text.erase(text.find("terrain: {file: ground.vdb, material: ground}"));
    testing::write_text(dir / "case.yaml", text);
  }
  const auto r = testing::run_tool(dir, "scree-runout", testing::in_dir(dir, "DIR/case.yaml -o DIR/runout " + args));
  testing::expect_refusal(dir, r, "scree-runout", bad.status, bad.message, dir / "runout");
}

INSTANTIATE_TEST_SUITE_P(
    BadInputs, RunoutToolRefuses,
    ::testing::Values(
        BadRun{"NoFrames", "", "out: no frames (frame_*.h5) here: has the case been run?", 1},
        BadRun{"RunsMixed", "", "frame_000001.h5: frames of different runs mixed", 1},
        BadRun{"DemOfAnotherPlace", "--dem DIR/moved.asc", "moved.asc: its heights differ from the terrain's", 1},
        BadRun{"DemInAnotherSystem", "--dem " + srtm, ".asc: it is in degrees but the terrain", 1},
        BadRun{"TerrainRebuilt", "", "ground.vdb: its origin offset (618128.000, 3996262.000, 1609.000) is not the one "
                                     "frame_000000.h5 was computed on (618127.000, 3996262.000, 1609.000): the terrain was rebuilt", 1},
        BadRun{"DemWithoutTerrain", "--dem " + dc7, "case.yaml: has no terrain: a deposit map on", 1},
        BadRun{"MissingDem", "--dem DIR/none.tif", "none.tif: no such file", 1},
        BadRun{"PercentileOfHalf", "--percentile 50", "--percentile: must lie in (50, 100]", 2},
        BadRun{"UnknownRepose", "--repose cone", "--repose", 2},
        BadRun{"ZeroDirection", "--direction 0,0", "--direction: must not be 0,0", 2}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace scree
