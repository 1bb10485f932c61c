// Resting contact, the impulse scheme's hold on slow contacts, on its own: one support point
// of a ball on a floor, with closed forms for what one solve leaves: a ball arriving at the
// floor in this step stops there (its kinetic energy booked as resting work), a warm start
// that pushes too hard is taken back, friction is capped at μ times the normal impulse, sticks
// in both tangents at once and slides against the slip it leaves, and a point already inside
// is pushed out by a correction that adds no kinetic energy.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "solver/contacts/contact_finding.h"
#include "solver/impulse/resting_contact.h"
#include "solver/impulse/tiles.h"
#include "solver/step.h"

namespace scree::solver {
namespace {

constexpr double dt = 1e-3, radius = 0.05, density = 7850;

// A ball on a plane floor (friction μ), posed where its velocity takes it in one step.
struct BallOnFloor {
  World world;
  std::vector<RigidBody> posed, corrections;
  RestingContacts resting;
  double mass = 0;

  BallOnFloor(double height, const Vec3& velocity, double mu) {
    world.shapes.push_back(GrainShape::sphere(radius));
    world.add_grain(1, 0, 0, density, 1, Vec3(0, 0, height), Quat::Identity());
    world.laws = {{mu, 0}};
    world.add_wall(Wall{});
    world.bodies[0].velocity = velocity;
    mass = 1 / world.bodies[0].inverse_mass;
    corrections = no_corrections(world);
    posed = world.bodies;
    move_bodies(posed, corrections, dt);
    const FoundContacts found = find_contacts(world, posed, dt, 1e-6);
    const RestingBodies bodies(posed, corrections);
    for (const SupportFace& face : found.faces) resting.add(face, found.points_of(face), mu, bodies, dt);
  }
  // One resting solve, to no change at all, with `impulses` as the last step's: the point's
  // impulse (the store keeps it in single precision).
  Vec3 solve(RestingImpulses impulses = {}) {
    StepReport report;
    report.wall_impulse.assign(1, Vec3::Zero());
    const std::vector<bool> is_static{false, true};
    RestingBodies bodies(posed, corrections);
    rest(world, is_static, impulses, resting, bodies, RestingSettings{1, 0, 0, 1000}, report);
    EXPECT_NE(impulses.find_of_this_step(resting.key(resting.points.at(0))), nullptr);
    return resting.impulse(resting.points.at(0));
  }
};

TEST(RestingContact, BallReachingTheFloorInThisStepStopsOnIt) {
  BallOnFloor b(radius + 0.3 * dt, Vec3(0, 0, -1), 0);  // would end 0.7 mm inside
  ASSERT_EQ(b.resting.points.size(), 1u);
  EXPECT_NEAR(b.resting.points[0].touch, -0.3, 1e-12);  // −0.3 m/s closes the 0.3 mm gap
  const Vec3 impulse = b.solve();
  EXPECT_NEAR(b.posed[0].velocity.z(), -0.3, 1e-12);
  EXPECT_NEAR(impulse.z(), 0.7 * b.mass, 1e-12 * b.mass);
  // The normal impulse's work: ½ m (1² − 0.3²), booked as resting.
  EXPECT_NEAR(b.world.energy.resting, 0.5 * b.mass * (1 - 0.09), 1e-9 * b.mass);
  EXPECT_EQ(b.corrections[0].velocity, Vec3::Zero());
}

TEST(RestingContact, WarmStartThatPushesTooHardIsTakenBack) {
  // At rest on the floor after a step of gravity: the floor's impulse is m g Δt. Warm started
  // from twice that, the passes take the excess back; the answer is the cold start's.
  const Vec3 kicked(0, 0, -9.81 * dt);
  BallOnFloor cold(radius, kicked, 0.5), warm(radius, kicked, 0.5);
  const Vec3 from_cold = cold.solve();
  const Vec3 from_warm = warm.solve(RestingImpulses({{warm.resting.key(warm.resting.points.at(0)), Vec3(0, 0, 2 * 9.81 * dt * warm.mass).cast<float>()}}));
  EXPECT_NEAR(from_cold.z(), 9.81 * dt * cold.mass, 1e-12 * cold.mass);
  EXPECT_NEAR(from_warm.z(), from_cold.z(), 1e-12 * cold.mass);
  EXPECT_NEAR(warm.posed[0].velocity.z(), 0, 1e-12);
}

TEST(RestingContact, FrictionIsCappedAtMuTimesTheNormalImpulse) {
  // Sliding at 2 m/s on the floor with a step of gravity: the floor stops the fall (m g Δt)
  // and friction takes μ m g Δt of the slide, no more.
  const double mu = 0.3;
  BallOnFloor b(radius, Vec3(2, 0, -9.81 * dt), mu);
  const Vec3 impulse = b.solve();
  EXPECT_NEAR(impulse.z(), 9.81 * dt * b.mass, 1e-12 * b.mass);
  EXPECT_NEAR(impulse.x(), -mu * impulse.z(), 1e-12 * b.mass);
  EXPECT_NEAR(b.posed[0].velocity.x(), 2 - mu * 9.81 * dt, 1e-12);
  EXPECT_GT(b.world.energy.friction, 0);
}

TEST(RestingContact, PointInsideIsPushedOutByACorrectionAlone) {
  // At rest 0.2 mm inside the floor: the velocity stays zero, and a correction velocity of
  // 0.2 mm / Δt lifts the ball out within the step (acting in this step only).
  BallOnFloor b(radius - 2e-4, Vec3::Zero(), 0);
  b.solve();
  EXPECT_NEAR(b.posed[0].velocity.norm(), 0, 1e-15);
  EXPECT_NEAR(b.corrections[0].velocity.z(), 2e-4 / dt, 1e-9);
  EXPECT_EQ(b.world.energy.resting, 0);
}

// Friction at a point held off the centroid's vertical, where an impulse along one tangent
// also moves the point along the other (K's tangential block is not a multiple of the unit):
// the ball of BallOnFloor, after a step of gravity and sliding at `slide`, held at a point
// 3 cm and 2 cm off to the side (the step's solve of one point, not a contact a ball would
// have) where it ends the step touching. One pass.
struct OffCentrePoint {
  BallOnFloor ball;
  Vec3 slip_after;  // the relative tangential velocity the pass leaves
  Vec3 friction;    // its friction impulse
  double normal;    // its normal impulse

