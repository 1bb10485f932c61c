#include "formats/terrain.h"

#include <gtest/gtest.h>
#include <openvdb/tools/LevelSetPlatonic.h>

#include "common/temp_dir.h"
#include "formats/avatar.h"
#include "formats/error.h"
#include "formats/level_set_fixtures.h"

namespace scree::formats {
namespace {

using scree::testing::expect_error;
using scree::testing::TempDir;

Terrain sample_terrain() {
  Terrain t;
  // A cube of ground: negative inside (below its top face), as terrain is below the surface.
  t.phi = openvdb::tools::createLevelSetCube<openvdb::FloatGrid>(20.0f, openvdb::Vec3f(0), 1.0f);
  t.crs_wkt = R"(PROJCS["WGS 84 / UTM zone 32N",GEOGCS["WGS 84",DATUM["WGS_1984"]],UNIT["metre",1]])";
  t.origin_offset = {618049.313, 3996199.5, 1597.405};
  t.provenance = "test cube";
  return t;
}

TEST(Terrain, RoundTripIsBitExact) {
  TempDir dir;
  Terrain a = sample_terrain();
  write_terrain(dir / "t.vdb", a);
  Terrain b = read_terrain(dir / "t.vdb");
  EXPECT_EQ(a.crs_wkt, b.crs_wkt);
  EXPECT_EQ(a.origin_offset, b.origin_offset);
  EXPECT_EQ(a.provenance, b.provenance);
  EXPECT_EQ(a.phi->transform(), b.phi->transform());
  EXPECT_TRUE(a.phi->tree().hasSameTopology(b.phi->tree()));
  auto acc = b.phi->getConstAccessor();
  for (auto it = a.phi->tree().cbeginValueAll(); it; ++it)
    ASSERT_EQ(*it, acc.getValue(it.getCoord()));
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"t.vdb"});
}

TEST(Terrain, AvatarAndTerrainFilesAreNotConfused) {
  TempDir dir;
  write_terrain(dir / "t.vdb", sample_terrain());
  write_avatar(dir / "a.vdb", scree::testing::sphere_avatar());
  expect_error([&] { read_avatar(dir / "t.vdb"); }, {"is a scree 'terrain' file, expected 'avatar'"});
  expect_error([&] { read_terrain(dir / "a.vdb"); }, {"is a scree 'avatar' file, expected 'terrain'"});
}

TEST(Terrain, MissingGeoreferencingIsRefused) {
  TempDir dir;
  write_terrain(dir / "t.vdb", sample_terrain());
  openvdb::io::File in((dir / "t.vdb").string());
  in.open();
  auto grids = in.getGrids();
  in.close();
  (*grids)[0]->removeMeta("origin_offset");
  openvdb::io::File out((dir / "t.vdb").string());
  out.write(*grids);
  out.close();
  expect_error([&] { read_terrain(dir / "t.vdb"); }, {"lacks metadata 'origin_offset'"});
}

TEST(Terrain, WriterRefusesAndLeavesNoFile) {
  TempDir dir;
  Terrain t = sample_terrain();
  t.origin_offset[2] = NAN;
  expect_error([&] { write_terrain(dir / "t.vdb", t); }, {"cannot write: origin offset is not finite"});
  t = sample_terrain();
  t.phi->setGridClass(openvdb::GRID_FOG_VOLUME);
  expect_error([&] { write_terrain(dir / "t.vdb", t); }, {"cannot write: grid 'phi' is not a level set"});
  EXPECT_TRUE(dir.entries().empty());
}

}  // namespace
}  // namespace scree::formats
