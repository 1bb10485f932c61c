#include "solver/impulse/energy_release.h"

#include <cmath>
#include <stdexcept>

namespace scree::solver {

double release_increment(double u_n, double stored, double n_K_d) {
  if (!(stored >= 0) || !(n_K_d > 0)) throw std::invalid_argument("release: needs W ≥ 0 and n·K d > 0");
  // −u + sqrt(u² + 2Wk) written without cancellation: 2Wk / (u + sqrt(u² + 2Wk)).
  const double root = std::sqrt(u_n * u_n + 2 * stored * n_K_d);
  return u_n >= 0 ? 2 * stored * n_K_d / (u_n + root) : root - u_n;
}

Vec3 release_impulse(const ContactPoint& contact, const Vec3& n, const Vec3& d, double stored) {
  const Mat3 K = contact.collision_matrix();
  const double n_K_d = n.dot(K * d);
  const double du = release_increment(n.dot(contact.relative_velocity()), stored, n_K_d);
  return (du / n_K_d) * d;
}

}  // namespace scree::solver