  OffCentrePoint(double mu, const Vec3& slide) : ball(radius, slide - 9.81 * dt * Vec3::UnitZ(), mu) {
    const SupportPoint at{Eigen::Vector3f(0.03f, 0.02f, float(-radius)), -1, 9.81 * dt * dt};  // ends touching
    RestingBodies bodies(ball.posed, ball.corrections);
    ball.resting = {};
    ball.resting.add(SupportFace{0, 1, 0, 0, Vec3::UnitZ(), 0, 1}, {&at, 1}, mu, bodies, dt);
    RestingImpulses impulses;
    StepReport report;
    report.wall_impulse.assign(1, Vec3::Zero());
    rest(ball.world, {false, true}, impulses, ball.resting, bodies, RestingSettings{1, 0, 0, 1}, report);
    const RestingPoint& p = ball.resting.points[0];
    const Vec3 u = ball.posed[0].velocity_at(p.r_a());
    slip_after = u - u.z() * Vec3::UnitZ();
    friction = ball.resting.friction_impulse(p);
    normal = p.normal_impulse();
  }
};

TEST(RestingContact, StickingFrictionStopsTheSlipInBothTangentsInOnePass) {
  // μ large: the pass stops the slip outright. A step along the slip alone leaves a part
  // across it (here a third of the slip), which Gauss–Seidel cycles on where points share a
  // body.
  const OffCentrePoint p(5, Vec3(0.002, -0.001, 0));
  ASSERT_GT(p.normal, 0);
  EXPECT_LT(p.friction.norm(), 5 * p.normal);
  EXPECT_LT(p.slip_after.norm(), 1e-12 * 0.002);
}

TEST(RestingContact, SlidingFrictionOpposesTheSlipItLeavesAtMuTimesTheNormalImpulse) {
  // μ small: Coulomb's sliding friction, μ times the normal impulse against the slip that
  // remains (the impulse that leaves the least kinetic energy in the tangent plane).
  const double mu = 0.1;
  const OffCentrePoint p(mu, Vec3(0.2, -0.1, 0));
  ASSERT_GT(p.normal, 0);
  ASSERT_GT(p.slip_after.norm(), 0.01);
  EXPECT_NEAR(p.friction.norm(), mu * p.normal, 1e-12 * mu * p.normal);
  EXPECT_LT((p.friction.normalized() + p.slip_after.normalized()).norm(), 1e-9);
}

// A sweep in which nothing collides builds its points where the resting solve takes them
// (build_resting_contacts(), in solve order: islands and schedules made of the faces); one
// whose collisions may strike faces off builds them face after face, and rest() moves them
// there. Both must solve the same: a block of 12 × 12 × 4 balls (r = 1 cm, just touching, a
// step of gravity on them: ~1900 points, one island cut into tiles) and a ball alone beside
// it (a second island), solved both ways, end with the same bits in every velocity,
// correction, impulse and point.
TEST(RestingContact, PointsBuiltWhereTheyAreSolvedSolveAsPointsMovedThere) {
  struct Solved {
    std::vector<RigidBody> posed, corrections;
    RestingContacts resting;
    RestingImpulses impulses;
    bool built_in_order = false;
  };
  auto solve = [](bool in_solve_order) {
    World w;
    const double r = 0.01, apart = 2 * r - 1e-6;
    w.shapes.push_back(GrainShape::sphere(r));
    w.laws = {{0.5, 0.5}};
    std::uint64_t id = 0;
    for (int k = 0; k < 4; ++k)
      for (int j = 0; j < 12; ++j)
        for (int i = 0; i < 12; ++i)
          w.add_grain(++id, 0, 0, 2650, 1, Vec3(i * apart, j * apart, r - 1e-6 + k * apart), Quat::Identity());
    w.add_grain(++id, 0, 0, 2650, 1, Vec3(-0.1, 0, r - 1e-6), Quat::Identity());
    w.add_wall(Wall{});
    StepSettings s;
    for (RigidBody& b : w.bodies)
      if (!b.is_static()) b.velocity = s.gravity * s.time_step;
    Solved out;
    out.corrections = no_corrections(w);
    out.posed = w.bodies;
    move_bodies(out.posed, out.corrections, s.time_step);
    const FoundContacts found = find_contacts(w, out.posed, s.time_step, 1e-6);
    std::vector<bool> is_static(w.bodies.size(), false);
    is_static.back() = true;
    RestingBodies bodies(out.posed, out.corrections);
    RestingSettings settings{1, 1e-6, 0, 1000};
    settings.largest_reach = largest_reach(r, 1e-6);
    build_resting_contacts(w, found.faces, found.points, std::vector<bool>(found.faces.size(), false), bodies, is_static,
                           s.time_step, settings.largest_reach, in_solve_order, out.resting);
    out.built_in_order = out.resting.order != nullptr;
    StepReport report;
    report.wall_impulse.assign(1, Vec3::Zero());
    rest(w, is_static, out.impulses, out.resting, bodies, settings, report);
    return out;
  };
  const Solved built = solve(true), moved = solve(false);
  EXPECT_TRUE(built.built_in_order);
  EXPECT_FALSE(moved.built_in_order);
  ASSERT_GT(built.resting.points.size(), 1024u);  // cut into tiles
  ASSERT_EQ(built.resting.points.size(), moved.resting.points.size());
  for (std::size_t k = 0; k < built.posed.size(); ++k) {
    EXPECT_EQ(built.posed[k].velocity, moved.posed[k].velocity) << k;
    EXPECT_EQ(built.posed[k].angular_velocity, moved.posed[k].angular_velocity) << k;
    EXPECT_EQ(built.corrections[k].velocity, moved.corrections[k].velocity) << k;
  }
  EXPECT_NE(built.posed[0].velocity, (Vec3(0, 0, -9.81e-3)));  // the solve did something
  EXPECT_EQ(built.impulses, moved.impulses);
  for (std::size_t k = 0; k < built.resting.points.size(); ++k) {
    const RestingPoint &b = built.resting.points[k], &m = moved.resting.points[k];
    EXPECT_EQ(b.held, m.held) << k;
    EXPECT_EQ(b.push_impulse, m.push_impulse) << k;
    EXPECT_EQ(b.face, m.face) << k;
  }
}

// Seed 002's column: balls (r = 1 cm) stacked touching on the floor, the case's defaults
// (Δt = 1 ms), settled for 0.2 s. Warm started from the last step, the floor should carry the
// column's weight every step (the 0.1 %): the largest relative error over `steps`.
World column_of_balls(int balls) {
  World w;
  const double r = 0.01;
  w.shapes.push_back(GrainShape::sphere(r));
  w.laws = {{0.5, 0.5}};
  for (int k = 0; k < balls; ++k) w.add_grain(std::uint64_t(k + 1), 0, 0, 2650, 1, Vec3(0, 0, r + 2 * r * k), Quat::Identity());
  w.add_wall(Wall{});
  return w;
}

double worst_floor_load_error(int balls, int steps) {
  World w = column_of_balls(balls);
  StepSettings s;
  const double weight_impulse = balls * s.gravity.norm() * s.time_step / w.bodies[0].inverse_mass;
  while (w.time < 0.2) advance(w, s);
  double worst = 0;
  for (int step = 0; step < steps; ++step) {
    const StepReport report = advance(w, s);
    worst = std::max(worst, std::abs(-report.wall_impulse[0].z() / weight_impulse - 1));
  }
  std::printf("column of %d balls: floor load off its weight by at most %.2g\n", balls, worst);
  return worst;
}

TEST(RestingContact, ColumnOfFiftyBallsCarriesItsWeightEveryStep) { EXPECT_LT(worst_floor_load_error(50, 200), 1e-3); }

// Plain Gauss–Seidel carries load down a column a contact or so a pass; 300 passes a step
// leave a column of 100 bouncing (floor load off by 140 %, bench/resting_study.cpp). The
// conjugate passes settle it.
TEST(RestingContact, ColumnOfAHundredBallsSettlesWithTheDefaultPasses) { EXPECT_LT(worst_floor_load_error(100, 100), 1e-3); }

// The coarse step (coarse_step.h) scales each layer's impulses at once: a column, one contact a
// layer, is solved by it whatever its height. Cold started every step (β = 0), the hardest
// start, a column of 20 and one of 100 both settle in a few passes a step, and the floor
// carries the weight to round-off; without it the passes run to the budget (60 and 220, at
// the same load; docs/validation.md, "Warm starting").
TEST(RestingContact, TheCoarseStepSettlesAColumnInAFewPassesWhateverItsHeight) {
  for (int balls : {20, 100}) {
    World w = column_of_balls(balls);
    StepSettings s;
    s.impulse.warm_start = 0;
    const double weight_impulse = balls * s.gravity.norm() * s.time_step / w.bodies[0].inverse_mass;
    while (w.time < 0.2) advance(w, s);
    double passes = 0, worst = 0;
    constexpr int steps = 50;
    for (int step = 0; step < steps; ++step) {
      const StepReport report = advance(w, s);
      passes += report.passes / double(steps);
      worst = std::max(worst, std::abs(-report.wall_impulse[0].z() / weight_impulse - 1));
    }
    EXPECT_LE(passes, 8) << balls;
    EXPECT_LT(worst, 1e-9) << balls;
  }
}

// An island whose budget runs out takes a coarse step after its last pass too: a column of
// 100 balls held to 3 passes a step (the tolerance out of reach), so that this is its only
// coarse step, carries its weight to round-off (1e-16); without it the column bounces (the
// floor's load off by 105 %).
TEST(RestingContact, AnIslandWhoseBudgetRunsOutEndsWithACoarseStep) {
  auto worst_load_error = [](int coarse_every) {
    World w = column_of_balls(100);
    StepSettings s;
    s.impulse.resting_tolerance = 1e-300;
    s.impulse.resting_passes = 3;
    s.impulse.resting_coarse_every = coarse_every;
    const double weight_impulse = 100 * s.gravity.norm() * s.time_step / w.bodies[0].inverse_mass;
    while (w.time < 0.2) advance(w, s);
    double worst = 0;
    for (int step = 0; step < 50; ++step)
      worst = std::max(worst, std::abs(-advance(w, s).wall_impulse[0].z() / weight_impulse - 1));
    return worst;
  };
  EXPECT_LT(worst_load_error(5), 1e-9);
  EXPECT_GT(worst_load_error(0), 1e-3);
}

// The coarse step is for a heap at rest: an island with a grain faster than the resting speed
// (3 |g| Δt) takes none. A column of 20 balls sliding along the floor at 1 m/s, cold started
// every step so that its passes run past the fifth, ends 20 steps with the same bits with and
// without coarse steps; standing still, it does not.
TEST(RestingContact, AFlowingIslandTakesNoCoarseStep) {
  auto after_20_steps = [](double speed, int coarse_every) {
    World w = column_of_balls(20);
    for (std::size_t k = 0; k < 20; ++k) w.bodies[k].velocity = Vec3(speed, 0, 0);
    StepSettings s;
    s.impulse.warm_start = 0;
    s.impulse.resting_coarse_every = coarse_every;
    for (int step = 0; step < 20; ++step) advance(w, s);
    std::vector<Vec3> state;
    for (std::size_t k = 0; k < 20; ++k) state.insert(state.end(), {w.bodies[k].position, w.bodies[k].velocity});
    return state;
  };
  EXPECT_EQ(after_20_steps(1, 5), after_20_steps(1, 0));
  EXPECT_NE(after_20_steps(0, 5), after_20_steps(0, 0));
}

// Passes that never reach the tolerance stop at the island's budget: passes per layer times
// (its depth in contacts + 10), at most `resting_passes`.
TEST(RestingContact, PassesStopAtTheBudgetOfTheIslandsDepth) {
  auto passes = [](int balls, int per_layer, int most) {
    World w = column_of_balls(balls);
    StepSettings s;
    s.impulse.resting_tolerance = 1e-300;
    s.impulse.resting_passes_per_layer = per_layer;
    s.impulse.resting_passes = most;
    return advance(w, s).passes;
  };
  EXPECT_EQ(passes(5, 2, 300), 30);
  EXPECT_EQ(passes(12, 2, 300), 44);
  EXPECT_EQ(passes(12, 3, 300), 66);
  EXPECT_EQ(passes(12, 3, 50), 50);
}

}  // namespace
}  // namespace scree::solver
