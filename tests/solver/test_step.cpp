// The step's phases on their own (solver/step.h) and the scheme table: gravity and damping
// against their closed forms, symplectic Euler's position update and the energy it adds, the
// impulse scheme found by its type, and grains added after the walls and the terrain.
#include <gtest/gtest.h>

#include <cmath>

#include "solver/schemes.h"
#include "solver/step.h"

namespace scree::solver {
namespace {

World one_ball(const Vec3& velocity) {
  World w;
  w.shapes.push_back(GrainShape::sphere(0.1));
  w.add_grain(1, 0, 0, 1000, 1, Vec3(0, 0, 1), Quat::Identity());
  w.bodies[0].velocity = velocity;
  w.bodies[0].angular_velocity = Vec3(0, 4, 0);
  return w;
}

TEST(Step, ExternalForcesKickThenDamp) {
  World w = one_ball(Vec3(1, 0, 0));
  StepSettings s;
  s.time_step = 0.01;
  s.global_damping = 2;  // keeps 1 − 2 × 0.01 = 0.98 of the velocity
  const double m = 1 / w.bodies[0].inverse_mass;
  const KineticEnergies kinetic = apply_external_forces(w, s);
  const Vec3 kicked(1, 0, -9.81 * 0.01);
  EXPECT_NEAR((w.bodies[0].velocity - 0.98 * kicked).norm(), 0, 1e-15);
  EXPECT_NEAR((w.bodies[0].angular_velocity - Vec3(0, 0.98 * 4, 0)).norm(), 0, 1e-15);
  EXPECT_NEAR(kinetic.after_gravity - kinetic.before, 0.5 * m * (kicked.squaredNorm() - 1), 1e-12 * m);
  EXPECT_NEAR(w.energy.damping, kinetic.after_gravity - kinetic_energy(w), 1e-15 * m);
  EXPECT_NEAR(w.energy.damping, kinetic.after_gravity * (1 - 0.98 * 0.98), 1e-12 * m);
}

TEST(Step, IntegrationMovesWithVelocityPlusCorrection) {
  World w = one_ball(Vec3(1, 0, 0));
  std::vector<RigidBody> corrections = no_corrections(w);
  corrections[0].velocity = Vec3(0, 0, 0.5);
  corrections[0].angular_velocity = Vec3(0, -4, 0);  // cancels the spin for this step
  move_bodies(w.bodies, corrections, 0.01);
  EXPECT_NEAR((w.bodies[0].position - Vec3(0.01, 0, 1.005)).norm(), 0, 1e-15);
  EXPECT_EQ(w.bodies[0].orientation.coeffs(), Quat::Identity().coeffs());
  EXPECT_EQ(corrections[0].position, Vec3(0, 0, 1));  // corrections carry velocities, not places
}

// A free step of symplectic Euler changes K + V by −½ m |g|² Δt² (the position moves with
// the velocity already kicked): the books' integration entry holds exactly that, so they close.
TEST(Step, FreeFlightBooksWhatSymplecticEulerAdds) {
  World w = one_ball(Vec3::Zero());
  StepSettings s;
  s.time_step = 0.01;
  const double m = 1 / w.bodies[0].inverse_mass, e0 = kinetic_energy(w) + potential_energy(w, s.gravity);
  const StepReport report = advance(w, s);
  EXPECT_EQ(report.contacts, 0u);
  EXPECT_NEAR(w.bodies[0].position.z(), 1 - 9.81 * 0.01 * 0.01, 1e-15);
  EXPECT_NEAR(w.energy.integration, -0.5 * m * 9.81 * 9.81 * 1e-4, 1e-12 * m);
  EXPECT_NEAR(kinetic_energy(w) + potential_energy(w, s.gravity) + w.energy.total(), e0, 1e-12 * m);
  EXPECT_EQ(w.step, 1);
  EXPECT_DOUBLE_EQ(w.time, 0.01);
}

TEST(Step, TheImpulseSchemeIsTheTypesRow) {
  const ContactScheme& scheme = contact_scheme(formats::SchemeType::impulse);
  EXPECT_STREQ(scheme.name, "impulse");
  EXPECT_EQ(scheme.type, formats::SchemeType::impulse);
  EXPECT_NE(scheme.solve, nullptr);
}

// A grain added after the walls goes before them, and what the resting cache says of a wall
// moves with the wall's body: the world steps as if the grains had come first.
TEST(Step, GrainsAddedAfterTheWallsStepAsIfTheyCameFirst) {
  auto stack = [](bool walls_first) {
    World w;
    w.shapes.push_back(GrainShape::sphere(0.05));
    w.laws = {{0.3, 0.5}};
    Wall floor;
    if (walls_first) w.add_wall(floor);
    w.add_grain(1, 0, 0, 2650, 1, Vec3(0, 0, 0.05), Quat::Identity());
    w.add_grain(2, 0, 0, 2650, 1, Vec3(0.001, 0, 0.15), Quat::Identity());
    if (!walls_first) w.add_wall(floor);
    return w;
  };
  World first = stack(false), late = stack(true);
  ASSERT_EQ(late.terrain_body(), 3u);
  StepSettings s;
  for (int k = 0; k < 50; ++k) advance(first, s), advance(late, s);
  // Adding a third grain now moves the floor's body, and its cached impulses with it.
  ASSERT_FALSE(late.resting_impulses.empty());
  std::size_t on_floor = 0;
  for (const auto& [key, impulse] : late.resting_impulses) on_floor += key.b == 2;
  late.add_grain(3, 0, 0, 2650, 1, Vec3(1, 0, 0.05), Quat::Identity());
  first.add_grain(3, 0, 0, 2650, 1, Vec3(1, 0, 0.05), Quat::Identity());
  std::size_t moved = 0;
  for (const auto& [key, impulse] : late.resting_impulses) moved += key.b == 3;
  EXPECT_EQ(moved, on_floor);
  for (int k = 0; k < 50; ++k) advance(first, s), advance(late, s);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(first.bodies[i].position, late.bodies[i].position) << i;
    EXPECT_EQ(first.bodies[i].velocity, late.bodies[i].velocity) << i;
  }
  EXPECT_EQ(first.resting_impulses, late.resting_impulses);
}

}  // namespace
}  // namespace scree::solver
