// The resting solve's coarse step (solver/impulse/coarse_step.h): layers of the contact graph
// from the static contacts that bear the load, and the scales of their impulses.
#include <gtest/gtest.h>

#include "solver/impulse/coarse_step.h"

namespace scree::solver {
namespace {

// A column of `grains` on a floor (body `grains`, static, bearing): unit 0 the bottom grain on
// the floor, unit k grain k on grain k − 1.
std::vector<CoarseUnit> column(std::uint32_t grains) {
  std::vector<CoarseUnit> units{{0, grains, true}};
  for (std::uint32_t k = 1; k < grains; ++k) units.push_back({k, k - 1, false});
  return units;
}

TEST(CoarseStep, LayersCountFromTheStaticContactsThatBearTheLoad) {
  std::vector<bool> is_static(5, false);
  is_static[4] = true;
  const CoarseLayers c = coarse_layers(column(4), is_static);
  EXPECT_EQ(c.layers, 4);
  EXPECT_EQ(c.groups, 4);
  EXPECT_EQ(c.unit_group, (std::vector<std::int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(c.grains, (std::vector<std::uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(c.unit_b[0], CoarseLayers::none);
  // Grain 1 (layer 1) takes part in the group below it (1) and above it (2), in that order.
  EXPECT_EQ(c.grain_groups[1 * CoarseLayers::slots + 0], 1);
  EXPECT_EQ(c.grain_groups[1 * CoarseLayers::slots + 1], 2);
  EXPECT_EQ(c.grain_groups[1 * CoarseLayers::slots + 2], -1);
}

// A frictionless side wall against the top grain carries none of the weight: it starts no
// layer, and its contact joins the static contacts' group.
TEST(CoarseStep, AFrictionlessSideWallStartsNoLayer) {
  std::vector<bool> is_static(6, false);
  is_static[4] = is_static[5] = true;
  std::vector<CoarseUnit> units = column(4);
  units.push_back({3, 5, false});
  const CoarseLayers c = coarse_layers(units, is_static);
  EXPECT_EQ(c.layers, 4);
  EXPECT_EQ(c.unit_group.back(), 0);
  EXPECT_EQ(c.grain_groups[3 * CoarseLayers::slots + 0], 3);
  EXPECT_EQ(c.grain_groups[3 * CoarseLayers::slots + 1], 0);
}

TEST(CoarseStep, GrainsNoLoadPathReachesStayOut) {
  std::vector<bool> is_static(3, false);
  is_static[2] = true;
  const CoarseLayers c = coarse_layers({{0, 2, false}, {1, 0, false}}, is_static);
  EXPECT_EQ(c.layers, 0);
  EXPECT_EQ(c.groups, 0);
  EXPECT_EQ(c.unit_group, (std::vector<std::int32_t>{-1, -1}));
}

// A column of N balls after the step's gravity, each contact warm started with one ball's
// weight impulse w = m g Δt: every ball but the top still falls at g Δt. The column is
// statically determinate, one contact a layer, so the coarse step is its whole solve: contact k
// must carry the N − k balls above it, scale N − k − 1, and every ball then stands still.
TEST(CoarseStep, ScalesGiveAColumnItsWeightAtOnce) {
  constexpr std::uint32_t n = 6;
  const double m = 0.011, g_dt = 9.81e-3, w = m * g_dt;
  std::vector<bool> is_static(n + 1, false);
  is_static[n] = true;
  const CoarseLayers c = coarse_layers(column(n), is_static);
  std::vector<RigidBody> bodies(n + 1);
  std::vector<Mat3> inverse_inertia(n + 1, 1e3 * Mat3::Identity());
  std::vector<GroupImpulse> impulses(n * CoarseLayers::slots);
  for (std::uint32_t k = 0; k < n; ++k) {
    bodies[k].inverse_mass = 1 / m;
    bodies[k].velocity = Vec3(0, 0, k + 1 < n ? -g_dt : 0);
    impulses[k * CoarseLayers::slots + 0].linear = Vec3(0, 0, w);                // the contact below, on A
    if (k + 1 < n) impulses[k * CoarseLayers::slots + 1].linear = Vec3(0, 0, -w);  // the one above, on B
  }
  const std::vector<double> scales = coarse_scales(c, impulses, bodies, inverse_inertia, std::vector<double>(n, 0.0));
  ASSERT_EQ(scales.size(), n);
  for (std::uint32_t k = 0; k < n; ++k) EXPECT_NEAR(scales[k], double(n - k - 1), 1e-6) << k;
  // To the hair (1e-9) added to each diagonal: 1e-8 of a step's fall after the step.
  std::vector<VelocityChange> changes(n);
  move_grains(c, scales, impulses, bodies, inverse_inertia, changes);
  for (std::uint32_t k = 0; k < n; ++k) {
    EXPECT_NEAR(bodies[k].velocity.z(), 0, 1e-7 * g_dt) << k;
    EXPECT_NEAR(changes[k].velocity.z(), k + 1 < n ? g_dt : 0, 1e-7 * g_dt) << k;
    EXPECT_EQ(impulses[k * CoarseLayers::slots].linear, Vec3::Zero());  // cleared for the next step
  }
}

// A ball leaving the floor upwards at ten steps of gravity: the least kinetic energy would
// pull it back, a negative load; the scale stops where its impulse reaches zero.
TEST(CoarseStep, ScalesStopWhereAnImpulseReachesZero) {
  const double m = 0.011, g_dt = 9.81e-3;
  const std::vector<bool> is_static{false, true};
  const CoarseLayers c = coarse_layers({{0, 1, true}}, is_static);
  std::vector<RigidBody> bodies(2);
  bodies[0].inverse_mass = 1 / m;
  bodies[0].velocity = Vec3(0, 0, 10 * g_dt);
  std::vector<GroupImpulse> impulses(CoarseLayers::slots);
  impulses[0].linear = Vec3(0, 0, m * g_dt);
  const std::vector<double> scales =
      coarse_scales(c, impulses, bodies, std::vector<Mat3>(2, Mat3::Identity()), std::vector<double>{0.0});
  ASSERT_EQ(scales.size(), 1u);
  EXPECT_NEAR(scales[0], -1, 1e-15);
}

}  // namespace
}  // namespace scree::solver
