#include "formats/avatar.h"
#include "formats/level_set_grid.h"

#include <gtest/gtest.h>

#include "common/temp_dir.h"
#include "formats/error.h"
#include "formats/level_set_fixtures.h"

namespace scree::formats {
namespace {

using scree::testing::expect_error;
using scree::testing::TempDir;

// Every voxel (active or not) and every tile, the transform and the class are the same.
void expect_same_grid(const openvdb::FloatGrid& a, const openvdb::FloatGrid& b) {
  EXPECT_EQ(a.getGridClass(), b.getGridClass());
  EXPECT_EQ(a.background(), b.background());
  EXPECT_EQ(a.transform(), b.transform());
  EXPECT_EQ(a.tree().activeVoxelCount(), b.tree().activeVoxelCount());
  EXPECT_EQ(a.tree().leafCount(), b.tree().leafCount());
  EXPECT_TRUE(a.tree().hasSameTopology(b.tree()));
  auto bb = b.getConstAccessor();
  size_t compared = 0;
  for (auto it = a.tree().cbeginValueAll(); it; ++it, ++compared) {
    float vb = 0;
    bool active = bb.probeValue(it.getCoord(), vb);
    ASSERT_EQ(*it, vb) << it.getCoord();
    ASSERT_EQ(it.isValueOn(), active) << it.getCoord();
  }
  EXPECT_GT(compared, 0u);
}

TEST(Avatar, RoundTripIsBitExact) {
  TempDir dir;
  Avatar a = scree::testing::sphere_avatar();
  write_avatar(dir / "a.vdb", a);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"a.vdb"});
  Avatar b = read_avatar(dir / "a.vdb");
  expect_same_grid(*a.phi, *b.phi);
  EXPECT_EQ(b.phi->getName(), "phi");
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_EQ(a.properties.volume, b.properties.volume);
  EXPECT_EQ(a.properties.inertia_per_density, b.properties.inertia_per_density);
  EXPECT_EQ(a.properties.source_to_body, b.properties.source_to_body);
  EXPECT_EQ(a.properties.provenance, b.properties.provenance);
  EXPECT_EQ(a.voxel_size(), b.voxel_size());
}

TEST(Avatar, WritingLeavesTheCallersGridAlone) {
  TempDir dir;
  Avatar a = scree::testing::sphere_avatar();
  a.phi->setName("mine");
  write_avatar(dir / "a.vdb", a);
  EXPECT_EQ(a.phi->getName(), "mine");
  EXPECT_FALSE((*a.phi)["scree_format"]);
}

TEST(Avatar, NodesFillWholeLeavesInDocumentedOrder) {
  EXPECT_EQ(node_coord(0), (VoxelCoord{0, 0, 0}));
  EXPECT_EQ(node_coord(7), (VoxelCoord{0, 0, 7}));
  EXPECT_EQ(node_coord(8), (VoxelCoord{0, 1, 0}));
  EXPECT_EQ(node_coord(63), (VoxelCoord{0, 7, 7}));
  EXPECT_EQ(node_coord(64), (VoxelCoord{1, 0, 0}));
  EXPECT_EQ(node_coord(511), (VoxelCoord{7, 7, 7}));
  EXPECT_EQ(node_coord(512), (VoxelCoord{8, 0, 0}));
  // 2000 nodes take ceil(2000 / 512) = 4 leaves, not one leaf per 8 nodes.
  TempDir dir;
  Avatar a = scree::testing::sphere_avatar(0.5, 0.05, 2000);
  write_avatar(dir / "a.vdb", a);
  auto grids = openvdb::io::File((dir / "a.vdb").string());
  grids.open();
  auto nodes = openvdb::gridPtrCast<openvdb::Vec3SGrid>(grids.readGrid("nodes"));
  EXPECT_EQ(nodes->tree().leafCount(), 4u);
}

// Writes grids as given (no scree checks), to make files the reader must refuse.
void write_raw(const std::filesystem::path& file, openvdb::GridPtrVec grids) {
  openvdb::io::File f(file.string());
  f.write(grids);
  f.close();
}

// The grids write_avatar would write, for spoiling one thing at a time.
openvdb::GridPtrVec avatar_grids(const TempDir& dir, const Avatar& a) {
  write_avatar(dir / "good.vdb", a);
  openvdb::io::File f((dir / "good.vdb").string());
  f.open();
  auto grids = f.getGrids();
  f.close();
  std::filesystem::remove(dir / "good.vdb");
  return *grids;
}

openvdb::FloatGrid& phi_of(openvdb::GridPtrVec& grids) {
  for (auto& g : grids)
    if (g->getName() == "phi") return *openvdb::gridPtrCast<openvdb::FloatGrid>(g);
  throw std::logic_error("no phi");
}

