#pragma once
// The release step of the energy tracking method, with seed 000's Algorithm 1 line 30
// corrected (seed digest, error 1): releasing stored energy W through an impulse along a
// fixed direction d changes the normal relative velocity by Δu_n with
//   ½ (2 u_n + Δu_n) P_n = W,   P_n = Δu_n / (n·K d)
//   ⇒ Δu_n = −u_n + sqrt(u_n² + 2 W (n·K d)),
// d = n when frictionless, n + μ t when sliding. The impulse that does it is
// P = Δu_n / (n·K d) · d, and the work of its normal part, ½ (u_n⁻ + u_n⁺) P_n, is exactly
// W (the tangential part's work is friction's, booked on its own).
#include "solver/rigid_body.h"

namespace scree::solver {

// Δu_n ≥ 0 for u_n ≥ 0 (separating), W ≥ 0 and n·K d > 0.
double release_increment(double normal_velocity, double stored_energy, double n_K_d);

// The impulse on A that releases `stored_energy` at the contact along `direction` (unit
// normal n, direction d with n·d > 0).
Vec3 release_impulse(const ContactPoint& contact, const Vec3& normal, const Vec3& direction,
                     double stored_energy);

}  // namespace scree::solver
