// Analytic shapes: the implicit functions, their parameter checks, and the superellipsoid
// closed forms against seed 004's tables.
#include <gtest/gtest.h>

#include "common/temp_dir.h"
#include "levelset/superellipsoids.h"

namespace scree::levelset {
namespace {

using testing::TableSuperellipsoid;

class ClosedForms : public ::testing::TestWithParam<TableSuperellipsoid> {};

// The closed forms reproduce Table 2 to its four printed digits.
TEST_P(ClosedForms, MatchSeedTable) {
  const auto& s = GetParam();
  SuperellipsoidMass m = superellipsoid_mass(s.radii, s.eps_e, s.eps_n);
  EXPECT_NEAR(m.volume, s.volume, 6e-4 * s.volume);
  for (int a = 0; a < 3; ++a)
    EXPECT_NEAR(m.inertia_per_density[a], s.inertia_per_density[a], 6e-4 * s.inertia_per_density[a]) << a;
}

INSTANTIATE_TEST_SUITE_P(Seed004, ClosedForms, ::testing::ValuesIn(testing::table_superellipsoids),
                         testing::shape_name);

TEST(ClosedForms, EllipsoidLimit) {
  // εe = εn = 1 is the ellipsoid: V = 4/3 π abc, Ixx/ρ = V (b² + c²) / 5.
  Vec3d r(1, 2, 3);
  SuperellipsoidMass m = superellipsoid_mass(r, 1, 1);
  double v = 4.0 / 3 * M_PI * 6;
  EXPECT_NEAR(m.volume, v, 1e-12 * v);
  EXPECT_NEAR(m.inertia_per_density[0], v * (4 + 9) / 5, 1e-12 * v);
  EXPECT_NEAR(m.inertia_per_density[2], v * (1 + 4) / 5, 1e-12 * v);
}

TEST(Shapes, SignsAndSurfaces) {
  auto sphere = make_sphere(2);
  EXPECT_LT(sphere.f(Vec3d(0)), 0);
  EXPECT_NEAR(sphere.f(Vec3d(0, 2, 0)), 0, 1e-15);
  auto box = make_box(Vec3d(1, 2, 3));
  EXPECT_NEAR(box.f(Vec3d(2, 0, 0)), 1, 1e-15);         // distance to a face
  EXPECT_NEAR(box.f(Vec3d(2, 3, 3)), std::sqrt(2.0), 1e-15);  // distance to an edge
  EXPECT_NEAR(box.f(Vec3d(0.5, 0, 0)), -0.5, 1e-15);
  auto ellipsoid = make_ellipsoid(Vec3d(1, 2, 3));
  EXPECT_NEAR(ellipsoid.f(Vec3d(0, 0, 3)), 0, 1e-15);
  auto s = make_superellipsoid(Vec3d(0.5, 0.7, 1), 1.4, 1.2);
  EXPECT_NEAR(s.f(Vec3d(0.5, 0, 0)), 0, 1e-14);
  EXPECT_NEAR(s.f(Vec3d(0, 0.7, 0)), 0, 1e-14);
  EXPECT_NEAR(s.f(Vec3d(0, 0, 1)), 0, 1e-14);
  EXPECT_LT(s.f(Vec3d(0.2, 0.2, 0.2)), 0);
  EXPECT_EQ(s.upper, Vec3d(0.5, 0.7, 1));
  auto flake = make_flake(3, 1.5);
  EXPECT_NEAR(flake.f(Vec3d(0, 0, 3)), 0, 1e-12);  // sin 5θ = 0 on the axis
}

TEST(Shapes, BadParametersAreRefused) {
  using testing::expect_error;
  expect_error([] { make_sphere(0); }, {"radius must be > 0, got 0"});
  expect_error([] { make_sphere(-1); }, {"radius must be > 0, got -1"});
  expect_error([] { make_box(Vec3d(1, 0, 1)); }, {"half extent y must be > 0, got 0"});
  expect_error([] { make_ellipsoid(Vec3d(1, 1, -2)); }, {"radius z must be > 0, got -2"});
  expect_error([] { make_superellipsoid(Vec3d(1), 0.05, 1); }, {"eps_e must be in [0.1, 2], got 0.05"});
  expect_error([] { make_superellipsoid(Vec3d(1), 1, 2.5); }, {"eps_n must be in [0.1, 2], got 2.5"});
  expect_error([] { make_superellipsoid(Vec3d(1), 1, std::nan("")); }, {"eps_n must be in"});
  expect_error([] { make_flake(3, 3); }, {"amplitude must be in [0, radius)"});
}

}  // namespace
}  // namespace scree::levelset