TEST(Avatar, ReaderRefusesSpoiledFiles) {
  TempDir dir;
  const Avatar a = scree::testing::sphere_avatar(0.5, 0.1, 50);
  auto file = dir / "bad.vdb";
  auto refused = [&](openvdb::GridPtrVec grids, const std::string& reason) {
    write_raw(file, grids);
    expect_error([&] { read_avatar(file); }, {file.string() + ": " + reason});
  };
  {
    auto g = avatar_grids(dir, a);
    phi_of(g).setGridClass(openvdb::GRID_FOG_VOLUME);
    refused(g, "grid 'phi' is not a level set (grid class fog volume)");
  }
  {
    auto g = avatar_grids(dir, a);
    g.erase(std::remove_if(g.begin(), g.end(), [](auto& x) { return x->getName() == "nodes"; }),
            g.end());
    refused(g, "lacks boundary nodes (no grid named 'nodes')");
  }
  {
    auto g = avatar_grids(dir, a);
    phi_of(g).removeMeta("volume");
    refused(g, "grid 'phi' lacks metadata 'volume'");
  }
  {
    auto g = avatar_grids(dir, a);
    phi_of(g).removeMeta("provenance");
    refused(g, "grid 'phi' lacks metadata 'provenance'");
  }
  {
    auto g = avatar_grids(dir, a);
    phi_of(g).removeMeta("volume");
    phi_of(g).insertMeta("volume", openvdb::FloatMetadata(1.0f));
    refused(g, "metadata 'volume' must be of type double, not float");
  }
  {
    auto g = avatar_grids(dir, a);
    phi_of(g).tree().setValue(openvdb::Coord(0, 0, 0), std::nanf(""));
    refused(g, "grid 'phi' has a non-finite value at [0, 0, 0]");
  }
  {
    auto g = avatar_grids(dir, a);
    phi_of(g).insertMeta("node_count", openvdb::Int64Metadata(49));
    refused(g, "node_count is 49 but grid 'nodes' holds 50 nodes");
  }
  {
    auto g = avatar_grids(dir, a);
    phi_of(g).insertMeta("voxel_size", openvdb::DoubleMetadata(0.2));
    refused(g, "metadata voxel_size 0.200000 disagrees with the grid's voxel size 0.100000");
  }
  {
    auto g = avatar_grids(dir, a);
    phi_of(g).insertMeta("inertia_per_density", openvdb::Vec3DMetadata(openvdb::Vec3d(1, 1, 5)));
    refused(g, "principal inertia / density violates the triangle inequality");
  }
  {
    auto g = avatar_grids(dir, a);
    g.erase(std::remove_if(g.begin(), g.end(), [](auto& x) { return x->getName() == "phi"; }),
            g.end());
    refused(g, "no grid named 'phi'");
  }
  {
    auto g = avatar_grids(dir, a);
    phi_of(g).insertMeta("scree_format", openvdb::StringMetadata("terrain"));
    refused(g, "is a scree 'terrain' file, expected 'avatar'");
  }
  {
    auto g = avatar_grids(dir, a);
    phi_of(g).insertMeta("scree_version", openvdb::Int32Metadata(2));
    refused(g, "format version 2 is not supported");
  }
}

TEST(Avatar, ReaderRefusesWhatIsNotAnAvatarFile) {
  TempDir dir;
  scree::testing::write_text(dir / "text.vdb", "solid cube\nendsolid\n");
  expect_error([&] { read_avatar(dir / "text.vdb"); },
               {(dir / "text.vdb").string() + ": not a readable OpenVDB file"});
  expect_error([&] { read_avatar(dir / "absent.vdb"); }, {"absent.vdb: cannot open: no such file"});

  write_avatar(dir / "a.vdb", scree::testing::sphere_avatar());
  scree::testing::truncate_file(dir / "a.vdb", std::filesystem::file_size(dir / "a.vdb") / 2);
  EXPECT_THROW(read_avatar(dir / "a.vdb"), FileError);
}

TEST(Avatar, WriterRefusesAndLeavesNoFile) {
  TempDir dir;
  auto refused = [&](const Avatar& a, const std::string& reason) {
    expect_error([&] { write_avatar(dir / "a.vdb", a); },
                 {(dir / "a.vdb").string() + ": cannot write: ", reason});
    EXPECT_TRUE(dir.entries().empty());
  };
  Avatar a = scree::testing::sphere_avatar(0.5, 0.1, 20);
  a.nodes.clear();
  refused(a, "has no boundary nodes");
  a = scree::testing::sphere_avatar(0.5, 0.1, 20);
  a.nodes[3][2] = INFINITY;
  refused(a, "boundary node 3 is not finite");
  a = scree::testing::sphere_avatar(0.5, 0.1, 20);
  a.properties.volume = 0;
  refused(a, "volume must be > 0");
  a = scree::testing::sphere_avatar(0.5, 0.1, 20);
  a.properties.inertia_per_density[1] = -1;
  refused(a, "principal inertia / density must be > 0");
  a = scree::testing::sphere_avatar(0.5, 0.1, 20);
  a.properties.source_to_body[15] = 2;
  refused(a, "must end in the row (0, 0, 0, 1)");
  a = scree::testing::sphere_avatar(0.5, 0.1, 20);
  a.phi->setGridClass(openvdb::GRID_UNKNOWN);
  refused(a, "grid 'phi' is not a level set");
  a = scree::testing::sphere_avatar(0.5, 0.1, 20);
  a.phi = openvdb::FloatGrid::create(3.0f);
  a.phi->setGridClass(openvdb::GRID_LEVEL_SET);
  refused(a, "grid 'phi' has no active voxels");
  a = scree::testing::sphere_avatar(0.5, 0.1, 20);
  a.phi->setTransform(openvdb::math::Transform::createLinearTransform(
      openvdb::Mat4d(openvdb::math::scale<openvdb::Mat4d>(openvdb::Vec3d(0.1, 0.1, 0.2)))));
  refused(a, "needs a linear transform with cubic voxels");
}

}  // namespace
}  // namespace scree::formats
