#include "solver/rigid_body.h"

#include <gtest/gtest.h>

#include <numbers>
#include <random>

namespace scree::solver {
namespace {

// A tumbling, non-spherical body with a random state.
RigidBody random_body(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  RigidBody b = RigidBody::from_template(2650, 1e-3, Vec3(2e-8, 3e-8, 4e-8), 1.0 + 0.5 * u(rng));
  b.position = Vec3(u(rng), u(rng), u(rng));
  b.orientation = Quat(u(rng), u(rng), u(rng), u(rng)).normalized();
  b.velocity = Vec3(u(rng), u(rng), u(rng));
  b.angular_velocity = 10 * Vec3(u(rng), u(rng), u(rng));
  return b;
}

TEST(RigidBody, TemplateScalesMassByCubeAndInertiaByFifthPower) {
  RigidBody unit = RigidBody::from_template(2650, 0.002, Vec3(1e-6, 2e-6, 3e-6), 1.0);
  RigidBody twice = RigidBody::from_template(2650, 0.002, Vec3(1e-6, 2e-6, 3e-6), 2.0);
  EXPECT_DOUBLE_EQ(1 / unit.inverse_mass, 2650 * 0.002);
  EXPECT_DOUBLE_EQ(unit.inverse_mass / twice.inverse_mass, 8.0);
  EXPECT_DOUBLE_EQ(unit.inverse_inertia_body.z() / twice.inverse_inertia_body.z(), 32.0);
  EXPECT_DOUBLE_EQ(1 / unit.inverse_inertia_body.y(), 2650 * 2e-6);
}

TEST(RigidBody, SphereKineticEnergyIsClosedForm) {
  // Solid sphere, R = 0.1 m, ρ = 2650: m = ρ 4/3 π R³, I = 2/5 m R².
  const double r = 0.1, volume = 4.0 / 3.0 * std::numbers::pi * r * r * r;
  RigidBody b = RigidBody::from_template(2650, volume, Vec3::Constant(0.4 * volume * r * r), 1.0);
  b.velocity = Vec3(3, 0, -4);
  b.angular_velocity = Vec3(0, 20, 0);
  const double m = 2650 * volume, inertia = 0.4 * m * r * r;
  EXPECT_NEAR(b.kinetic_energy(), 0.5 * m * 25 + 0.5 * inertia * 400, 1e-12);
}

// DESIGN §4: an impulse P on A (−P on B) changes u by K P, exactly (K is constant).
TEST(ContactPoint, CollisionMatrixPredictsVelocityChange) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 100; ++trial) {
    RigidBody a = random_body(rng), b = random_body(rng);
    ContactPoint c{&a, &b, Vec3(0.03, -0.01, 0.02), Vec3(-0.02, 0.04, 0.01)};
    const Mat3 k = c.collision_matrix();
    const Vec3 p(0.3, -0.2, 0.5);
    const Vec3 u0 = c.relative_velocity();
    c.apply_impulse(p);
    const Vec3 du = c.relative_velocity() - u0;
    EXPECT_LT((du - k * p).norm(), 1e-9 * (k * p).norm()) << "trial " << trial;
    // K is symmetric positive definite.
    EXPECT_LT((k - k.transpose()).norm(), 1e-12 * k.norm());
    EXPECT_GT(Eigen::SelfAdjointEigenSolver<Mat3>(k).eigenvalues().minCoeff(), 0);
  }
}

// DESIGN §4: the work of an impulse is ΔW = ½ (u_before + u_after) · P.
TEST(ContactPoint, ImpulseWorkEqualsKineticEnergyChange) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 100; ++trial) {
    RigidBody a = random_body(rng), b = random_body(rng);
    ContactPoint c{&a, &b, Vec3(0.01, 0.02, -0.03), Vec3(0.02, -0.01, 0.03)};
    const Vec3 p = Vec3(0.1, 0.4, -0.3) * (1 + trial % 7);
    const double e0 = a.kinetic_energy() + b.kinetic_energy();
    const Vec3 u0 = c.relative_velocity();
    c.apply_impulse(p);
    const double work = 0.5 * (u0 + c.relative_velocity()).dot(p);
    const double e1 = a.kinetic_energy() + b.kinetic_energy();
    EXPECT_NEAR(e1 - e0, work, 1e-9 * std::max(1.0, std::abs(work))) << "trial " << trial;
  }
}

