// The light .vdb reader against OpenVDB itself: every value and active state of grids that
// OpenVDB wrote under each compression, with tiles at every level, three kinds of transform
// and every way a node stores its inactive values.
#include "formats/vdb_grid.h"

#include <gtest/gtest.h>

#include <random>

#include "common/temp_dir.h"
#include "formats/error.h"
#include "formats/level_set_file.h"
#include "formats/level_set_fixtures.h"
#include "formats/level_set_grid.h"

namespace scree::formats {
namespace {

using scree::testing::expect_error;
using scree::testing::TempDir;

// A sphere level set with tiles at the lower, upper and root levels, leaves whose inactive
// values are ±background, one other value, two other values and more than two, on `xform`.
openvdb::FloatGrid::Ptr varied_grid(openvdb::math::Transform::Ptr xform) {
  auto grid = scree::testing::sphere_avatar(0.5, 0.05, 10).phi;
  grid->setName("phi");
  grid->setTransform(xform);
  auto& tree = grid->tree();
  tree.fill(openvdb::CoordBBox(openvdb::Coord(256, 0, 0), openvdb::Coord(511, 127, 135)), -1.5f, true);
  tree.fill(openvdb::CoordBBox(openvdb::Coord(-8192, 0, 0), openvdb::Coord(-4097, 4095, 4095)), 2.5f, false);
  tree.fill(openvdb::CoordBBox(openvdb::Coord(-4096, 0, 0), openvdb::Coord(-1, 4095, 4095)), 3.5f, true);
  tree.setValueOff(openvdb::Coord(40, 40, 40), 0.25f);                                      // one other
  tree.setValueOff(openvdb::Coord(48, 40, 40), 0.25f), tree.setValueOff({49, 40, 40}, 0.5f);  // two others
  for (int k = 0; k < 3; ++k) tree.setValueOff(openvdb::Coord(56, 40, 40 + k), 0.75f + k);  // more
  tree.setValueOn(openvdb::Coord(64, 40, 40), 7.0f);  // a leaf of one active voxel in background
  grid->insertMeta("volume", openvdb::DoubleMetadata(0.125));
  grid->insertMeta("count", openvdb::Int64Metadata(-7));
  grid->insertMeta("offset", openvdb::Vec3DMetadata(openvdb::Vec3d(1.5, -2, 3e6)));
  grid->insertMeta("note", openvdb::StringMetadata("a note"));
  return grid;
}

void write(const std::filesystem::path& file, const openvdb::GridPtrVec& grids, std::uint32_t compression) {
  openvdb::io::File f(file.string());
  f.setCompression(compression);
  f.write(grids);
  f.close();
}

// Every voxel near the sphere and the filled boxes' edges, and random ones far out.
std::vector<openvdb::Coord> probes() {
  std::vector<openvdb::Coord> out;
  for (int i = -16; i <= 72; ++i)
    for (int j = -16; j <= 48; j += 2)
      for (int k = -16; k <= 48; k += 3) out.emplace_back(i, j, k);
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> any(-10000, 10000);
  for (int n = 0; n < 20000; ++n) out.emplace_back(any(rng), any(rng) / 2 + 2000, any(rng) / 2 + 2000);
  for (int i : {-8193, -8192, -4097, -4096, -1, 255, 256, 511, 512})
    for (int j : {-1, 0, 127, 128, 4095})
      for (int k : {-1, 0, 135, 136}) out.emplace_back(i, j, k);
  return out;
}

void expect_same_grid(const openvdb::FloatGrid& expected, const VdbGrid& got) {
  ASSERT_EQ(got.components, 1);
  EXPECT_EQ(got.name, expected.getName());
  EXPECT_EQ(got.grid_class, "level set");
  EXPECT_EQ(got.background[0], expected.background());
  const openvdb::Mat4d m = expected.transform().baseMap()->getAffineMap()->getMat4();
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) EXPECT_EQ(got.index_to_world[4 * r + c], m(c, r));
    EXPECT_EQ(got.index_to_world[4 * r + 3], m(3, r));
  }
  EXPECT_EQ(got.active_voxel_count(), expected.activeVoxelCount());
  const auto box = got.active_box();
  const openvdb::CoordBBox expected_box = expected.evalActiveVoxelBoundingBox();
  for (int a = 0; a < 3; ++a) {
    EXPECT_EQ(box[0][a], expected_box.min()[a]);
    EXPECT_EQ(box[1][a], expected_box.max()[a]);
  }
  auto acc = expected.getConstAccessor();
  int wrong = 0;
  for (const openvdb::Coord& c : probes()) {
    const VoxelCoord at{c[0], c[1], c[2]};
    wrong += *got.value(at) != acc.getValue(c) || got.is_active(at) != acc.isValueOn(c);
  }
  EXPECT_EQ(wrong, 0);
}

