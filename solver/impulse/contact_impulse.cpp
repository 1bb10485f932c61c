#include "solver/impulse/contact_impulse.h"

namespace scree::solver {

namespace {
// Sliding along d = n + μ t; when n·K d ≤ 0 (a Painlevé configuration, where friction would
// pull the contact inwards) the increment goes frictionless instead.
Vec3 sliding_direction(const ContactFrame& c, const Vec3& slip, const Vec3& fallback) {
  const Vec3 along = slip.squaredNorm() > 0 ? -slip.normalized()
                     : fallback.squaredNorm() > 0 ? fallback.normalized() : Vec3::Zero();
  const Vec3 d = c.normal + c.friction * along;
  return c.normal.dot(c.K * d) > 0 ? d : c.normal;
}

Vec3 tangential(const Vec3& v, const Vec3& n) { return v - n.dot(v) * n; }
}  // namespace

ContactFrame::ContactFrame(const ContactPoint& p, const Vec3& n, double mu)
    : point(p),
      normal(n),
      K(p.collision_matrix()),
      K_inverse(K.inverse()),
      inverse_inertia_a(p.a->inverse_inertia_world()),
      inverse_inertia_b(p.b->inverse_inertia_world()),
      friction(mu) {}

void ContactFrame::apply(const Vec3& impulse) const {
  RigidBody& a = *point.a;
  RigidBody& b = *point.b;
  a.velocity += a.inverse_mass * impulse;
  a.angular_velocity += inverse_inertia_a * point.r_a.cross(impulse);
  // A static B (a wall, the terrain) is left unwritten: islands solved side by side share it.
  if (b.is_static()) return;
  b.velocity -= b.inverse_mass * impulse;
  b.angular_velocity -= inverse_inertia_b * point.r_b.cross(impulse);
}

Vec3 compression_impulse(const ContactFrame& c, double delta) {
  const Vec3 slip = tangential(c.point.relative_velocity(), c.normal);
  const Vec3 stick = c.K_inverse * (delta * c.normal - slip);
  const double p_n = c.normal.dot(stick);
  const Vec3 p_t = stick - p_n * c.normal;
  if (p_n > 0 && p_t.norm() <= c.friction * p_n) return stick;
  const Vec3 d = sliding_direction(c, slip, p_t);
  return (delta / c.normal.dot(c.K * d)) * d;
}

StickingRelease sticking_release(const ContactFrame& c) {
  const Vec3 k_inv_n = c.K_inverse * c.normal;
  const Vec3 stick = k_inv_n / c.normal.dot(k_inv_n);
  return {stick, (stick - c.normal).norm() <= c.friction};
}

Vec3 release_direction(const ContactFrame& c, const StickingRelease& sticking) {
  if (sticking.within_cone) return sticking.direction;
  return sliding_direction(c, tangential(c.point.relative_velocity(), c.normal), sticking.direction - c.normal);
}

Vec3 release_direction(const ContactFrame& c) { return release_direction(c, sticking_release(c)); }

ImpulseWork apply_measured(const ContactFrame& c, const Vec3& impulse) {
  return apply_measured(c, impulse, c.point.relative_velocity());
}

ImpulseWork apply_measured(const ContactFrame& c, const Vec3& impulse, const Vec3& velocity_before) {
  c.apply(impulse);
  const Vec3 mean = velocity_before + 0.5 * (c.K * impulse);  // the impulse changes u by K P
  const double mean_n = c.normal.dot(mean), p_n = c.normal.dot(impulse);
  return {mean_n * p_n, mean.dot(impulse) - mean_n * p_n};
}

}  // namespace scree::solver
