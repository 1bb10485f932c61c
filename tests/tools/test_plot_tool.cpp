// scree-plot end to end on a real run (spheres rolling over a 100 m window of the dc7 DEM):
// every picture is written at the size asked and is not blank, judged by its pixels; bad
// input gets one line and no pictures.
#include <gtest/gtest.h>
#include <vtkDataArray.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPNGReader.h>
#include <vtkPointData.h>

#include <cmath>
#include <set>

#include "tools/solve_case.h"

namespace scree {
namespace {

using testing::TempDir;

// Pixel statistics of a PNG.
struct Pixels {
  int width = 0, height = 0;
  std::size_t colours = 0;  // distinct, to 4 bits a channel
  double differ = 0;        // fraction of pixels unlike the top-left corner's colour
  double saturated = 0;     // fraction of strongly coloured pixels (max − min channel > 100)
};

Pixels pixels_of(const std::filesystem::path& png) {
  vtkNew<vtkPNGReader> reader;
  reader->SetFileName(png.c_str());
  reader->Update();
  vtkImageData* image = reader->GetOutput();
  Pixels p;
  int dims[3];
  image->GetDimensions(dims);
  p.width = dims[0];
  p.height = dims[1];
  auto* values = image->GetPointData()->GetScalars();
  const int channels = values->GetNumberOfComponents();
  const vtkIdType n = values->GetNumberOfTuples();
  if (n == 0 || channels < 3) return p;
  auto colour = [&](vtkIdType k) {
    return std::array<int, 3>{int(values->GetComponent(k, 0)), int(values->GetComponent(k, 1)), int(values->GetComponent(k, 2))};
  };
  const auto corner = colour((dims[1] - 1) * vtkIdType(dims[0]));
  std::set<int> seen;
  std::size_t differ = 0, saturated = 0;
  for (vtkIdType k = 0; k < n; ++k) {
    const auto c = colour(k);
    seen.insert((c[0] >> 4) << 8 | (c[1] >> 4) << 4 | (c[2] >> 4));
    if (std::abs(c[0] - corner[0]) + std::abs(c[1] - corner[1]) + std::abs(c[2] - corner[2]) > 30) ++differ;
    if (std::max({c[0], c[1], c[2]}) - std::min({c[0], c[1], c[2]}) > 100) ++saturated;
  }
  p.colours = seen.size();
  p.differ = double(differ) / double(n);
  p.saturated = double(saturated) / double(n);
  return p;
}

struct RollingRun {
  TempDir dir;
  RollingRun() {
    const auto made = testing::run_tool(
        dir, "scree-terrain",
        std::string(SCREE_DATASETS) + "/geotaichi/dc7_dem_1411slide.asc --crop 618149,3996310,618249,3996410 "
                                      "--origin 618199,3996360,1660 -o " + (dir / "ground.vdb").string());
    EXPECT_EQ(made.status, 0) << made.err;
    testing::write_validation_case(dir, "terrain_dem",
                                   {{"  duration: 10", "  duration: 1.5"},
                                    {"  frame_interval: 0.5", "  frame_interval: 0.25"},
                                    {"  - {name: block, file: block.vdb, material: rock}", "  - {name: ball, sphere: 1.0, material: rock}"},
                                    {"file: dc7.vdb", "file: ground.vdb"}});
    // Seven balls dropped 3 m above the slope's upper part (the ground is under 1713 m there).
    std::vector<testing::Grain> grains;
    for (int k = 0; k < 7; ++k) grains.push_back({{25 + 2.5 * (k % 3), 25 + 2.5 * (k / 3), 1716 - 1660.0}});
    testing::write_grains(dir, {"ball"}, grains);
    testing::solve(dir);
  }
};

TEST(PlotTool, EveryPictureAtItsSizeAndNotBlank) {
  RollingRun run;
  const auto r = testing::run_tool(run.dir, "scree-plot", testing::in_dir(run.dir, "DIR/case.yaml -o DIR/plots --at 0.5,1.5 --size 900,600"));
  ASSERT_EQ(r.status, 0) << r.err;
  const auto plots = run.dir / "plots";
  for (const char* chart : {"energy.png", "runout.png", "speeds.png"}) {
    const Pixels p = pixels_of(plots / chart);
    EXPECT_EQ(p.width, 900) << chart;
    EXPECT_EQ(p.height, 600) << chart;
    EXPECT_GT(p.differ, 0.01) << chart;     // axes, labels and lines on white
    EXPECT_GT(p.saturated, 0.001) << chart; // coloured lines
    EXPECT_GT(p.colours, 10u) << chart;  // a blank chart has one
    std::printf("%s: %zu colours, %.3f not background, %.4f coloured\n", chart, p.colours, p.differ, p.saturated);
  }
  const Pixels map = pixels_of(plots / "deposit.png");
  EXPECT_EQ(map.width, 900);
  EXPECT_GT(map.saturated, 0.01);  // the grains' thickness in colour
  EXPECT_GT(map.colours, 20u);
  std::printf("deposit.png: %d × %d, %zu colours, %.3f coloured\n", map.width, map.height, map.colours, map.saturated);
  for (const char* snapshot : {"snapshot_000002.png", "snapshot_000006.png"}) {
    const Pixels p = pixels_of(plots / snapshot);
    EXPECT_EQ(p.width, 900) << snapshot;
    EXPECT_GT(p.differ, 0.2) << snapshot;       // the ground fills much of the view
    EXPECT_GT(p.saturated, 0.002) << snapshot;  // grains and the speed scale
    EXPECT_GT(p.colours, 50u) << snapshot;
    std::printf("%s: %zu colours, %.3f not sky, %.4f coloured\n", snapshot, p.colours, p.differ, p.saturated);
  }
  EXPECT_FALSE(std::filesystem::exists(plots / "snapshot_000000.png"));
}

using testing::BadArguments;

class PlotToolRefuses : public ::testing::TestWithParam<BadArguments> {};

TEST_P(PlotToolRefuses, OneLineNoPictures) {
  const BadArguments bad = GetParam();
  TempDir dir;
  testing::write_validation_case(dir, "sphere_bounce");
  const auto r = testing::run_tool(dir, "scree-plot", testing::in_dir(dir, std::string("DIR/case.yaml -o DIR/plots ") + bad.args));
  testing::expect_refusal(dir, r, "scree-plot", bad.status, bad.message, dir / "plots");
}

INSTANTIATE_TEST_SUITE_P(BadInputs, PlotToolRefuses,
                         ::testing::Values(BadArguments{"NoFrames", "", "out: no frames (frame_*.h5) here: has the case been run?", 1},
                                           BadArguments{"TinySize", "--size 10,10", "--size: width and height must be whole numbers", 2},
                                           BadArguments{"TimesNotNumbers", "--at 1,soon", "--at", 2},
                                           BadArguments{"PercentileOfHalf", "--percentile 50", "--percentile: must lie in (50, 100]", 2}),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace scree