TEST(VdbGrid, ReadsWhatOpenVdbWritesUnderEveryCompression) {
  TempDir dir;
  auto rotated = openvdb::math::Transform::createLinearTransform(0.05);
  rotated->postRotate(0.3, openvdb::math::Z_AXIS);
  rotated->postTranslate(openvdb::Vec3d(0.1, -0.2, 0.3));
  auto shifted = openvdb::math::Transform::createLinearTransform(0.05);
  shifted->postTranslate(openvdb::Vec3d(0.1, -0.2, 0.3));
  for (const auto& xform : {openvdb::math::Transform::createLinearTransform(0.05), shifted, rotated}) {
    const auto phi = varied_grid(xform);
    auto nodes = vdb::nodes_grid({{1, 2, 3}, {-4, 5.5f, 6}, {7, 8, 9e-7f}});
    for (std::uint32_t compression : std::initializer_list<std::uint32_t>{openvdb::io::COMPRESS_NONE, openvdb::io::COMPRESS_ZIP, openvdb::io::COMPRESS_BLOSC,
          openvdb::io::COMPRESS_ACTIVE_MASK, openvdb::io::COMPRESS_ZIP | openvdb::io::COMPRESS_ACTIVE_MASK,
          openvdb::io::COMPRESS_BLOSC | openvdb::io::COMPRESS_ACTIVE_MASK}) {
      SCOPED_TRACE("compression " + std::to_string(compression) + ", map " + xform->mapType());
      write(dir / "g.vdb", {phi, nodes}, compression);
      const std::vector<VdbGrid> grids = read_vdb_grids(dir / "g.vdb");
      ASSERT_EQ(grids.size(), 2u);
      expect_same_grid(*phi, grids[0]);
      EXPECT_EQ(vdb::metadata<double>(dir / "g.vdb", grids[0], "volume"), 0.125);
      EXPECT_EQ(vdb::metadata<std::int64_t>(dir / "g.vdb", grids[0], "count"), -7);
      EXPECT_EQ((vdb::metadata<std::array<double, 3>>(dir / "g.vdb", grids[0], "offset")),
                (std::array<double, 3>{1.5, -2, 3e6}));
      EXPECT_EQ(vdb::metadata<std::string>(dir / "g.vdb", grids[0], "note"), "a note");
      ASSERT_EQ(grids[1].components, 3);
      EXPECT_EQ(grids[1].active_voxel_count(), 3u);
      EXPECT_EQ(grids[1].value(node_coord(1))[1], 5.5f);
      EXPECT_EQ(grids[1].value(node_coord(2))[2], 9e-7f);
    }
  }
}

TEST(VdbGrid, SparseCopyHoldsWhatOpenVdbHolds) {
  auto xform = openvdb::math::Transform::createLinearTransform(0.05);
  xform->postRotate(0.7, openvdb::math::X_AXIS);
  expect_same_grid(*varied_grid(xform), vdb::sparse_copy(*varied_grid(xform)));
}

TEST(VdbGrid, RefusesWhatItCannotRead) {
  TempDir dir;
  const auto phi = varied_grid(openvdb::math::Transform::createLinearTransform(0.05));
  expect_error([&] { read_vdb_grids(dir / "absent.vdb"); }, {"absent.vdb: cannot open: no such file"});
  scree::testing::write_text(dir / "text.vdb", "solid cube\nendsolid\n");
  expect_error([&] { read_vdb_grids(dir / "text.vdb"); }, {"text.vdb: not a readable OpenVDB file (no VDB magic number)"});

  write(dir / "g.vdb", {phi}, openvdb::io::COMPRESS_BLOSC | openvdb::io::COMPRESS_ACTIVE_MASK);
  const auto size = std::filesystem::file_size(dir / "g.vdb");
  for (double fraction : {0.001, 0.02, 0.1, 0.5, 0.9, 0.999}) {
    std::filesystem::copy_file(dir / "g.vdb", dir / "cut.vdb", std::filesystem::copy_options::overwrite_existing);
    scree::testing::truncate_file(dir / "cut.vdb", std::uintmax_t(fraction * double(size)));
    expect_error([&] { read_vdb_grids(dir / "cut.vdb"); }, {"cut.vdb: not a readable OpenVDB file ("});
  }

  auto half = phi->deepCopy();
  half->setSaveFloatAsHalf(true);
  write(dir / "half.vdb", {half}, openvdb::io::COMPRESS_ZIP);
  expect_error([&] { read_vdb_grids(dir / "half.vdb"); }, {"grid 'phi' is stored in half floats"});
}

}  // namespace
}  // namespace scree::formats
