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
  // Its groups in ascending order, whatever order its units meet them in (ranks holding some of
  // them give it the same slots).
  EXPECT_EQ(c.grain_groups[3 * CoarseLayers::slots + 0], 0);
  EXPECT_EQ(c.grain_groups[3 * CoarseLayers::slots + 1], 3);
  EXPECT_EQ(c.slot_a.back(), 0);
  EXPECT_EQ(c.slot_a[3], 1);
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

// move_grains() books the added impulses' work grain by grain from the group sums: it must be
// what they work at their points, ½ (u_before + u_after) · c P, normal and tangential parts
// apart. Grain 1 on grain 0 on a floor at rest (static, its side of the work zero), three
// points a contact with impulses off the normal, both grains moving and turning.
TEST(CoarseStep, MovedGrainsBookTheWorkOfTheAddedImpulsesAtTheirPoints) {
  const std::vector<bool> is_static{false, false, true};
  const std::vector<CoarseUnit> units{{0, 2, true}, {1, 0, false}};
  const CoarseLayers c = coarse_layers(units, is_static);
  ASSERT_EQ(c.groups, 2);
  std::vector<RigidBody> bodies(3);
  std::vector<Mat3> inverse_inertia(3, Mat3::Zero());
  for (int k = 0; k < 2; ++k) {
    bodies[k].inverse_mass = 1 / (0.01 + 0.003 * k);
    bodies[k].position = Vec3(0.001 * k, -0.002 * k, 0.01 + 0.02 * k);
    bodies[k].velocity = Vec3(0.02 - 0.03 * k, 0.01, -0.05 + 0.01 * k);
    bodies[k].angular_velocity = Vec3(0.3, -0.2 + k, 0.1);
    inverse_inertia[k] << 2e3, 1e2, 0, 1e2, 3e3, -2e2, 0, -2e2, 2.5e3;
  }
  struct Point {
    std::size_t unit;
    Vec3 r_a, normal, impulse;  // r_a from A's centroid; impulse on A, world
  };
  std::vector<Point> points;
  for (std::size_t u = 0; u < 2; ++u)
    for (int q = 0; q < 3; ++q) {
      const Vec3 normal = Vec3(0.1 * q, -0.05, 1).normalized();
      const Vec3 tangent = normal.unitOrthogonal();
      points.push_back({u, Vec3(0.003 * q - 0.002, 0.002 * (q % 2), -0.01), normal,
                        (1e-4 * (1 + q)) * normal + (2e-5 * (q - 1)) * tangent + 1e-5 * normal.cross(tangent)});
    }
  std::vector<GroupImpulse> impulses(2 * CoarseLayers::slots);
  for (const Point& p : points) {
    const Vec3 normal_part = p.impulse.dot(p.normal) * p.normal;
    GroupImpulse& on_a = impulses[c.unit_a[p.unit] * CoarseLayers::slots + c.slot_a[p.unit]];
    on_a.linear += p.impulse;
    on_a.angular += p.r_a.cross(p.impulse);
    on_a.normal_linear += normal_part;
    on_a.normal_angular += p.r_a.cross(normal_part);
    if (c.unit_b[p.unit] == CoarseLayers::none) continue;
    const Vec3 r_b = p.r_a + bodies[units[p.unit].a].position - bodies[units[p.unit].b].position;
    GroupImpulse& on_b = impulses[c.unit_b[p.unit] * CoarseLayers::slots + c.slot_b[p.unit]];
    on_b.linear -= p.impulse;
    on_b.angular -= r_b.cross(p.impulse);
    on_b.normal_linear -= normal_part;
    on_b.normal_angular -= r_b.cross(normal_part);
  }
  const std::vector<double> scales{0.7, -0.4};
  auto relative_velocity = [&](const Point& p) -> Vec3 {
    const CoarseUnit& u = units[p.unit];
    const Vec3 r_b = p.r_a + bodies[u.a].position - bodies[u.b].position;
    return bodies[u.a].velocity_at(p.r_a) - bodies[u.b].velocity_at(r_b);
  };
  std::vector<Vec3> before;
  for (const Point& p : points) before.push_back(relative_velocity(p));
  std::vector<VelocityChange> changes(2);
  const ContactWork booked = move_grains(c, scales, impulses, bodies, inverse_inertia, changes);
  ContactWork expected;
  for (std::size_t k = 0; k < points.size(); ++k) {
    const Point& p = points[k];
    const Vec3 added = scales[std::size_t(c.unit_group[p.unit])] * p.impulse;
    const Vec3 added_normal = added.dot(p.normal) * p.normal;
    const Vec3 mean = 0.5 * (before[k] + relative_velocity(p));
    expected.normal += mean.dot(added_normal);
    expected.friction += mean.dot(added - added_normal);
  }
  ASSERT_GT(std::abs(expected.normal), 1e-7);
  ASSERT_GT(std::abs(expected.friction), 1e-9);
  EXPECT_NEAR(booked.normal, expected.normal, 1e-12 * std::abs(expected.normal));
  EXPECT_NEAR(booked.friction, expected.friction, 1e-10 * std::abs(expected.friction));
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
