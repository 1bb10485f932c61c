#pragma once
// Analytic grain shapes as implicit functions: f < 0 inside, f = 0 on the surface, f > 0
// outside. f need not be a distance; fast marching turns its zero level into one.
#include <openvdb/math/Vec3.h>

#include <functional>
#include <string>

namespace scree::levelset {

using Vec3d = openvdb::math::Vec3<double>;

struct ImplicitShape {
  std::function<double(const Vec3d&)> f;  // metres in, sign out
  Vec3d lower, upper;                     // a box that holds the whole shape, metres
  std::string description;                // "superellipsoid rx=... ry=..."
};

// Each throws std::invalid_argument naming the bad parameter.
ImplicitShape make_sphere(double radius);
ImplicitShape make_box(const Vec3d& half_extents);
ImplicitShape make_ellipsoid(const Vec3d& radii);
// Seed 004 eq. (33): f = (|x/rx|^(2/εe) + |y/ry|^(2/εe))^(εe/εn) + |z/rz|^(2/εn) − 1,
// εe and εn in [min_superellipsoid_exponent, max_superellipsoid_exponent] (convex shapes).
ImplicitShape make_superellipsoid(const Vec3d& radii, double eps_e, double eps_n);
inline constexpr double min_superellipsoid_exponent = 0.1;
inline constexpr double max_superellipsoid_exponent = 2.0;
// Seed 004 eq. (13): f = r − [R + ΔR sin(5θ) sin(4φ)], θ from +z, φ in the x-y plane.
ImplicitShape make_flake(double radius, double amplitude);

// Closed forms of seed 004 (digest, with shape E's corrected axes): volume and principal
// moments of inertia per unit density about x, y, z.
struct SuperellipsoidMass {
  double volume;
  Vec3d inertia_per_density;
};
SuperellipsoidMass superellipsoid_mass(const Vec3d& radii, double eps_e, double eps_n);

}  // namespace scree::levelset
