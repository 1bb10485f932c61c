// The solver's column store of the terrain: exact on a tilted plane (trilinear reproduces a
// linear field), ground below the band and air above and beyond it, the clearance test the
// contact search skips grains by, and the refusals of grids that are not height fields.
#include <gtest/gtest.h>
#include <openvdb/tools/LevelSetPlatonic.h>
#include <openvdb/tools/LevelSetSphere.h>

#include <cmath>
#include <functional>
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

// A terrain grid of `phi` (ground below; NaN where the ground has a hole) over 0 ≤ x, y ≤
// 10 m, its band values where |φ| is within the band, offset by a quarter voxel from the world's origin as scree-terrain's
// alignment may be.
formats::Terrain terrain_of(const std::function<double(const Eigen::Vector3d&)>& phi) {
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
        const double d = phi({w[0], w[1], w[2]});
        if (std::isnan(d)) acc.setValueOff({i, j, k}, band);  // a hole in the ground: air
        else if (std::abs(d) < band) acc.setValue({i, j, k}, float(d));
        else acc.setValueOff({i, j, k}, d < 0 ? -band : band);  // set, not flood filled: hills fold leaves' faces
      }
  formats::Terrain t;
  t.phi = grid;
  return t;
}

// The plane, exact within the band.
formats::Terrain plane_terrain() { return terrain_of(plane_distance); }

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
    EXPECT_EQ(copy.may_be_below(p, 0.4, 0.1), field.may_be_below(p, 0.4, 0.1));  // the tiles' slopes travel too
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

// The cull of a grain's node hierarchy (contact_finding.cpp): a ball is cleared only where
// every point in it lies at or above the level asked, whatever the terrain, and on a plane
// (slope 1) as soon as its centre is a radius above that level.
TEST(TerrainField, MayBeBelowClearsOnlyBallsThatCannotReach) {
  // Rolling ground by its height's difference: a slope of up to 1.2 where the hills are steep,
  // not a distance (its grid values differ by more than a voxel across a cell there); and a
  // hole in it, air all the way down, whose sides are cliffs.
  auto rolling = [](const Eigen::Vector3d& p) {
    if (p.x() > 4 && p.x() < 5 && p.y() > 6 && p.y() < 7) return std::nan("");
    return p.z() - 1 - 0.5 * std::sin(p.x()) * std::cos(0.9 * p.y());
  };
  const TerrainField hills = terrain_field(terrain_of(rolling), "hills.vdb");
  const TerrainField plane = terrain_field(plane_terrain(), "plane.vdb");
  ASSERT_FLOAT_EQ(float(hills.value({4.5, 6.5, -1})), float(band_voxels * voxel));  // air in the hole
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> across(-1, 11), unit(-1, 1), above(-0.9, 0.9), size(0.02, 1.2), level(-0.3, 0.3);
  int cleared = 0;
  for (int n = 0; n < 4000; ++n) {
    const bool on_hills = n % 2 == 0;
    const TerrainField& field = on_hills ? hills : plane;
    const bool by_hole = n % 4 == 2;  // the hole's cliffs, a ball in four
    const double x = by_hole ? 4.5 + 1.5 * unit(rng) : across(rng), y = by_hole ? 6.5 + 1.5 * unit(rng) : across(rng);
    const double ground = on_hills ? 1 + 0.5 * std::sin(x) * std::cos(0.9 * y) : x * std::tan(slope) + 1;
    const Eigen::Vector3d centre(x, y, ground + above(rng));
    const double radius = size(rng), below = level(rng);
    if (field.may_be_below(centre, radius, below)) continue;
    ++cleared;
    for (int m = 0; m < 300; ++m) {
      Eigen::Vector3d offset(unit(rng), unit(rng), unit(rng));
      if (offset.norm() > 1) offset.normalize();  // on the sphere, where the value is least
      const Eigen::Vector3d point = centre + radius * offset;
      ASSERT_GE(field.value(point), below) << centre.transpose() << " r " << radius << " at " << point.transpose();
    }
  }
  EXPECT_GT(cleared, 300);
  // The plane's slope is 1: a ball whose centre lies its radius and 0.2 more above the level
  // is cleared, one whose centre lies 0.02 short of that is not (a bound of √3, each axis's
  // steepest, would clear neither).
  const Eigen::Vector3d normal(-std::sin(slope), 0, std::cos(slope)), on_ground(5, 5, 5 * std::tan(slope) + 1);
  EXPECT_FALSE(plane.may_be_below(on_ground + 0.6 * normal, 0.3, 0.1));
  EXPECT_TRUE(plane.may_be_below(on_ground + 0.38 * normal, 0.3, 0.1));
  // Over the grid's side the air meets the columns' ground: no bound, so never cleared.
  EXPECT_TRUE(plane.may_be_below({10.2, 5, 20}, 0.5, 0.1));
  EXPECT_TRUE(plane.may_be_below({std::nan(""), 5, 0}, 0.5, 0.1));
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
