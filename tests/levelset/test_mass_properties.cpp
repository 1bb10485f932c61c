// Volume and inertia by the smeared Heaviside against closed forms: the sphere and seed
// 004's superellipsoids A–E at 20 voxels across the smallest dimension.
#include <gtest/gtest.h>

#include "common/temp_dir.h"
#include "levelset/avatar_builder.h"
#include "levelset/fast_marching.h"
#include "levelset/superellipsoids.h"

namespace scree::levelset {
namespace {

openvdb::FloatGrid::Ptr level_set(const ImplicitShape& shape, double voxels_across) {
  double h = choose_voxel_size(shape.lower, shape.upper, 0, voxels_across);
  return shape_from_samples(sample_implicit(shape, h), 3, 1, "").phi;
}

TEST(MassProperties, SphereAtTwentyVoxelsPerDiameter) {
  const double r = 0.01;
  MassProperties m = integrate_mass(*level_set(make_sphere(r), 20));
  const double volume = 4.0 / 3 * M_PI * r * r * r, inertia = 0.4 * volume * r * r;
  std::printf("sphere: volume error %+.4f %%, inertia error %+.4f %%\n", 100 * (m.volume / volume - 1),
              100 * (m.principal[0] / inertia - 1));
  EXPECT_NEAR(m.volume, volume, 0.005 * volume);
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(m.principal[a], inertia, 0.01 * inertia);
  EXPECT_LT(m.centroid.length(), 1e-6 * r);
  // Three equal moments: the body axes are the world axes.
  EXPECT_EQ(m.axes, Mat3d::identity());
}

// Areas against closed forms: the sphere's 4πr², the ellipsoid's by Legendre's elliptic
// integrals, within half a per cent; a box's 2(ab + bc + ca) within 3 % (inside, its level
// set has kinks along the edges' bisectors, which the central differences of |∇φ| flatten).
TEST(MassProperties, SurfaceAreaOfSphereEllipsoidAndBox) {
  const double r = 0.01;
  const double sphere = surface_area(*level_set(make_sphere(r), 20));
  std::printf("sphere area error %+.4f %%\n", 100 * (sphere / (4 * M_PI * r * r) - 1));
  EXPECT_NEAR(sphere, 4 * M_PI * r * r, 0.005 * 4 * M_PI * r * r);

  const double a = 0.012, b = 0.008, c = 0.005;
  const double phi = std::acos(c / a), k = std::sqrt(a * a * (b * b - c * c) / (b * b * (a * a - c * c)));
  const double ellipsoid_exact = 2 * M_PI * c * c + 2 * M_PI * a * b / std::sin(phi) *
      (std::ellint_2(k, phi) * std::pow(std::sin(phi), 2) + std::ellint_1(k, phi) * std::pow(std::cos(phi), 2));
  const double ellipsoid = surface_area(*level_set(make_ellipsoid(Vec3d(a, b, c)), 20));
  std::printf("ellipsoid area error %+.4f %%\n", 100 * (ellipsoid / ellipsoid_exact - 1));
  EXPECT_NEAR(ellipsoid, ellipsoid_exact, 0.005 * ellipsoid_exact);

  const Vec3d half(0.01, 0.006, 0.004);
  const double box = surface_area(*level_set(make_box(half), 20));
  const double exact = 8 * (half[0] * half[1] + half[1] * half[2] + half[2] * half[0]);
  std::printf("box area error %+.4f %%\n", 100 * (box / exact - 1));
  EXPECT_NEAR(box, exact, 0.03 * exact);
}

class Superellipsoid : public ::testing::TestWithParam<testing::TableSuperellipsoid> {};

TEST_P(Superellipsoid, VolumeAndPrincipalInertiaWithinOnePercent) {
  const auto& s = GetParam();
  const double cm = 0.01;  // Table 1 is in cm; avatars are in metres
  MassProperties m = integrate_mass(*level_set(make_superellipsoid(s.radii * cm, s.eps_e, s.eps_n), 20));
  SuperellipsoidMass exact = superellipsoid_mass(s.radii * cm, s.eps_e, s.eps_n);
  std::printf("%s: volume %+.3f %%, I/rho %+.3f %% %+.3f %% %+.3f %%\n", s.name.c_str(),
              100 * (m.volume / exact.volume - 1), 100 * (m.principal[0] / exact.inertia_per_density[0] - 1),
              100 * (m.principal[1] / exact.inertia_per_density[1] - 1),
              100 * (m.principal[2] / exact.inertia_per_density[2] - 1));
  EXPECT_NEAR(m.volume, exact.volume, 0.01 * exact.volume);
  for (int a = 0; a < 3; ++a)
    EXPECT_NEAR(m.principal[a], exact.inertia_per_density[a], 0.01 * exact.inertia_per_density[a]) << a;
  // Symmetric shapes: centroid at the origin, axes along x, y, z.
  EXPECT_LT(m.centroid.length(), 1e-3 * s.radii[0] * cm);
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(m.axes(a, a), 1, 1e-9);
}

INSTANTIATE_TEST_SUITE_P(Seed004, Superellipsoid, ::testing::ValuesIn(testing::table_superellipsoids),
                         testing::shape_name);

TEST(MassProperties, ShiftedRotatedBoxGivesItsFrame) {
  // A 2 × 4 × 6 box centred at (1, 2, 3), rotated 30° about z: the centroid and the axes
  // come back, the moments are m (b² + c²)/12 per unit density.
  const double angle = M_PI / 6, c = std::cos(angle), s = std::sin(angle);
  const Vec3d centre(1, 2, 3), half(1, 2, 3);
  auto box = make_box(half);
  ImplicitShape turned{[&](const Vec3d& p) {
                         Vec3d q = p - centre;
                         return box.f(Vec3d(c * q[0] + s * q[1], -s * q[0] + c * q[1], q[2]));
                       },
                       centre - Vec3d(4), centre + Vec3d(4), "turned box"};
  MassProperties m = integrate_mass(*level_set(turned, 20 * 8 / 2));
  const double volume = 48;
  EXPECT_NEAR(m.volume, volume, 0.003 * volume);
  EXPECT_LT((m.centroid - centre).length(), 1e-3);
  const Vec3d moments(volume * (16 + 36) / 12, volume * (4 + 36) / 12, volume * (4 + 16) / 12);
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(m.principal[a], moments[a], 0.005 * moments[a]) << a;
  EXPECT_NEAR(m.axes(0, 0), c, 1e-4);  // body x is the box's first axis
  EXPECT_NEAR(m.axes(1, 0), s, 1e-4);
  EXPECT_NEAR(m.axes.det(), 1, 1e-12);
}

TEST(MassProperties, DegeneratePairFollowsTheWorldAxes) {
  // An ellipsoid with rx = ry: any axes in the x-y plane are principal; scree keeps x and y.
  Mat3d axes;
  Vec3d principal;
  Mat3d inertia = Mat3d::zero();
  inertia(0, 0) = 2, inertia(1, 1) = 2 * (1 + 1e-5), inertia(2, 2) = 1;
  inertia(0, 1) = inertia(1, 0) = 3e-5;  // round-off that would otherwise turn the axes 40°
  principal_axes(inertia, axes, principal);
  EXPECT_NEAR(axes(0, 0), 1, 1e-12);
  EXPECT_NEAR(axes(1, 1), 1, 1e-12);
  EXPECT_NEAR(axes(2, 2), 1, 1e-12);
  EXPECT_NEAR(principal[2], 1, 1e-12);
}

TEST(MassProperties, ResolutionChecks) {
  using testing::expect_error;
  Vec3d lo(0), hi(1, 2, 3);
  EXPECT_DOUBLE_EQ(choose_voxel_size(lo, hi, 0, 20), 0.05);
  EXPECT_DOUBLE_EQ(choose_voxel_size(lo, hi, 0.1, 0), 0.1);
  expect_error([&] { choose_voxel_size(lo, hi, 0, 3); }, {"grid too coarse: 3 voxels across", "at least 4"});
  expect_error([&] { choose_voxel_size(lo, hi, 0.5, 0); }, {"grid too coarse: 2 voxels across"});
  expect_error([&] { choose_voxel_size(lo, hi, -1, 0); }, {"voxel size must be > 0"});
  // OpenVDB's smallest voxel in metres: 14.5 µm.
  const Vec3d grain(1e-4);
  EXPECT_DOUBLE_EQ(choose_voxel_size(Vec3d(0), grain, 1.45e-5, 0), 1.45e-5);
  expect_error([&] { choose_voxel_size(Vec3d(0), grain, 0, 20); }, {"voxel size 5e-06 m is below OpenVDB's smallest, 1.45e-05 m"});
}

}  // namespace
}  // namespace scree::levelset