TEST(ContactPoint, StaticBodyTakesNoImpulse) {
  std::mt19937_64 rng(2);
  RigidBody a = random_body(rng), wall = RigidBody::fixed();
  ContactPoint c{&a, &wall, Vec3(0, 0, -0.05), Vec3(1, 2, 3)};
  // With a static B, K is A's part alone.
  RigidBody a2 = a;
  RigidBody other = RigidBody::fixed();
  ContactPoint alone{&a2, &other, c.r_a, Vec3::Zero()};
  EXPECT_LT((c.collision_matrix() - alone.collision_matrix()).norm(), 1e-12);
  c.apply_impulse(Vec3(0, 0, 1));
  EXPECT_EQ(wall.velocity, Vec3::Zero());
  EXPECT_EQ(wall.angular_velocity, Vec3::Zero());
  EXPECT_EQ(wall.kinetic_energy(), 0);
}

// Head-on, frictionless, central impact of equal spheres: the normal impulse that reverses
// the relative velocity (e = 1) swaps their velocities and conserves energy exactly.
TEST(ContactPoint, ElasticCentralImpactSwapsVelocities) {
  const double r = 0.05, volume = 4.0 / 3.0 * std::numbers::pi * r * r * r;
  RigidBody a = RigidBody::from_template(2650, volume, Vec3::Constant(0.4 * volume * r * r), 1);
  RigidBody b = a;
  a.velocity = Vec3(2, 0, 0);
  b.velocity = Vec3(-1, 0, 0);
  const Vec3 n(-1, 0, 0);  // from B (at +x) towards A
  ContactPoint c{&a, &b, -r * n, r * n};
  const double un = c.relative_velocity().dot(n);
  ASSERT_LT(un, 0);  // approaching
  const double pn = -2 * un / n.dot(c.collision_matrix() * n);
  const double e0 = a.kinetic_energy() + b.kinetic_energy();
  c.apply_impulse(pn * n);
  EXPECT_NEAR(a.velocity.x(), -1, 1e-14);
  EXPECT_NEAR(b.velocity.x(), 2, 1e-14);
  EXPECT_NEAR(a.kinetic_energy() + b.kinetic_energy(), e0, 1e-14 * e0);
  EXPECT_EQ(a.angular_velocity, Vec3::Zero());
}

TEST(Rotate, ExponentialMapTurnsByOmegaTimesT) {
  const Vec3 w(0.3, -1.2, 2.0);  // rad/s
  const double dt = 1e-3;
  Quat q = Quat::Identity();
  for (int i = 0; i < 1000; ++i) q = rotate(q, w, dt);
  Eigen::AngleAxisd turned(q);
  EXPECT_NEAR(turned.angle(), w.norm() * 1.0, 1e-11);
  EXPECT_LT((turned.axis() - w.normalized()).norm(), 1e-11);
  EXPECT_NEAR(q.norm(), 1.0, 1e-15);
}

TEST(RigidBody, WorldInverseInertiaFollowsOrientation) {
  RigidBody b = RigidBody::from_template(1000, 1e-3, Vec3(1e-7, 2e-7, 3e-7), 1);
  b.orientation = Quat(Eigen::AngleAxisd(std::numbers::pi / 2, Vec3::UnitZ()));
  const Mat3 inv = b.inverse_inertia_world();
  // A quarter turn about z swaps the x and y principal axes.
  EXPECT_NEAR(inv(0, 0), b.inverse_inertia_body.y(), 1e-9 * inv(0, 0));
  EXPECT_NEAR(inv(1, 1), b.inverse_inertia_body.x(), 1e-9 * inv(1, 1));
  EXPECT_NEAR(inv(2, 2), b.inverse_inertia_body.z(), 1e-9 * inv(2, 2));
}

}  // namespace
}  // namespace scree::solver
