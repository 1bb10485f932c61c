// scree-terrain as a user runs it: a DEM in, a terrain out with its report; bad input gets one
// clear line and no output.
#include <gtest/gtest.h>

#include <algorithm>

#include "common/run_tool.h"
#include "formats/terrain.h"

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
        BadInput{"UnknownProjection",
                 datasets + "/landlab/SRTMGL3_40.09_-105.56_40.209999999999994_-105.44.asc --project EPSG:999999",
                 "unknown coordinate reference system 'EPSG:999999'", 1}),
    [](const auto& info) { return info.param.name; });

}  // namespace
