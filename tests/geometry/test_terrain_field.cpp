// The solver's column store of the terrain: exact on a tilted plane (trilinear reproduces a
// linear field), ground below the band and air above and beyond it, the clearance test the
// contact search skips grains by, and the refusals of grids that are not height fields.
#include <gtest/gtest.h>
#include <openvdb/tools/LevelSetPlatonic.h>
#include <openvdb/tools/LevelSetSphere.h>
#include <openvdb/tools/SignedFloodFill.h>

#include <cmath>
#include <numbers>
#include <random>

#include "formats/error.h"
#include "geometry/terrain_from_file.h"

namespace scree::geometry {
namespace {

constexpr double voxel = 0.25, band_voxels = 3;
const double slope = 25 * std::numbers::pi / 180;

// The signed distance to the plane z = x tan θ + 1 (ground below).
double plane_distance(const Eigen::Vector3d& p) { return (p.z() - p.x() * std::tan(slope) - 1) * std::cos(slope); }

// A terrain grid of the plane over 0 ≤ x, y ≤ 10 m, exact within the band, offset by a
// quarter voxel from the world's origin as scree-terrain's alignment may be.
formats::Terrain plane_terrain() {
  openvdb::initialize();
  const float band = float(band_voxels * voxel);
  auto grid = openvdb::FloatGrid::create(band);
  grid->setTransform(openvdb::math::Transform::createLinearTransform(voxel));
  grid->transform().postTranslate(openvdb::Vec3d(0.0625, -0.0625, 0.03));
  grid->setGridClass(openvdb::GRID_LEVEL_SET);
  auto acc = grid->getAccessor();
  for (int i = 0; i <= 40; ++i)
    for (int j = 0; j <= 40; ++j)
      for (int k = -10; k <= 40; ++k) {
        const openvdb::Vec3d w = grid->transform().indexToWorld(openvdb::Vec3d(i, j, k));
        const double d = plane_distance({w[0], w[1], w[2]});
        if (std::abs(d) < band) acc.setValue({i, j, k}, float(d));
      }
  openvdb::tools::signedFloodFill(grid->tree());
  formats::Terrain t;
  t.phi = grid;
  return t;
}

TEST(TerrainField, TiltedPlaneIsExactInTheBand) {
  const TerrainField field = terrain_field(plane_terrain(), "plane.vdb");
  const Eigen::Vector3d normal(-std::sin(slope), 0, std::cos(slope));
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> across(1, 9), height(-0.45, 0.45);
  for (int n = 0; n < 2000; ++n) {
    const double x = across(rng), y = across(rng);
    // Points within the band less the reach of a cell's corners, where no corner is clamped.
    const Eigen::Vector3d p(x, y, x * std::tan(slope) + 1 + height(rng));
    Eigen::Vector3d gradient;
    EXPECT_NEAR(field.value_and_gradient(p, gradient), plane_distance(p), 2e-6) << p.transpose();
    EXPECT_NEAR((gradient - normal).norm(), 0, 2e-5) << p.transpose();
    EXPECT_DOUBLE_EQ(field.value(p), field.value_and_gradient(p, gradient));
  }
}

// A field laid out flat (as a node's ranks share it, docs/parallel.md "Memory") reads the
// same bits from the block, and refuses a block cut short.
TEST(TerrainField, AFlatCopyReadsTheSameBitsInPlace) {
  const TerrainField field = terrain_field(plane_terrain(), "plane.vdb");
  auto block = std::make_shared<const std::vector<std::byte>>(field.flat());
  const TerrainField copy = TerrainField::in_place(*block, block);
  EXPECT_EQ(copy.band(), field.band());
  EXPECT_EQ(copy.voxel_size(), field.voxel_size());
  EXPECT_EQ(copy.bytes(), field.bytes());
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> across(-1, 11), height(-2, 8);
  for (int n = 0; n < 2000; ++n) {
    const Eigen::Vector3d p(across(rng), across(rng), height(rng));
    Eigen::Vector3d g, h;
    EXPECT_EQ(copy.value_and_gradient(p, g), field.value_and_gradient(p, h)) << p.transpose();
    EXPECT_EQ(g, h);
    EXPECT_EQ(copy.ground_height(p.x(), p.y()), field.ground_height(p.x(), p.y()));
  }
  EXPECT_THROW(TerrainField::in_place(std::span(*block).first(block->size() - 4), block), std::invalid_argument);
}

// Along a vertical line φ is piecewise linear between grid levels and the plane's φ is linear:
// the ground's height comes back exactly; beyond the columns there is none.
TEST(TerrainField, GroundHeightOfAPlane) {
  const TerrainField field = terrain_field(plane_terrain(), "plane.vdb");
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> across(0.1, 9.9);
  for (int n = 0; n < 500; ++n) {
    const double x = across(rng), y = across(rng);
    const auto z = field.ground_height(x, y);
    ASSERT_TRUE(z.has_value()) << x << " " << y;
    EXPECT_NEAR(*z, x * std::tan(slope) + 1, 1e-5) << x << " " << y;
  }
  EXPECT_FALSE(field.ground_height(-1, 5).has_value());
  EXPECT_FALSE(field.ground_height(5, 10.5).has_value());
}

TEST(TerrainField, GroundBelowTheBandAirAboveAndBeyond) {
  const TerrainField field = terrain_field(plane_terrain(), "plane.vdb");
  const double band = band_voxels * voxel;
  EXPECT_DOUBLE_EQ(field.band(), band);
  Eigen::Vector3d gradient;
  EXPECT_FLOAT_EQ(float(field.value_and_gradient({5, 5, -20}, gradient)), -float(band));
  EXPECT_EQ(gradient, Eigen::Vector3d::Zero());
  EXPECT_FLOAT_EQ(float(field.value({5, 5, 40})), float(band));
  EXPECT_FLOAT_EQ(float(field.value({50, 5, -20})), float(band));  // beyond the columns: no ground
  EXPECT_FLOAT_EQ(float(field.value({5, -50, -20})), float(band));
  EXPECT_FLOAT_EQ(float(field.value({std::nan(""), 5, 0})), float(band));
  // The band and two integers per column: far below a dense grid of the same box.
  const std::size_t dense = 41 * 41 * 51 * sizeof(float);
  EXPECT_LT(field.bytes(), dense / 3);
}

TEST(TerrainField, ClearOfSkipsOnlyBallsThatCannotTouch) {
  const TerrainField field = terrain_field(plane_terrain(), "plane.vdb");
  const double up = 1 / std::cos(slope);  // height per unit of normal distance
  const Eigen::Vector3d ground(5, 5, 5 * std::tan(slope) + 1);
  // Small balls: the band's distance decides.
  EXPECT_TRUE(field.clear_of(ground + Eigen::Vector3d(0, 0, 0.3 * up), 0.25));
  EXPECT_FALSE(field.clear_of(ground + Eigen::Vector3d(0, 0, 0.2 * up), 0.25));
  EXPECT_FALSE(field.clear_of(ground + Eigen::Vector3d(0, 0, -0.1), 0.25));
  EXPECT_FALSE(field.clear_of(ground + Eigen::Vector3d(0, 0, -5), 0.25));  // tunnelled: inside
  // Balls larger than the band: the columns' tops decide, conservatively.
  EXPECT_TRUE(field.clear_of(ground + Eigen::Vector3d(0, 0, 6 * up), 2));
  EXPECT_FALSE(field.clear_of(ground + Eigen::Vector3d(0, 0, 1.9 * up), 2));
  EXPECT_TRUE(field.clear_of({50, 50, -10}, 2));  // beyond the columns
}

// Why terrain_field refuses a grid (empty when it does not).
std::string refusal(const formats::Terrain& terrain) {
  try {
    terrain_field(terrain, "t.vdb");
  } catch (const formats::FileError& e) {
    return e.reason();
  }
  return "";
}

TEST(TerrainField, RefusesGridsThatAreNotUprightHeightFields) {
  formats::Terrain turned = plane_terrain();
  turned.phi->transform().postRotate(0.3, openvdb::math::Z_AXIS);
  EXPECT_NE(refusal(turned).find("rotated"), std::string::npos) << refusal(turned);
  formats::Terrain ball;
  ball.phi = openvdb::tools::createLevelSetSphere<openvdb::FloatGrid>(2.0f, openvdb::Vec3f(0), 0.25f);
  EXPECT_NE(refusal(ball).find("not a height field"), std::string::npos) << refusal(ball);
  EXPECT_EQ(refusal(plane_terrain()), "");
}

}  // namespace
}  // namespace scree::geometry
