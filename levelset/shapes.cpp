#include "levelset/shapes.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace scree::levelset {

namespace {

std::string number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

void require_positive(const std::string& name, double v) {
  if (!(std::isfinite(v) && v > 0))
    throw std::invalid_argument(name + " must be > 0, got " + number(v));
}

void require_positive(const std::string& name, const Vec3d& v) {
  static const char* axis = "xyz";
  for (int i = 0; i < 3; ++i) require_positive(name + " " + axis[i], v[i]);
}

std::string describe(const std::string& kind, const Vec3d& v) {
  return kind + " " + number(v[0]) + " " + number(v[1]) + " " + number(v[2]);
}

double beta(double a, double b) { return std::exp(std::lgamma(a) + std::lgamma(b) - std::lgamma(a + b)); }

}  // namespace

ImplicitShape make_sphere(double radius) {
  require_positive("radius", radius);
  return {[radius](const Vec3d& p) { return p.length() - radius; }, Vec3d(-radius), Vec3d(radius),
          "sphere radius " + number(radius)};
}

ImplicitShape make_box(const Vec3d& half) {
  require_positive("half extent", half);
  // The exact signed distance of a box.
  auto f = [half](const Vec3d& p) {
    Vec3d q(std::abs(p[0]) - half[0], std::abs(p[1]) - half[1], std::abs(p[2]) - half[2]);
    Vec3d outside(std::max(q[0], 0.0), std::max(q[1], 0.0), std::max(q[2], 0.0));
    return outside.length() + std::min(std::max(q[0], std::max(q[1], q[2])), 0.0);
  };
  return {f, -half, half, describe("box half extents", half)};
}

ImplicitShape make_ellipsoid(const Vec3d& radii) {
  require_positive("radius", radii);
  auto f = [radii](const Vec3d& p) {
    return Vec3d(p[0] / radii[0], p[1] / radii[1], p[2] / radii[2]).length() - 1;
  };
  return {f, -radii, radii, describe("ellipsoid radii", radii)};
}

ImplicitShape make_superellipsoid(const Vec3d& radii, double eps_e, double eps_n) {
  require_positive("radius", radii);
  for (auto [name, eps] : {std::pair{"eps_e", eps_e}, std::pair{"eps_n", eps_n}})
    if (!(eps >= min_superellipsoid_exponent && eps <= max_superellipsoid_exponent))
      throw std::invalid_argument(std::string(name) + " must be in [" +
                                  number(min_superellipsoid_exponent) + ", " +
                                  number(max_superellipsoid_exponent) + "], got " + number(eps));
  auto f = [radii, eps_e, eps_n](const Vec3d& p) {
    double e = 2 / eps_e, n = 2 / eps_n;
    double xy = std::pow(std::abs(p[0] / radii[0]), e) + std::pow(std::abs(p[1] / radii[1]), e);
    return std::pow(xy, eps_e / eps_n) + std::pow(std::abs(p[2] / radii[2]), n) - 1;
  };
  return {f, -radii, radii,
          describe("superellipsoid radii", radii) + " eps_e " + number(eps_e) + " eps_n " +
              number(eps_n)};
}

ImplicitShape make_flake(double radius, double amplitude) {
  require_positive("radius", radius);
  if (!(amplitude >= 0 && amplitude < radius))
    throw std::invalid_argument("amplitude must be in [0, radius), got " + number(amplitude));
  auto f = [radius, amplitude](const Vec3d& p) {
    double r = p.length();
    if (r == 0) return -radius;
    double theta = std::acos(std::clamp(p[2] / r, -1.0, 1.0));
    double phi = std::atan2(p[1], p[0]);
    return r - (radius + amplitude * std::sin(5 * theta) * std::sin(4 * phi));
  };
  double reach = radius + amplitude;
  return {f, Vec3d(-reach), Vec3d(reach),
          "flake radius " + number(radius) + " amplitude " + number(amplitude)};
}

SuperellipsoidMass superellipsoid_mass(const Vec3d& r, double eps_e, double eps_n) {
  const double e1 = eps_n, e2 = eps_e;
  const double common = r[0] * r[1] * r[2] * e1 * e2;
  const double volume = 2 * common * beta(e1 / 2 + 1, e1) * beta(e2 / 2, e2 / 2);
  const double planar = beta(3 * e2 / 2, e2 / 2) * beta(e1 / 2, 2 * e1 + 1);
  const double axial = 4 * beta(e2 / 2, e2 / 2 + 1) * beta(3 * e1 / 2, e1 + 1);
  const double z2 = r[2] * r[2];
  return {volume, Vec3d(0.5 * common * (r[1] * r[1] * planar + z2 * axial),
                        0.5 * common * (r[0] * r[0] * planar + z2 * axial),
                        0.5 * common * (r[0] * r[0] + r[1] * r[1]) * planar)};
}

}  // namespace scree::levelset
