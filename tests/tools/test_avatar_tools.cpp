// scree-shape, scree-nodes and scree-inertia as a user runs them: the one-line avatar, the
// three-step pipeline giving the same avatar, and one clear error with no output for bad
// input.
#include <gtest/gtest.h>

#include <algorithm>

#include "common/run_tool.h"
#include "formats/avatar.h"
#include "formats/shape.h"

namespace {

using scree::testing::run_tool;
using scree::testing::TempDir;
using scree::testing::ToolRun;
using scree::testing::write_text;

const std::string datasets = SCREE_DATASETS;

TEST(AvatarTools, HelpShowsExamples) {
  TempDir dir;
  for (const char* tool : {"scree-shape", "scree-nodes", "scree-inertia"}) {
    ToolRun r = run_tool(dir, tool, "--help");
    EXPECT_EQ(r.status, 0) << tool;
    EXPECT_NE(r.out.find("Examples:"), std::string::npos) << tool;
    EXPECT_NE(r.out.find(std::string("Usage: ") + tool), std::string::npos) << tool;
  }
}

TEST(AvatarTools, OneLineAvatarMatchesTheThreeSteps) {
  TempDir dir;
  const std::string shape = "superellipsoid --radii 0.0058,0.01,0.0083 --eps-e 0.1 --eps-n 0.5 --voxels 12";
  ToolRun one = run_tool(dir, "scree-shape", shape + " --avatar --nodes 500 -o " + (dir / "A.vdb").string());
  ASSERT_EQ(one.status, 0) << one.err;
  ASSERT_EQ(run_tool(dir, "scree-shape", shape + " -o " + (dir / "s.vdb").string()).status, 0);
  ToolRun nodes = run_tool(dir, "scree-nodes", (dir / "s.vdb").string() + " --nodes 500 -o " + (dir / "n.vdb").string());
  ASSERT_EQ(nodes.status, 0) << nodes.err;
  EXPECT_NE(nodes.out.find("500 nodes by rays"), std::string::npos) << nodes.out;
  ToolRun inertia = run_tool(dir, "scree-inertia", (dir / "n.vdb").string() + " -o " + (dir / "B.vdb").string());
  ASSERT_EQ(inertia.status, 0) << inertia.err;
  EXPECT_NE(inertia.out.find("volume 3.35"), std::string::npos) << inertia.out;

  auto a = scree::formats::read_avatar(dir / "A.vdb"), b = scree::formats::read_avatar(dir / "B.vdb");
  EXPECT_EQ(a.nodes.size(), 500u);
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_EQ(a.properties.volume, b.properties.volume);
  EXPECT_EQ(a.properties.inertia_per_density, b.properties.inertia_per_density);
  EXPECT_NE(a.properties.provenance.find("superellipsoid"), std::string::npos);
  // Seed 004 Table 2, shape A, within 1 % even at 12 voxels across.
  EXPECT_NEAR(a.properties.volume, 3.353e-6, 0.01 * 3.353e-6);
}

TEST(AvatarTools, OpenMeshIsRepairedWithAWarning) {
  TempDir dir;
  ToolRun r = run_tool(dir, "scree-shape", "mesh " + datasets + "/authume/Geometries/STL/SP1A.stl --voxels 10 -o " +
                                               (dir / "s.vdb").string());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("scree-shape: warning: "), std::string::npos);
  EXPECT_NE(r.err.find("SP1A.stl: mesh was open; filled 1 hole with 1 triangle"), std::string::npos) << r.err;
  EXPECT_NE(scree::formats::read_shape(dir / "s.vdb").provenance.find("filled 1 hole"), std::string::npos);
}

struct BadInput {
  std::string name, tool, args, message;
  int status;
};

class AvatarToolsRefuse : public ::testing::TestWithParam<BadInput> {};

