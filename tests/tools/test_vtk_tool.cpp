// scree-vtk as a user runs it: a run's frames in, ParaView series out, every file read back
// through VTK with the numbers of points, cells and arrays the frames call for; frames that
// are missing, of another case or of mixed runs are refused.
#include <gtest/gtest.h>

#include <regex>

#include "common/vtk_read_back.h"
#include "tools/solve_case.h"

namespace scree {
namespace {

using testing::read_text;
using testing::run_tool;
using testing::TempDir;

// (time, file) of every data set of a .pvd.
std::vector<std::pair<double, std::string>> series(const std::filesystem::path& pvd) {
  const std::string text = read_text(pvd);
  const std::regex entry("<DataSet timestep=\"([^\"]+)\" group=\"\" part=\"0\" file=\"([^\"]+)\"/>");
  std::vector<std::pair<double, std::string>> out;
  for (auto m = std::sregex_iterator(text.begin(), text.end(), entry); m != std::sregex_iterator(); ++m)
    out.emplace_back(std::stod((*m)[1]), (*m)[2]);
  return out;
}

// Two boxes of the box_bounce case (a plane ground) over three frames.
void run_two_boxes(const TempDir& dir) {
  const testing::Box box = testing::make_box(dir, "box", "2,2,1", 1000);
  testing::write_validation_case(dir, "box_bounce");
  testing::write_grains(dir, {"box"}, {{{0, 0, 0.51}, {0, 0, -1}, {}, box.orientation}, {{5, 0, 0.51}, {0, 0, -1}, {0, 0, 2}, box.orientation}});
  testing::solve(dir);
}

TEST(VtkTool, GrainsAndWallsBecomeSeriesThatReadBackThroughVtk) {
  TempDir dir;
  run_two_boxes(dir);
  const auto r = run_tool(dir, "scree-vtk", (dir / "case.yaml").string() + " -o " + (dir / "vtk").string() + " --triangles 500");
  ASSERT_EQ(r.status, 0) << r.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex("triangles per template: (\\d+)"))) << r.out;
  const std::size_t per_box = std::stoul(m[1]);
  EXPECT_NEAR(double(per_box), 500, 10);
  const auto grains = series(dir / "vtk" / "grains.pvd");
  ASSERT_EQ(grains.size(), 3u);  // frames at 0, 0.01 and 0.02 s
  for (std::size_t f = 0; f < 3; ++f) {
    EXPECT_NEAR(grains[f].first, 0.01 * double(f), 1e-12);
    const formats::State frame = formats::read_state(testing::frame_file(dir, int(f)));
    const auto back = testing::read_vtp(dir / "vtk" / grains[f].second);
    ASSERT_TRUE(back.ok) << grains[f].second;
    EXPECT_EQ(back.cells.size(), 2 * per_box);
    EXPECT_EQ(back.points.size() % 2, 0u);
    EXPECT_EQ(back.point_data.size(), 3u);
    EXPECT_EQ(back.cell_data.size(), 2u);
    EXPECT_EQ(back.cell_data.at("id").values.front(), double(frame.bodies.id[0]));
    EXPECT_EQ(back.cell_data.at("id").values.back(), double(frame.bodies.id[1]));
    // The second box spins at 2 rad/s about z: its points' speeds reach 2 × √2 m/s (corners),
    // the first box's stay at its centre's.
    const auto& speed = back.point_data.at("speed").values;
    const double first_speed = std::hypot(frame.bodies.velocity[0][0], frame.bodies.velocity[0][1], frame.bodies.velocity[0][2]);
    EXPECT_NEAR(speed.front(), first_speed, 1e-5);
    EXPECT_GT(*std::max_element(speed.begin(), speed.end()), 2.5);
    // Every point of the first box within its box's half-diagonal of its centre.
    for (std::size_t p = 0; p < back.points.size() / 2; ++p) {
      const auto& x = back.points[p];
      const auto& c = frame.bodies.position[0];
      EXPECT_LT(std::hypot(x[0] - c[0], x[1] - c[1], x[2] - c[2]), 1.5 + 0.05);
    }
  }
  const auto walls = series(dir / "vtk" / "walls.pvd");
  ASSERT_EQ(walls.size(), 3u);
  const auto ground = testing::read_vtp(dir / "vtk" / walls[0].second);
  ASSERT_TRUE(ground.ok);
  EXPECT_EQ(ground.cells.size(), 2u);
  EXPECT_EQ(ground.cell_data.count("wall"), 1u);
  EXPECT_FALSE(std::filesystem::exists(dir / "vtk" / "terrain.vtp"));
  EXPECT_FALSE(std::filesystem::exists(dir / "vtk" / "nets.pvd"));
}

