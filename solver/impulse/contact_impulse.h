#pragma once
// The impulse of one contact increment under Coulomb friction, shared by the energy tracking
// method (compression and release) and the resting-contact correction. Seed 003 eqs. 50–55
// with the friction direction opposing the slip, not seed 000's Algorithm 1 lines 12–15:
// there the sticking trial Δu_n K⁻¹ n leaves the slip untouched, so a block sliding on a
// plane would never feel friction (K⁻¹ n has no tangential part for a centred contact).
#include "solver/rigid_body.h"

namespace scree::solver {

// A contact's constant data during one resolution: K and K⁻¹ at the contact (DESIGN §4).
struct ContactFrame {
  ContactPoint point;
  Vec3 normal;  // unit, from B towards A
  Mat3 K, K_inverse;
  Mat3 inverse_inertia_a, inverse_inertia_b;  // world frame, fixed during a collision
  double friction;  // μ

  ContactFrame(const ContactPoint& p, const Vec3& n, double mu);
  double normal_velocity() const { return normal.dot(point.relative_velocity()); }
  // P on A and −P on B, with the inverse inertias above (the hot loop of ETM).
  void apply(const Vec3& impulse) const;
};

// The impulse on A that raises the normal relative velocity by `delta` (> 0) and, within
// the friction cone, stops the slip (seed 003 eq. 50): P = K⁻¹ (δ n − u_t). Outside the
// cone it slides: P = δ / (n·K d) d with d = n + μ t, t against the slip. With μ = 0 the
// impulse is purely normal, which is what conserves energy in elastic collisions.
Vec3 compression_impulse(const ContactFrame& c, double delta);

// The fixed direction d (n·d = 1) along which stored energy is released: K⁻¹n / (n·K⁻¹n),
// which changes only the normal relative velocity, when that stays in the friction cone;
// otherwise n + μ t. Along a fixed direction the release is exact (energy_release.h).
Vec3 release_direction(const ContactFrame& c);
// Its sticking part, which depends on the contact's frame alone (a resolution finds it once
// per contact), and the direction given it.
struct StickingRelease {
  Vec3 direction;    // K⁻¹n / (n·K⁻¹n)
  bool within_cone;  // then the release direction, whatever the velocities
};
StickingRelease sticking_release(const ContactFrame& c);
Vec3 release_direction(const ContactFrame& c, const StickingRelease& sticking);

// Applies P (on A) and returns the work of its normal and tangential parts on the relative
// motion, ½ (u_before + u_after)·P split along n: their sum is the change of kinetic energy.
struct ImpulseWork {
  double normal = 0, tangential = 0;
};
ImpulseWork apply_measured(const ContactFrame& c, const Vec3& impulse);
// The same when the relative velocity before is known: u after is u + K P.
ImpulseWork apply_measured(const ContactFrame& c, const Vec3& impulse, const Vec3& velocity_before);

}  // namespace scree::solver
