#include "solver/rigid_body.h"

#include <cmath>

namespace scree::solver {

namespace {
Mat3 skew(const Vec3& v) {
  Mat3 m;
  m << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return m;
}
}  // namespace

RigidBody RigidBody::from_template(double density, double volume, const Vec3& inertia_per_density,
                                   double scale) {
  RigidBody b;
  const double s3 = scale * scale * scale;
  b.inverse_mass = 1.0 / (density * volume * s3);
  b.inverse_inertia_body = (density * inertia_per_density * s3 * scale * scale).cwiseInverse();
  return b;
}

RigidBody RigidBody::fixed() { return RigidBody{}; }

Mat3 RigidBody::inverse_inertia_world() const {
  const Mat3 r = orientation.toRotationMatrix();
  return r * inverse_inertia_body.asDiagonal() * r.transpose();
}

void RigidBody::apply_impulse(const Vec3& impulse, const Vec3& r) {
  velocity += inverse_mass * impulse;
  angular_velocity += inverse_inertia_world() * r.cross(impulse);
}

double RigidBody::kinetic_energy() const {
  if (is_static()) return 0;
  // ½ m v² + ½ ω·(I ω), with I ω evaluated in the body frame.
  const Vec3 w_body = orientation.conjugate() * angular_velocity;
  const Vec3 l_body = w_body.cwiseQuotient(inverse_inertia_body);
  return 0.5 * velocity.squaredNorm() / inverse_mass + 0.5 * w_body.dot(l_body);
}

Mat3 collision_matrix(double inverse_mass_a, const Mat3& inverse_inertia_a, const Vec3& r_a, double inverse_mass_b,
                      const Mat3& inverse_inertia_b, const Vec3& r_b) {
  const Mat3 ra = skew(r_a), rb = skew(r_b);
  return (inverse_mass_a + inverse_mass_b) * Mat3::Identity() - ra * inverse_inertia_a * ra - rb * inverse_inertia_b * rb;
}

Mat3 ContactPoint::collision_matrix() const {
  return solver::collision_matrix(a->inverse_mass, a->inverse_inertia_world(), r_a, b->inverse_mass,
                                  b->inverse_inertia_world(), r_b);
}

void ContactPoint::apply_impulse(const Vec3& impulse_on_a) const {
  a->apply_impulse(impulse_on_a, r_a);
  b->apply_impulse(-impulse_on_a, r_b);
}

Quat rotate(const Quat& q, const Vec3& w, double dt) {
  const double angle = w.norm() * dt;
  if (angle == 0) return q;
  Quat step(Eigen::AngleAxisd(angle, w.normalized()));
  return (step * q).normalized();
}

}  // namespace scree::solver