// A 3 × 3 net (springs 1 m apart, rest length 0.9 m, 1000 N/m: each stretched 1/9, pulling
// 100 N) put into every frame, drifting 1 m per frame: nets.pvd, its balls and springs.
TEST(VtkTool, NetsBecomeALineSeries) {
  TempDir dir;
  run_two_boxes(dir);
  for (int f = 0; f < 3; ++f) {
    formats::State s = formats::read_state(testing::frame_file(dir, f));
    formats::Membrane net;
    net.name = "fence";
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) {
        net.position.push_back({double(i) + f, double(j), 3});
        net.velocity.push_back({1, 0, 0});
        net.radius.push_back(0.1);
        net.mass.push_back(2);
        net.anchored.push_back(j == 2);
      }
    for (std::uint32_t j = 0; j < 3; ++j)
      for (std::uint32_t i = 0; i < 3; ++i) {
        if (i < 2) net.springs.push_back({3 * j + i, 3 * j + i + 1});
        if (j < 2) net.springs.push_back({3 * j + i, 3 * (j + 1) + i});
      }
    net.rest_length.assign(net.springs.size(), 0.9);
    net.stiffness.assign(net.springs.size(), 1000);
    s.membranes = {net};
    formats::write_state(testing::frame_file(dir, f), s);
  }
  const auto r = run_tool(dir, "scree-vtk", (dir / "case.yaml").string() + " -o " + (dir / "vtk").string());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("nets        nets.pvd"), std::string::npos) << r.out;
  const auto nets = series(dir / "vtk" / "nets.pvd");
  ASSERT_EQ(nets.size(), 3u);
  for (std::size_t f = 0; f < 3; ++f) {
    const auto back = testing::read_vtp(dir / "vtk" / nets[f].second);
    ASSERT_TRUE(back.ok);
    ASSERT_EQ(back.points.size(), 9u);
    ASSERT_EQ(back.cells.size(), 12u);
    for (const auto& cell : back.cells) EXPECT_EQ(cell.size(), 2u);
    EXPECT_EQ(back.points[4][0], 1.0 + double(f));
    EXPECT_EQ(back.point_data.size(), 4u);
    EXPECT_EQ(back.cell_data.size(), 3u);
    EXPECT_EQ(back.point_data.at("anchored").integers, (std::vector<std::int64_t>{0, 0, 0, 0, 0, 0, 1, 1, 1}));
    EXPECT_FLOAT_EQ(float(back.point_data.at("radius").values[0]), 0.1f);
    for (const double t : back.cell_data.at("tension").values) EXPECT_NEAR(t, 100, 1e-3);
    for (const double e : back.cell_data.at("strain").values) EXPECT_NEAR(e, 1.0 / 9, 1e-6);
  }
}

// A block on the dc7 ground: the terrain's surface written once, beside the grains.
TEST(VtkTool, TerrainRunWritesTheGroundOnce) {
  TempDir dir;
  const auto terrain = run_tool(dir, "scree-terrain",
                                std::string(SCREE_DATASETS) + "/geotaichi/dc7_dem_1411slide.asc --crop 618107,3996242,618147,3996282 "
                                                              "--origin 618127,3996262,1609 -o " + (dir / "dc7.vdb").string());
  ASSERT_EQ(terrain.status, 0) << terrain.err;
  const testing::Box block = testing::make_box(dir, "block", "1.2,0.8,0.6", 1000);
  testing::write_validation_case(dir, "terrain_dem", {{"duration: 10", "duration: 0.2"}, {"frame_interval: 0.5", "frame_interval: 0.1"}});
  testing::write_grains(dir, {"block"}, {{{0, 0, 1.5}, {}, {}, block.orientation}});
  testing::solve(dir);
  const auto r = run_tool(dir, "scree-vtk", (dir / "case.yaml").string() + " -o " + (dir / "vtk").string());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("terrain     terrain.vtp"), std::string::npos) << r.out;
  EXPECT_EQ(series(dir / "vtk" / "grains.pvd").size(), 3u);
  EXPECT_FALSE(std::filesystem::exists(dir / "vtk" / "walls.pvd"));
  const auto ground = testing::read_vtp(dir / "vtk" / "terrain.vtp");
  ASSERT_TRUE(ground.ok);
  EXPECT_GT(ground.cells.size(), 2u * 40 * 40);
  const auto& elevation = ground.point_data.at("elevation").values;
  EXPECT_NEAR(elevation[0], ground.points[0][2] + 1609, 1e-3);  // map heights: z plus the origin's 1609 m
}

struct BadRun {
  std::string name, message;
  int status;
};
void PrintTo(const BadRun& b, std::ostream* os) { *os << b.name; }

class VtkToolRefuses : public ::testing::TestWithParam<BadRun> {};

TEST_P(VtkToolRefuses, WithOneLineAndNoOutput) {
  const BadRun& bad = GetParam();
  TempDir dir;
  run_two_boxes(dir);
  std::string extra;
  if (bad.name == "NoFrames") {
    for (int f = 0; f < 3; ++f) std::filesystem::remove(testing::frame_file(dir, f));
  } else if (bad.name == "FrameOfAnotherCase") {
    formats::State other = formats::read_state(testing::frame_file(dir, 1));
    other.templates = {"boulder"};
    formats::write_state(testing::frame_file(dir, 1), other);
  } else if (bad.name == "RunsMixed") {
    formats::State other = formats::read_state(testing::frame_file(dir, 2));
    other.run = "0123456789abcdef";
    formats::write_state(testing::frame_file(dir, 2), other);
  } else if (bad.name == "FramesOutOfOrder") {
    std::filesystem::copy_file(testing::frame_file(dir, 0), testing::frame_file(dir, 7));
  } else if (bad.name == "TooFewTriangles") {
    extra = " --triangles 3";
  }
  const auto r = run_tool(dir, "scree-vtk", (dir / "case.yaml").string() + " -o " + (dir / "vtk").string() + extra);
  testing::expect_refusal(dir, r, "scree-vtk", bad.status, bad.message, dir / "vtk");
}

INSTANTIATE_TEST_SUITE_P(
    BadInputs, VtkToolRefuses,
    ::testing::Values(BadRun{"NoFrames", "out: no frames (frame_*.h5) here: has the case been run?", 1},
                      BadRun{"FrameOfAnotherCase", "frame_000001.h5: its templates (boulder) are not the case's (box)", 1},
                      BadRun{"RunsMixed", "frame_000002.h5: frames of different runs mixed: this one is from run 0123456789abcdef, frame_000000.h5 from run ", 1},
                      BadRun{"FramesOutOfOrder", "frame_000007.h5: its time 0.000000 s does not follow the previous frame's 0.020000 s", 1},
                      BadRun{"TooFewTriangles", "--triangles: must be a whole number ≥ 20", 2}),
    [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace scree
