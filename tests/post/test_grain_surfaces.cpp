// Grains for ParaView: a sphere's and a level set's surfaces are closed, face out and hold
// their volume; each grain is its template scaled, turned and moved, with its motion as data.
#include "post/grain_surfaces.h"

#include <gtest/gtest.h>
#include <openvdb/tools/LevelSetSphere.h>

#include <cmath>
#include <numbers>

#include <Eigen/Geometry>

#include "post/decimate.h"
#include "post/zero_surface.h"

namespace scree::post {
namespace {

using Eigen::Vector3d;

Vector3d at(const formats::TriangleSurface& s, std::uint32_t p) { return Vector3d(s.points[p].data()); }

// The volume the triangles enclose (divergence theorem): positive when they face out.
double enclosed_volume(const formats::TriangleSurface& s) {
  double volume = 0;
  for (const auto& t : s.triangles) volume += at(s, t[0]).dot(at(s, t[1]).cross(at(s, t[2]))) / 6;
  return volume;
}

TEST(SphereSurface, IcosphereOnTheSphereFacingOut) {
  const formats::TriangleSurface s = sphere_surface(2, 3);
  EXPECT_EQ(s.triangles.size(), 20u * 64);
  for (const auto& p : s.points) EXPECT_NEAR(Vector3d(p.data()).norm(), 2, 1e-12);
  const double ball = 4.0 / 3 * std::numbers::pi * 8;
  EXPECT_GT(enclosed_volume(s), 0.98 * ball);  // inscribed: a little less than the ball
  EXPECT_LT(enclosed_volume(s), ball);
  // As many levels as a triangle budget allows: 20, 80, 320, 1280, ... triangles.
  EXPECT_EQ(sphere_levels(20), 0);
  EXPECT_EQ(sphere_levels(79), 0);
  EXPECT_EQ(sphere_levels(80), 1);
  EXPECT_EQ(sphere_levels(1000), 2);
  EXPECT_EQ(sphere_levels(1280), 3);
}

// A level-set sphere of radius 1 m at 0.05 m voxels (40 across): its zero surface lies on the
// sphere within a tenth of a voxel and encloses its volume within 1 %; decimated to 1000
// triangles it keeps the volume within 1 % (OpenVDB's own adaptivity loses 3 % at 800).
TEST(ZeroSurface, LevelSetSphereComesOutClosedOnTheSphereFacingOut) {
  const auto phi = openvdb::tools::createLevelSetSphere<openvdb::FloatGrid>(1.0f, openvdb::Vec3f(0), 0.05f);
  const double ball = 4.0 / 3 * std::numbers::pi;
  const formats::TriangleSurface fine = zero_surface(*phi, 0);
  double worst = 0;
  for (const auto& p : fine.points) worst = std::max(worst, std::abs(Vector3d(p.data()).norm() - 1));
  EXPECT_LT(worst, 0.1 * 0.05);
  EXPECT_NEAR(enclosed_volume(fine), ball, 0.01 * ball);
  const formats::TriangleSurface coarse = decimate(fine, 1000);
  EXPECT_NEAR(double(coarse.triangles.size()), 1000, 20);
  EXPECT_NEAR(enclosed_volume(coarse), ball, 0.01 * ball);
  worst = 0;
  for (const auto& p : coarse.points) worst = std::max(worst, std::abs(Vector3d(p.data()).norm() - 1));
  std::printf("sphere of 40 voxels: %zu triangles, volume %+.4f; decimated to %zu, volume %+.4f, worst off the sphere %.4f m\n",
              fine.triangles.size(), enclosed_volume(fine) / ball - 1, coarse.triangles.size(),
              enclosed_volume(coarse) / ball - 1, worst);
  EXPECT_LT(worst, 0.01);  // 1 % of the radius
  EXPECT_EQ(decimate(coarse, 5000).triangles, coarse.triangles);  // already fewer: unchanged
}

// Two grains of one tetrahedron: the second scaled 2, turned 90° about z, moved to (10, 0, 0)
// and spinning at 1 rad/s about z while moving at (1, 0, 0) m/s.
TEST(GrainSurfaces, EachGrainIsItsTemplateScaledTurnedAndMovedWithItsMotion) {
  formats::TriangleSurface tetra;
  tetra.points = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 0}};
  tetra.triangles = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
  formats::Bodies bodies;
  bodies.resize(2);
  bodies.id = {7, 42};
  bodies.template_index = {0, 0};
  bodies.scale = {1, 2};
  bodies.position = {{{0, 0, 0}}, {{10, 0, 0}}};
  const double h = std::sqrt(0.5);
  bodies.orientation = {{{1, 0, 0, 0}}, {{h, 0, 0, h}}};
  bodies.velocity = {{{0, 0, 0}}, {{1, 0, 0}}};
  bodies.angular_velocity = {{{0, 0, 0}}, {{0, 0, 1}}};
  const formats::TriangleSurface s = grain_surfaces(bodies, {tetra});
  ASSERT_EQ(s.points.size(), 8u);
  ASSERT_EQ(s.triangles.size(), 8u);
  // Point 0 of grain 2: (1, 0, 0) × 2 turned to (0, 2, 0), at (10, 2, 0), moving at
  // (1, 0, 0) + ẑ × (0, 2, 0) = (−1, 0, 0).
  EXPECT_NEAR((at(s, 4) - Vector3d(10, 2, 0)).norm(), 0, 1e-12);
  ASSERT_EQ(s.point_data.size(), 3u);
  EXPECT_EQ(s.point_data[0].name, "velocity");
  EXPECT_NEAR(s.point_data[0].values[12], -1, 1e-12);
  EXPECT_NEAR(s.point_data[0].values[13], 0, 1e-12);
  EXPECT_NEAR(s.point_data[1].values[4], 1, 1e-12);  // speed
  EXPECT_EQ(s.point_data[2].values[14], 1);          // ω_z
  EXPECT_EQ(s.triangles[4][0], 4u);                  // its triangles name its own points
  ASSERT_EQ(s.cell_data.size(), 2u);
  EXPECT_EQ(s.cell_data[0].name, "id");
  EXPECT_EQ(s.cell_data[0].integers, (std::vector<std::int64_t>{7, 7, 7, 7, 42, 42, 42, 42}));
  EXPECT_EQ(s.cell_data[1].integers, std::vector<std::int64_t>(8, 0));
  EXPECT_NEAR(enclosed_volume(s), (1 + 8) * enclosed_volume(tetra), 1e-12);  // turning keeps the faces out
  bodies.template_index[1] = 1;
  EXPECT_THROW(grain_surfaces(bodies, {tetra}), std::invalid_argument);
}

}  // namespace
}  // namespace scree::post
