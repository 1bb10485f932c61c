// Releasing stored energy (seed 000 Algorithm 1 line 30, corrected): the impulse does work
// W exactly, along the normal and along a sliding direction.
#include <gtest/gtest.h>

#include "solver/impulse/energy_release.h"

namespace scree::solver {
namespace {

struct TwoBodies {
  RigidBody a = RigidBody::from_template(2650, 1e-3, Vec3(2e-8, 3e-8, 4e-8), 1);
  RigidBody b = RigidBody::from_template(2650, 3e-3, Vec3(9e-8, 7e-8, 8e-8), 1);
  TwoBodies() {
    a.velocity = Vec3(0.1, -0.2, 0.3);
    a.angular_velocity = Vec3(1, 2, -1);
    b.velocity = Vec3(-0.1, 0.05, 0.02);
    b.angular_velocity = Vec3(-0.5, 0.3, 2);
  }
};

// The work of the impulse's normal part, ½ (u_n⁻ + u_n⁺) P_n, which the stored energy pays
// for (the tangential part is friction's, booked separately).
double normal_work(const ContactPoint& c, const Vec3& n, const Vec3& impulse) {
  const double before = n.dot(c.relative_velocity());
  c.apply_impulse(impulse);
  return 0.5 * (before + n.dot(c.relative_velocity())) * n.dot(impulse);
}

TEST(EnergyRelease, ReleasesExactlyTheStoredEnergy) {
  for (double stored : {1e-9, 1e-6, 1e-3}) {
    for (const Vec3& direction_offset : {Vec3(0, 0, 0), Vec3(0.3, -0.2, 0)}) {  // normal, sliding
      TwoBodies bodies;
      ContactPoint c{&bodies.a, &bodies.b, Vec3(0.01, 0.02, -0.05), Vec3(-0.02, 0.01, 0.06)};
      const Vec3 n = Vec3(0.2, -0.1, 1).normalized();
      const Vec3 d = n + direction_offset - n * n.dot(direction_offset);  // n + μ t
      const double u_before = n.dot(c.relative_velocity());
      const double kinetic_before = bodies.a.kinetic_energy() + bodies.b.kinetic_energy();
      const Vec3 P = release_impulse(c, n, d, stored);
      const double done = normal_work(c, n, P);
      EXPECT_NEAR(done, stored, 1e-9 * stored) << stored;
      if (direction_offset.norm() == 0) {
        // Frictionless: all the work is normal, and it is the kinetic energy gained.
        const double kinetic_after = bodies.a.kinetic_energy() + bodies.b.kinetic_energy();
        EXPECT_NEAR(kinetic_after - kinetic_before, stored, 1e-9 * std::max(stored, kinetic_before));
      }
      EXPECT_GT(n.dot(c.relative_velocity()), u_before);  // separation speeds up
    }
  }
}

TEST(EnergyRelease, IncrementClosedForm) {
  // From rest: ½ Δu P_n = W with P_n = Δu / k ⇒ Δu = sqrt(2 W k).
  EXPECT_NEAR(release_increment(0, 2, 3), std::sqrt(12.0), 1e-15);
  // Tiny energy against a fast separation: no cancellation, Δu ≈ W k / u.
  EXPECT_NEAR(release_increment(10, 1e-12, 1), 1e-13, 1e-25);
  EXPECT_EQ(release_increment(1, 0, 1), 0);
  EXPECT_THROW(release_increment(1, -1, 1), std::invalid_argument);
  EXPECT_THROW(release_increment(1, 1, 0), std::invalid_argument);
}

}  // namespace
}  // namespace scree::solver
