#include "levelset/mass_properties.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace scree::levelset {

namespace {

double smeared_heaviside(double phi, double eps) {
  if (phi <= -eps) return 0;
  if (phi >= eps) return 1;
  return 0.5 * (1 + phi / eps + std::sin(M_PI * phi / eps) / M_PI);
}

double smeared_delta(double phi, double eps) {
  if (std::abs(phi) >= eps) return 0;
  return 0.5 / eps * (1 + std::cos(M_PI * phi / eps));
}

Vec3d column(const Mat3d& m, int j) { return Vec3d(m(0, j), m(1, j), m(2, j)); }
void set_column(Mat3d& m, int j, const Vec3d& v) {
  for (int i = 0; i < 3; ++i) m(i, j) = v[i];
}

}  // namespace

double fill_fraction(double phi, double h) {
  const double eps = heaviside_half_width * h;
  return 1 - (4 * smeared_heaviside(phi, eps) - smeared_heaviside(phi, 2 * eps)) / 3;
}

double surface_area(const openvdb::FloatGrid& phi) {
  const double h = phi.voxelSize()[0], eps = heaviside_half_width * h;
  if (phi.background() < 2 * eps * (1 - 1e-6))
    throw std::invalid_argument("the narrow band outside must be at least " +
                                std::to_string(int(std::ceil(2 * heaviside_half_width))) +
                                " voxels wide to integrate the surface area");
  // Tiles lie a whole tile's width from the surface, so only voxels carry the delta. The
  // coarea factor |∇φ| keeps the sum right where marched values are not a perfect distance
  // (a 5 % slope error outside a scanned grain would cost 5 % of its area without it).
  auto values = phi.getConstAccessor();
  double sum = 0;
  for (auto it = phi.cbeginValueOn(); it; ++it) {
    if (!it.isVoxelValue() || std::abs(*it) >= 2 * eps) continue;
    const openvdb::Coord c = it.getCoord();
    double slope = 0;
    for (int a = 0; a < 3; ++a) {
      openvdb::Coord up = c, down = c;
      up[a] += 1, down[a] -= 1;
      const double d = (values.getValue(up) - values.getValue(down)) / (2 * h);
      slope += d * d;
    }
    sum += (4 * smeared_delta(*it, eps) - smeared_delta(*it, 2 * eps)) / 3 * std::sqrt(slope);
  }
  return sum * h * h * h;
}

MassProperties integrate_mass(const openvdb::FloatGrid& phi) {
  const auto& xform = phi.transform();
  const double h = phi.voxelSize()[0], reach = 2 * heaviside_half_width * h, cell = h * h * h;
  if (phi.background() < reach * (1 - 1e-6))
    throw std::invalid_argument("the narrow band outside must be at least " +
                                std::to_string(int(std::ceil(2 * heaviside_half_width))) +
                                " voxels wide to integrate mass properties");
  // Sums about a reference point near the grain keep the second moments well conditioned.
  const Vec3d reference = xform.indexToWorld(phi.evalActiveVoxelBoundingBox().getCenter());
  double m0 = 0;
  Vec3d m1(0);
  Mat3d m2 = Mat3d::zero();
  auto add = [&](const openvdb::Coord& c, float value) {
    double w = fill_fraction(value, h);
    if (w == 0) return;
    Vec3d r = xform.indexToWorld(c) - reference;
    m0 += w;
    m1 += w * r;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) m2(i, j) += w * r[i] * r[j];
  };
  for (auto it = phi.cbeginValueAll(); it; ++it) {
    // The outside background is stored as float: compare with slack.
    if (*it >= reach * (1 - 1e-5)) continue;
    if (it.isVoxelValue()) {
      add(it.getCoord(), *it);
    } else {
      openvdb::CoordBBox tile;
      it.getBoundingBox(tile);
      for (auto c = tile.begin(); c; ++c) add(*c, *it);
    }
  }
  MassProperties p;
  if (m0 == 0) return p;
  p.volume = m0 * cell;
  const Vec3d offset = m1 / m0;
  p.centroid = reference + offset;
  // Second moments about the centroid, then I = tr(S) 1 − S.
  Mat3d second;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) second(i, j) = (m2(i, j) / m0 - offset[i] * offset[j]) * p.volume;
  const double trace = second(0, 0) + second(1, 1) + second(2, 2);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) p.inertia(i, j) = (i == j ? trace : 0) - second(i, j);
  principal_axes(p.inertia, p.axes, p.principal);
  return p;
}

void principal_axes(const Mat3d& inertia, Mat3d& axes, Vec3d& principal, double tolerance) {
  Eigen::Matrix3d m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m(i, j) = 0.5 * (inertia(i, j) + inertia(j, i));
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> solver(m);
  const Eigen::Vector3d lambda = solver.eigenvalues();  // ascending
  const Eigen::Matrix3d vectors = solver.eigenvectors();
  const double scale = std::max(std::abs(lambda[2]), 1e-300);
  auto same = [&](int a, int b) { return std::abs(lambda[a] - lambda[b]) <= tolerance * scale; };

  axes = Mat3d::identity();
  if (!(same(0, 1) && same(1, 2))) {
    // Either three distinct moments or one distinct moment with a degenerate pair.
    std::array<int, 3> order{0, 1, 2};  // body axis b takes eigenvector order[b]
    double best = -1;
    std::array<int, 3> perm{0, 1, 2};
    do {
      double score = 0;
      for (int b = 0; b < 3; ++b) score += std::abs(vectors(b, perm[b]));
      if (score > best) best = score, order = perm;
    } while (std::next_permutation(perm.begin(), perm.end()));
    for (int b = 0; b < 3; ++b) {
      Vec3d v(vectors(0, order[b]), vectors(1, order[b]), vectors(2, order[b]));
      set_column(axes, b, v[b] < 0 ? -v : v);
    }
    int single = same(0, 1) ? 2 : same(1, 2) ? 0 : -1;  // the eigenvector outside the pair
    if (single >= 0) {
      int u = int(std::find(order.begin(), order.end(), single) - order.begin());
      Vec3d axis = column(axes, u);
      int k1 = (u + 1) % 3, k2 = (u + 2) % 3;
      Vec3d e(0);
      e[k1] = 1;
      Vec3d first = e - axis * e.dot(axis);
      first.normalize();
      set_column(axes, k1, first);
      set_column(axes, k2, axis.cross(first));
    }
    if (axes.det() < 0) {
      // Flip the axis least aligned with its world axis.
      int worst = 0;
      for (int b = 1; b < 3; ++b)
        if (std::abs(axes(b, b)) < std::abs(axes(worst, worst))) worst = b;
      set_column(axes, worst, -column(axes, worst));
    }
  }
  for (int b = 0; b < 3; ++b) {
    Vec3d v = column(axes, b);
    principal[b] = v.dot(inertia * v);
  }
}

}  // namespace scree::levelset
