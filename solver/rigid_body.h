#pragma once
// A rigid body's kinematics and the impulse identities of DESIGN.md §4, shared by every
// contact scheme. Double precision; world frame unless a name says "body".
#include <Eigen/Dense>
#include <Eigen/Geometry>

namespace scree::solver {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Quat = Eigen::Quaterniond;

struct RigidBody {
  Vec3 position = Vec3::Zero();          // centroid, m
  Quat orientation = Quat::Identity();   // body to world, unit
  Vec3 velocity = Vec3::Zero();          // m/s
  Vec3 angular_velocity = Vec3::Zero();  // world frame, rad/s
  double inverse_mass = 0;               // 1/kg; 0 for a static body
  Vec3 inverse_inertia_body = Vec3::Zero();  // principal, body axes; 0 for a static body

  // The body of a template scaled by `scale` (lengths): mass ρ V s³, inertia ρ (I/ρ) s⁵.
  static RigidBody from_template(double density, double volume, const Vec3& inertia_per_density,
                                 double scale);
  static RigidBody fixed();  // static: zero inverse mass and inverse inertia

  bool is_static() const { return inverse_mass == 0; }
  Mat3 inverse_inertia_world() const;
  // Velocity of the material point at offset r from the centroid (world frame).
  Vec3 velocity_at(const Vec3& r) const { return velocity + angular_velocity.cross(r); }
  // An impulse P at offset r: Δv = P/m, Δω = I⁻¹ (r × P).
  void apply_impulse(const Vec3& impulse, const Vec3& r);
  double kinetic_energy() const;  // J; 0 for a static body
};

// A contact between A and B at offsets r_a, r_b from their centroids. The relative velocity
// u = (v_A + ω_A × r_A) − (v_B + ω_B × r_B); an impulse P on A (−P on B) changes u by K P.
struct ContactPoint {
  RigidBody* a;
  RigidBody* b;
  Vec3 r_a, r_b;

  Vec3 relative_velocity() const { return a->velocity_at(r_a) - b->velocity_at(r_b); }
  // K = (1/m_A + 1/m_B) I − [r_A]× I_A⁻¹ [r_A]× − [r_B]× I_B⁻¹ [r_B]×
  Mat3 collision_matrix() const;
  void apply_impulse(const Vec3& impulse_on_a) const;
};

// K of a contact at offsets r_a, r_b from bodies of inverse masses m⁻¹ and world inverse
// inertias I⁻¹: (m_A⁻¹ + m_B⁻¹) I − [r_A]× I_A⁻¹ [r_A]× − [r_B]× I_B⁻¹ [r_B]×.
Mat3 collision_matrix(double inverse_mass_a, const Mat3& inverse_inertia_a, const Vec3& r_a, double inverse_mass_b,
                      const Mat3& inverse_inertia_b, const Vec3& r_b);

// Rotates q by the constant world angular velocity ω over dt (the exact exponential map).
Quat rotate(const Quat& q, const Vec3& angular_velocity, double dt);

}  // namespace scree::solver