// One line "scree-<tool>: error: ...", the right exit status, and no output file.
TEST_P(AvatarToolsRefuse, WithOneLineAndNoOutput) {
  const BadInput& bad = GetParam();
  TempDir dir;
  write_text(dir / "empty.stl", "");
  write_text(dir / "cut.stl", "solid c\nfacet normal 0 0 1\n outer loop\n  vertex 0 0 0\n  vertex 1 0 0\n");
  std::string binary(84, '\0');
  binary[80] = 12;  // 12 triangles announced, none there
  write_text(dir / "short.stl", binary + std::string(70, '\1'));
  write_text(dir / "fin.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 -1 0\nv 0 0 1\nf 1 2 3\nf 2 1 4\nf 1 2 5\n");
  ASSERT_EQ(run_tool(dir, "scree-shape", "sphere --radius 1 --voxels 6 -o " + (dir / "plain.vdb").string()).status, 0);
  ToolRun r = run_tool(dir, bad.tool, scree::testing::in_dir(dir, bad.args) + " -o " + (dir / "out.vdb").string());
  scree::testing::expect_refusal(dir, r, bad.tool, bad.status, bad.message, dir / "out.vdb");
}

INSTANTIATE_TEST_SUITE_P(
    BadInputs, AvatarToolsRefuse,
    ::testing::Values(
        BadInput{"EmptyStl", "scree-shape", "mesh DIR/empty.stl", "empty.stl: is empty", 1},
        BadInput{"TruncatedAsciiStl", "scree-shape", "mesh DIR/cut.stl", "cut.stl:2: truncated", 1},
        BadInput{"TruncatedBinaryStl", "scree-shape", "mesh DIR/short.stl", "short.stl: truncated binary STL", 1},
        BadInput{"MissingMesh", "scree-shape", "mesh DIR/none.stl", "none.stl: cannot open", 1},
        BadInput{"UnrepairableMesh", "scree-shape", "mesh DIR/fin.obj", "fin.obj: mesh is not closed", 1},
        BadInput{"ZeroRadius", "scree-shape", "sphere --radius 0", "sphere: radius must be > 0, got 0", 2},
        BadInput{"NegativeExtent", "scree-shape", "box --size 1,-2,1", "box: half extent y must be > 0, got -1", 2},
        BadInput{"ExponentOutOfRange", "scree-shape", "superellipsoid --radii 1,1,1 --eps-e 3 --eps-n 1",
                 "eps_e must be in [0.1, 2], got 3", 2},
        BadInput{"TooCoarse", "scree-shape", "ellipsoid --radii 1,2,3 --voxels 3", "grid too coarse: 3 voxels across", 2},
        BadInput{"VoxelBelowOpenVDBs", "scree-shape", "sphere --radius 1e-5", "below OpenVDB's smallest, 1.45e-05 m", 2},
        BadInput{"GridTooLarge", "scree-shape", "sphere --radius 1 --voxels 2000", "points is too large", 2},
        BadInput{"BadNumber", "scree-shape", "sphere --radius abc", "--radius: expects a number, got 'abc'", 2},
        BadInput{"UnknownShape", "scree-shape", "cube --radius 1", "unknown shape 'cube'", 2},
        BadInput{"NodesWithoutShape", "scree-nodes", "DIR/none.vdb", "none.vdb: cannot open", 1},
        BadInput{"NodesOfAMesh", "scree-nodes", "DIR/cut.stl", "cut.stl", 1},
        BadInput{"InertiaWithoutNodes", "scree-inertia", "DIR/plain.vdb", "plain.vdb: has no boundary nodes: run scree-nodes first", 1},
        BadInput{"BadMethod", "scree-nodes", "DIR/plain.vdb --method lattice", "--method: must be one of auto, rays, surface, grid, not 'lattice'", 2}),
    [](const auto& info) { return info.param.name; });

TEST(AvatarTools, CoarseMeshGridIsAnError) {
  TempDir dir;
  ToolRun r = run_tool(dir, "scree-shape", "mesh " + datasets + "/geotaichi/torus.stl --voxel-size 0.15 -o " + (dir / "t.vdb").string());
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("torus.stl: grid too coarse: 2.66"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("voxels across the smallest side (0.39998"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "t.vdb"));
}

}  // namespace
