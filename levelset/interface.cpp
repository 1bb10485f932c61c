#include "levelset/interface.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace scree::levelset {

namespace {
constexpr float no_crossing = std::numeric_limits<float>::infinity();
constexpr int index_margin = 16;  // voxels below the box in index space, room for the band

// The root of f on [0, 1] given f(0) and f(1) of opposite signs (Illinois regula falsi).
template <class F>
double bracketed_root(const F& f, double f0, double f1) {
  double a = 0, b = 1;
  int side = 0;
  for (int i = 0; i < 60 && b - a > 1e-12; ++i) {
    double t = (a * f1 - b * f0) / (f1 - f0);
    if (!(t > a && t < b)) t = 0.5 * (a + b);
    double ft = f(t);
    if (ft == 0) return t;
    if ((ft < 0) == (f0 < 0)) {
      a = t, f0 = ft;
      if (side == -1) f1 *= 0.5;
      side = -1;
    } else {
      b = t, f1 = ft;
      if (side == 1) f0 *= 0.5;
      side = 1;
    }
  }
  return (a * f1 - b * f0) / (f1 - f0);
}
// Distance from p to the zero level of f near it: Newton projection onto the surface, then
// alternately stepping to p's foot on the tangent plane and projecting back, which converges
// to the closest point of a smooth surface. NaN when it does not converge nearby.
double implicit_distance(const ImplicitShape& shape, const Vec3d& p, double h) {
  const double delta = 1e-4 * h, tolerance = 1e-9 * h;
  auto gradient = [&](const Vec3d& x) {
    Vec3d g;
    for (int a = 0; a < 3; ++a) {
      Vec3d e(0);
      e[a] = delta;
      g[a] = (shape.f(x + e) - shape.f(x - e)) / (2 * delta);
    }
    return g;
  };
  auto project = [&](Vec3d x, bool& ok) {
    for (int k = 0; k < 30; ++k) {
      double f = shape.f(x);
      Vec3d g = gradient(x);
      double g2 = g.lengthSqr();
      if (!(g2 > 0) || !std::isfinite(f)) break;
      Vec3d step = g * (f / g2);
      x -= step;
      if (step.length() < tolerance) return x;
    }
    ok = false;
    return x;
  };
  // Every converged iterate is a point of the surface; the nearest one found is kept (at
  // edges and corners the iteration may wander off the closest point).
  bool ok = true;
  Vec3d x = project(p, ok);
  if (!ok) return std::numeric_limits<double>::quiet_NaN();
  double d = (x - p).length();
  for (int k = 0; k < 8; ++k) {
    Vec3d n = gradient(x);
    n.normalize();
    Vec3d foot = x + (p - x) - n * (p - x).dot(n);  // p's foot on the tangent plane at x
    Vec3d next = project(foot, ok);
    if (!ok) break;
    bool settled = (next - x).length() < 1e-7 * h;
    x = next;
    d = std::min(d, (x - p).length());
    if (settled) break;
  }
  return d < 8 * h ? d : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

InterfaceSamples::InterfaceSamples(const openvdb::CoordBBox& b, double h) : box(b), voxel_size(h) {
  // 13 bytes a point: beyond this the samples alone would take gigabytes.
  if (double(b.volume()) > max_sample_points)
    throw std::invalid_argument("a grid of " + std::to_string(b.dim()[0]) + " x " + std::to_string(b.dim()[1]) +
                                " x " + std::to_string(b.dim()[2]) + " points is too large (over " +
                                std::to_string(std::int64_t(max_sample_points / 1e6)) + " million); use fewer voxels");
  inside.assign(b.volume(), 0);
  crossing.assign(b.volume(), {no_crossing, no_crossing, no_crossing});
}

void InterfaceSamples::add_crossing(const openvdb::Coord& c, int axis, double t) {
  auto& lo = crossing[index(c)][axis];
  lo = std::min(lo, float(t));
  openvdb::Coord n = c;
  n[axis] += 1;
  auto& hi = crossing[index(n)][axis];
  hi = std::min(hi, float(1 - t));
}

openvdb::CoordBBox grid_box(const Vec3d& lower, const Vec3d& upper, double h, int margin) {
  openvdb::Coord lo, hi;
  for (int a = 0; a < 3; ++a) {
    lo[a] = int(std::floor(lower[a] / h)) - margin;
    hi[a] = int(std::ceil(upper[a] / h)) + margin;
  }
  return {lo, hi};
}

InterfaceSamples sample_implicit(const ImplicitShape& shape, double h) {
  InterfaceSamples s(grid_box(shape.lower, shape.upper, h, 2), h);
  s.surface_distance = [shape, h](const Vec3d& p) { return implicit_distance(shape, p, h); };
  const auto& box = s.box;
  std::vector<double> value(box.volume());
#pragma omp parallel for schedule(dynamic)
  for (int i = box.min()[0]; i <= box.max()[0]; ++i)
    for (int j = box.min()[1]; j <= box.max()[1]; ++j)
      for (int k = box.min()[2]; k <= box.max()[2]; ++k) {
        openvdb::Coord c(i, j, k);
        double f = shape.f(Vec3d(i, j, k) * h);
        value[s.index(c)] = f;
        s.inside[s.index(c)] = f < 0;
      }
  // Edges are visited from their lower end, so each is handled by one thread only; the
  // crossing slots of the upper end may be shared by the thread of the next slab, so the
  // slabs are processed in two passes of alternating parity along x.
  for (int parity = 0; parity < 2; ++parity) {
#pragma omp parallel for schedule(dynamic)
    for (int i = box.min()[0] + parity; i <= box.max()[0]; i += 2)
      for (int j = box.min()[1]; j <= box.max()[1]; ++j)
        for (int k = box.min()[2]; k <= box.max()[2]; ++k) {
          openvdb::Coord c(i, j, k);
          for (int a = 0; a < 3; ++a) {
            openvdb::Coord n = c;
            n[a] += 1;
            if (n[a] > box.max()[a]) continue;
            double f0 = value[s.index(c)], f1 = value[s.index(n)];
            if ((f0 < 0) == (f1 < 0)) continue;
            Vec3d p0 = Vec3d(i, j, k) * h, step(0);
            step[a] = h;
            double t = bracketed_root([&](double t) { return shape.f(p0 + step * t); }, f0, f1);
            s.add_crossing(c, a, t);
          }
        }
  }
  return s;
}

openvdb::FloatGrid::Ptr interface_band(InterfaceSamples& s) {
  const auto& box = s.box;
  const double h = s.voxel_size;
  // Edges whose ends differ but that no crossing was recorded on: crossed halfway.
  for (auto it = box.begin(); it; ++it) {
    const openvdb::Coord c = *it;
    for (int a = 0; a < 3; ++a) {
      openvdb::Coord n = c;
      n[a] += 1;
      if (n[a] > box.max()[a] || s.inside[s.index(c)] == s.inside[s.index(n)]) continue;
      if (s.crossing[s.index(c)][a] == no_crossing || s.crossing[s.index(n)][a] == no_crossing)
        s.add_crossing(c, a, 0.5);
    }
  }
  // Index space starts near (0, 0, 0) at the box's corner: a grain centred on index 0
  // would straddle eight of OpenVDB's top-level nodes (~260 kB each) where one suffices.
  const openvdb::Coord shift = openvdb::Coord(index_margin) - box.min();
  auto xform = openvdb::math::Transform::createLinearTransform(h);
  xform->postTranslate(-openvdb::Vec3d(shift[0], shift[1], shift[2]) * h);
  auto grid = openvdb::FloatGrid::create(float(3 * h));
  grid->setTransform(xform);
  grid->setGridClass(openvdb::GRID_LEVEL_SET);
  auto acc = grid->getAccessor();
  for (auto it = box.begin(); it; ++it) {
    const auto& d = s.crossing[s.index(*it)];
    double inverse_square = 0;
    bool crossed = false;
    for (int a = 0; a < 3; ++a)
      if (d[a] != no_crossing) {
        crossed = true;
        double da = std::max(double(d[a]), 1e-6);
        inverse_square += 1 / (da * da);
      }
    if (!crossed) continue;
    double distance = h / std::sqrt(inverse_square);
    if (s.surface_distance) {
      double nearest_crossing = h * std::min({d[0], d[1], d[2]});
      double known = s.surface_distance(Vec3d((*it)[0], (*it)[1], (*it)[2]) * h);
      distance = std::isfinite(known) ? std::min(known, nearest_crossing) : distance;
    }
    acc.setValue(*it + shift, float(s.inside[s.index(*it)] ? -distance : distance));
  }
  return grid;
}

}  // namespace scree::levelset
