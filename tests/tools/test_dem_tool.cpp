// scree-dem as the rock-avalanche pipeline runs it: the valley's grid through scree-terrain
// puts the ground where the valley's formula says, in both runout variants; bad options are
// usage errors with nothing written.
#include <gtest/gtest.h>

#include "common/run_tool.h"
#include "formats/terrain.h"
#include "geometry/terrain_from_file.h"
#include "terrain/synthetic_valley.h"

namespace scree {
namespace {

using testing::TempDir;

TEST(DemTool, ValleyThroughScreeTerrainKeepsItsHeights) {
  for (const double runout : {0.0, 3.0}) {
    TempDir dir;
    const auto made = testing::run_tool(dir, "scree-dem", testing::in_dir(dir, "valley --runout-slope " + std::to_string(runout) + " --cell 1 -o DIR/valley.asc"));
    ASSERT_EQ(made.status, 0) << made.err;
    const auto built = testing::run_tool(dir, "scree-terrain", testing::in_dir(dir, "DIR/valley.asc --origin 0,0,0 -o DIR/valley.vdb"));
    ASSERT_EQ(built.status, 0) << built.err;
    const formats::Terrain t = formats::read_terrain(dir / "valley.vdb");
    const geometry::TerrainField ground = geometry::terrain_field(t, dir / "valley.vdb");
    terrain::ValleyShape v;
    v.runout_slope = runout;
    v.cell = 1;
    // At cell centres (grid nodes of the DEM) the ground is the formula's, to 0.01 voxel.
    double worst = 0;
    for (double x = -5; x <= 155; x += 5)
      for (double y = -35; y <= 35; y += 5) {
        const auto z = ground.ground_height(x, y);
        ASSERT_TRUE(z.has_value()) << x << " " << y;
        worst = std::max(worst, std::abs(*z - terrain::valley_height(v, x, y)));
      }
    EXPECT_LT(worst, 0.01 * ground.voxel_size()) << runout;
  }
}

TEST(DemTool, RefusesWhatItCannotMake) {
  TempDir dir;
  for (const char* args : {"mountain -o DIR/x.asc", "valley --slope 75 -o DIR/x.asc", "valley --cell 0 -o DIR/x.asc"}) {
    const auto r = testing::run_tool(dir, "scree-dem", testing::in_dir(dir, args));
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(r.err.rfind("scree-dem: error: ", 0), 0u) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "x.asc")) << args;
  }
}

}  // namespace
}  // namespace scree
