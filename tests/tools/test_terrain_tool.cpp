// scree-terrain as a user runs it: a DEM in, a terrain out with its report; bad input gets one
// clear line and no output.
#include <gtest/gtest.h>

#include <algorithm>

#include "common/run_tool.h"
#include "common/vtk_read_back.h"
#include "formats/terrain.h"
#include "geometry/terrain_from_file.h"

namespace {

using scree::testing::run_tool;
using scree::testing::TempDir;
using scree::testing::ToolRun;
using scree::testing::write_text;

const std::string datasets = SCREE_DATASETS;

TEST(TerrainTool, HelpShowsExamples) {
  TempDir dir;
  ToolRun r = run_tool(dir, "scree-terrain", "--help");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("Examples:"), std::string::npos);
}

// The geotaichi DEM (231 × 261 cells of 1 m, 67 NODATA): a terrain with its origin in the
// metadata, the report's extents and memory.
TEST(TerrainTool, DemBecomesATerrainWithItsReport) {
  TempDir dir;
  ToolRun r = run_tool(dir, "scree-terrain", datasets + "/geotaichi/dc7_dem_1411slide.asc -o " + (dir / "dc7.vdb").string());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("231 × 261 nodes, cells of 1.0 m, 67 heights filled"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("z 1597.4 to 1713.2 m"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("dense grid"), std::string::npos) << r.out;
  const scree::formats::Terrain t = scree::formats::read_terrain(dir / "dc7.vdb");
  EXPECT_EQ(t.origin_offset[0], 618049);  // the lower-left cell centre (618049.813) in whole metres
  EXPECT_EQ(t.origin_offset[1], 3996200);
  EXPECT_EQ(t.origin_offset[2], 0);
  EXPECT_DOUBLE_EQ(t.phi->voxelSize()[0], 1);
  EXPECT_NE(t.provenance.find("dc7_dem_1411slide.asc"), std::string::npos);
}

// The Authume ground meshes are stored with y up; every one converts with --up y, with air
// above and ground below (the solver loads them).
// --lower-by: a flat DEM at 100 m with a failure depth of −3 m in a 4 × 4 block of cells
// (NODATA elsewhere). The ground is 97 m over the block, 100 m away from it, and the
// report says how many cells were lowered.
TEST(TerrainTool, LowerByTakesAFailureDepthOffTheHeights) {
  TempDir dir;
  std::string dem = "ncols 20\nnrows 20\nxllcorner 0\nyllcorner 0\ncellsize 1\nNODATA_value -9999\n";
  std::string depth = dem;
  for (int row = 0; row < 20; ++row) {
    for (int col = 0; col < 20; ++col) {
      dem += "100 ";
      depth += (row >= 8 && row < 12 && col >= 8 && col < 12) ? "-3 " : "-9999 ";
    }
    dem += "\n", depth += "\n";
  }
  write_text(dir / "flat.asc", dem);
  write_text(dir / "depth.asc", depth);
  ToolRun r = run_tool(dir, "scree-terrain", scree::testing::in_dir(dir, "DIR/flat.asc --lower-by DIR/depth.asc --origin 0,0,0 -o DIR/lowered.vdb"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("lowered by depth.asc in 16 cells, up to 3 m"), std::string::npos) << r.out;
  const scree::formats::Terrain t = scree::formats::read_terrain(dir / "lowered.vdb");
  const scree::geometry::TerrainField ground = scree::geometry::terrain_field(t, dir / "lowered.vdb");
  EXPECT_NEAR(*ground.ground_height(10, 10), 97, 0.01);  // the block's centre: four lowered nodes around it
  EXPECT_NEAR(*ground.ground_height(3, 3), 100, 0.01);
  EXPECT_NEAR(*ground.ground_height(16, 15), 100, 0.01);

  // A depth raster on another grid is refused, naming it, with no output.
  write_text(dir / "shifted.asc", "ncols 20\nnrows 20\nxllcorner 5\nyllcorner 0\ncellsize 1\n" + depth.substr(depth.find("NODATA")));
  r = run_tool(dir, "scree-terrain", scree::testing::in_dir(dir, "DIR/flat.asc --lower-by DIR/shifted.asc -o DIR/refused.vdb"));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("shifted.asc: not on the DEM's grid"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "refused.vdb"));
}

TEST(TerrainTool, AuthumeGroundMeshesConvertWithYUp) {
  for (const char* zone : {"Blue", "Gray", "Red"}) {
    TempDir dir;
    const std::string mesh = datasets + "/authume/Geometries/STL/DTM_" + zone + "_zone.stl";
    ToolRun r = run_tool(dir, "scree-terrain", mesh + " --up y -o " + (dir / "dtm.vdb").string());
    ASSERT_EQ(r.status, 0) << zone << ": " << r.err;
    EXPECT_NE(r.out.find("mesh, "), std::string::npos) << r.out;
    const scree::formats::Terrain t = scree::formats::read_terrain(dir / "dtm.vdb");
    EXPECT_GT(t.phi->activeVoxelCount(), 1000u) << zone;
  }
}

// --surface: the ground for ParaView, every triangle at the ground's heights and slopes, read
// back through VTK (a 40 × 40 m window of dc7).
TEST(TerrainTool, SurfaceForParaViewReadsBackThroughVtk) {
  TempDir dir;
  ToolRun r = run_tool(dir, "scree-terrain",
                       datasets + "/geotaichi/dc7_dem_1411slide.asc --crop 618107,3996242,618147,3996282 -o " +
                           (dir / "dc7.vdb").string() + " --surface " + (dir / "dc7.vtp").string());
  ASSERT_EQ(r.status, 0) << r.err;
  const auto back = scree::testing::read_vtp(dir / "dc7.vtp");
  ASSERT_TRUE(back.ok);
  EXPECT_NE(r.out.find("surface     " + std::to_string(back.cells.size()) + " triangles, " +
                       std::to_string(back.points.size()) + " points"),
            std::string::npos)
      << r.out;
  EXPECT_GT(back.cells.size(), 2u * 40 * 40);
  ASSERT_EQ(back.point_data.count("elevation"), 1u);
  ASSERT_EQ(back.cell_data.count("slope"), 1u);
  const auto& elevation = back.point_data.at("elevation").values;
  const auto& slope = back.cell_data.at("slope").values;
  // The window's ground lies between 1603.9 and 1613.0 m; the surface goes at most the band
  // (3 m) below it at the window's edge.
  EXPECT_GT(*std::min_element(elevation.begin(), elevation.end()), 1603.9 - 3.01);
  EXPECT_LT(*std::max_element(elevation.begin(), elevation.end()), 1613.01);
  EXPECT_GE(*std::min_element(slope.begin(), slope.end()), 0);
  EXPECT_LE(*std::max_element(slope.begin(), slope.end()), 90);
  for (std::size_t p = 0; p < back.points.size(); p += 97)
    EXPECT_NEAR(elevation[p], back.points[p][2], 1e-3);  // the default origin keeps heights (z offset 0)
}

struct BadInput {
  std::string name, args, message;
  int status;
};
void PrintTo(const BadInput& b, std::ostream* os) { *os << b.name; }

class TerrainToolRefuses : public ::testing::TestWithParam<BadInput> {};

TEST_P(TerrainToolRefuses, WithOneLineAndNoOutput) {
  const BadInput& bad = GetParam();
  TempDir dir;
  write_text(dir / "empty.asc", "");
  write_text(dir / "garbage.tif", "this is not a raster\n");
  write_text(dir / "nodata.asc", "ncols 3\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\nNODATA_value -9999\n"
                                 "-9999 -9999 -9999\n-9999 -9999 -9999\n");
  write_text(dir / "dem.asc", "ncols 3\nnrows 3\nxllcorner 100\nyllcorner 200\ncellsize 10\nNODATA_value -9999\n"
                              "1 2 3\n4 5 6\n7 8 9\n");
  ToolRun r = run_tool(dir, "scree-terrain", scree::testing::in_dir(dir, bad.args) + " -o " + (dir / "out.vdb").string());
  scree::testing::expect_refusal(dir, r, "scree-terrain", bad.status, bad.message, dir / "out.vdb");
}

INSTANTIATE_TEST_SUITE_P(
    BadInputs, TerrainToolRefuses,
    ::testing::Values(
        BadInput{"Missing", "DIR/none.asc", "none.asc: no such file", 1},
        BadInput{"Empty", "DIR/empty.asc", "empty.asc: not a raster GDAL can read", 1},
        BadInput{"Unreadable", "DIR/garbage.tif", "garbage.tif: not a raster GDAL can read", 1},
        BadInput{"AllNodata", "DIR/nodata.asc", "nodata.asc: no height anywhere (every cell is NODATA)", 1},
        BadInput{"CropOutside", "DIR/dem.asc --crop 0,0,50,50", "dem.asc: crop window holds fewer than 2 x 2 nodes", 1},
        BadInput{"ZeroVoxel", "DIR/dem.asc --voxel-size 0", "--voxel-size: must be positive", 2},
        BadInput{"NegativeVoxel", "DIR/dem.asc --voxel-size -1", "--voxel-size: must be positive", 2},
        BadInput{"BadCrop", "DIR/dem.asc --crop 1,2,3", "--crop: expected X0,Y0,X1,Y1", 2},
        BadInput{"MeshOnItsSide", datasets + "/authume/Geometries/STL/DTM_Blue_zone.stl",
                 "not a ground with z up: its triangles face sideways (mean |n_z| 0.12); is y up? (--up y)", 1},
        BadInput{"DegreesRefused",
                 datasets + "/landlab/SRTMGL3_40.09_-105.56_40.209999999999994_-105.44.asc --project refuse",
                 "coordinates are longitude and latitude in degrees", 1},
        BadInput{"SurfaceNowhere", "DIR/dem.asc --surface DIR/nowhere/ground.vtp", "nowhere/ground.vtp: cannot write: directory", 1},
        BadInput{"UnknownProjection",
                 datasets + "/landlab/SRTMGL3_40.09_-105.56_40.209999999999994_-105.44.asc --project EPSG:999999",
                 "unknown coordinate reference system 'EPSG:999999'", 1}),
    [](const auto& info) { return info.param.name; });

}  // namespace
