#include "levelset/boundary_nodes.h"

#include <openvdb/tools/Interpolation.h>
#include <openvdb/tools/VolumeToMesh.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

namespace scree::levelset {

namespace {

using Accessor = openvdb::FloatGrid::ConstAccessor;

// The interpolant restricted to a segment that stays in one cell is a cubic in the segment
// parameter s ∈ [0, 1]; four samples fix it.
struct Cubic {
  double c0, c1, c2, c3;
  double operator()(double s) const { return ((c3 * s + c2) * s + c1) * s + c0; }
  static Cubic through(double y0, double y1, double y2, double y3) {
    // Samples at s = 0, 1/3, 2/3, 1.
    Cubic c;
    c.c0 = y0;
    c.c1 = (-11 * y0 + 18 * y1 - 9 * y2 + 2 * y3) / 2;
    c.c2 = (18 * y0 - 45 * y1 + 36 * y2 - 9 * y3) / 2;
    c.c3 = (-9 * y0 + 27 * y1 - 27 * y2 + 9 * y3) / 2;
    return c;
  }
};

// Trilinear value inside the cell with lower corner `cell` at index point p.
double trilinear(const float (&corner)[8], const Vec3d& local) {
  double x = local[0], y = local[1], z = local[2];
  double v00 = corner[0] * (1 - z) + corner[1] * z, v01 = corner[2] * (1 - z) + corner[3] * z;
  double v10 = corner[4] * (1 - z) + corner[5] * z, v11 = corner[6] * (1 - z) + corner[7] * z;
  return (v00 * (1 - y) + v01 * y) * (1 - x) + (v10 * (1 - y) + v11 * y) * x;
}

// `inside` comes in as the state at s = 0 and leaves as the state at s = 1. Carrying it from
// one cell to the next, rather than evaluating each cell's start again, counts every sign
// change once even where φ is zero at a cell face and round-off gives the two cells'
// interpolants opposite signs there.
std::vector<double> cubic_sign_changes(const Cubic& c, bool& inside) {
  // Split [0, 1] at the cubic's extrema; each piece is monotone, with at most one change.
  std::vector<double> cuts{0.0};
  double a = 3 * c.c3, b = 2 * c.c2, d = c.c1;
  if (a != 0) {
    double disc = b * b - 4 * a * d;
    if (disc > 0) {
      double q = -0.5 * (b + std::copysign(std::sqrt(disc), b));
      for (double r : {q / a, q != 0 ? d / q : 0.5})
        if (r > 0 && r < 1) cuts.push_back(r);
    }
  } else if (b != 0 && -d / b > 0 && -d / b < 1) {
    cuts.push_back(-d / b);
  }
  cuts.push_back(1.0);
  std::sort(cuts.begin(), cuts.end());
  std::vector<double> roots;
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
    double lo = cuts[i], hi = cuts[i + 1];
    const bool lo_inside = inside;
    inside = c(hi) < 0;
    if (lo_inside == inside) continue;
    for (int k = 0; k < 60; ++k) {
      double mid = 0.5 * (lo + hi);
      ((c(mid) < 0) == lo_inside ? lo : hi) = mid;
    }
    roots.push_back(0.5 * (lo + hi));
  }
  return roots;
}

// Index-space version of zero_crossings.
std::vector<Vec3d> index_crossings(Accessor& acc, const Vec3d& from, const Vec3d& to) {
  const Vec3d d = to - from;
  // Parameters where the segment crosses integer planes: the cell changes only there.
  std::vector<double> ts{0.0, 1.0};
  for (int a = 0; a < 3; ++a) {
    if (d[a] == 0) continue;
    double lo = std::min(from[a], to[a]), hi = std::max(from[a], to[a]);
    for (double plane = std::ceil(lo); plane <= hi; plane += 1) {
      double t = (plane - from[a]) / d[a];
      if (t > 0 && t < 1) ts.push_back(t);
    }
  }
  std::sort(ts.begin(), ts.end());
  std::vector<Vec3d> out;
  bool inside = false, started = false;
  for (std::size_t i = 0; i + 1 < ts.size(); ++i) {
    double t0 = ts[i], t1 = ts[i + 1];
    if (t1 - t0 < 1e-14) continue;
    Vec3d mid = from + d * (0.5 * (t0 + t1));
    openvdb::Coord cell(int(std::floor(mid[0])), int(std::floor(mid[1])), int(std::floor(mid[2])));
    float corner[8];
    for (int k = 0; k < 8; ++k)
      corner[k] = acc.getValue(cell + openvdb::Coord((k >> 2) & 1, (k >> 1) & 1, k & 1));
    const Vec3d base(cell[0], cell[1], cell[2]);
    auto at = [&](double s) { return trilinear(corner, from + d * (t0 + s * (t1 - t0)) - base); };
    Cubic c = Cubic::through(at(0), at(1.0 / 3), at(2.0 / 3), at(1));
    if (!started) inside = c(0) < 0, started = true;
    for (double s : cubic_sign_changes(c, inside)) out.push_back(from + d * (t0 + s * (t1 - t0)));
  }
  return out;
}

std::vector<Vec3d> to_world(const openvdb::FloatGrid& phi, std::vector<Vec3d> points) {
  for (auto& p : points) p = phi.transform().indexToWorld(p);
  return points;
}

// Where a ray from `centre` (index space) leaves the box, as a parameter of `direction`.
double exit_parameter(const openvdb::CoordBBox& box, const Vec3d& centre, const Vec3d& direction) {
  double t = std::numeric_limits<double>::infinity();
  for (int a = 0; a < 3; ++a) {
    if (direction[a] > 0) t = std::min(t, (box.max()[a] + 1 - centre[a]) / direction[a]);
    if (direction[a] < 0) t = std::min(t, (box.min()[a] - 1 - centre[a]) / direction[a]);
  }
  return std::max(t, 0.0);
}

double uniform(std::mt19937_64& rng) { return double(rng() >> 11) * 0x1.0p-53; }

std::vector<Vec3d> surface_nodes(const openvdb::FloatGrid& phi, std::size_t count) {
  std::vector<openvdb::Vec3s> points;
  std::vector<openvdb::Vec3I> triangles;
  std::vector<openvdb::Vec4I> quads;
  openvdb::tools::volumeToMesh(phi, points, triangles, quads, 0.0);
  for (const auto& q : quads) {
    triangles.emplace_back(q[0], q[1], q[2]);
    triangles.emplace_back(q[0], q[2], q[3]);
  }
  std::vector<double> cumulative_area;
  double area = 0;
  for (const auto& t : triangles) {
    Vec3d a = points[t[0]], b = points[t[1]], c = points[t[2]];
    area += 0.5 * (b - a).cross(c - a).length();
    cumulative_area.push_back(area);
  }
  if (area == 0) throw std::runtime_error("the level set has no zero iso-surface to place nodes on");

  // Candidates, area-weighted, each moved onto the zero level along the gradient.
  const auto& xform = phi.transform();
  Accessor acc = phi.getConstAccessor();
  std::mt19937_64 rng(20211);
  const std::size_t wanted = std::max<std::size_t>(10 * count, 20000);
  std::vector<Vec3d> candidates;
  for (std::size_t tries = 0; candidates.size() < wanted && tries < 4 * wanted; ++tries) {
    std::size_t t = std::size_t(std::lower_bound(cumulative_area.begin(), cumulative_area.end(),
                                                 uniform(rng) * area) - cumulative_area.begin());
    t = std::min(t, triangles.size() - 1);
    double u = uniform(rng), v = uniform(rng);
    if (u + v > 1) u = 1 - u, v = 1 - v;
    const auto& tri = triangles[t];
    Vec3d world = Vec3d(points[tri[0]]) * (1 - u - v) + Vec3d(points[tri[1]]) * u + Vec3d(points[tri[2]]) * v;
    Vec3d p = xform.worldToIndex(world);
    Vec3d g(0);
    for (int a = 0; a < 3; ++a) {
      Vec3d e(0);
      e[a] = 0.5;
      g[a] = openvdb::tools::BoxSampler::sample(acc, p + e) - openvdb::tools::BoxSampler::sample(acc, p - e);
    }
    if (g.length() == 0) continue;
    g.normalize();
    auto hits = index_crossings(acc, p - 2 * g, p + 2 * g);
    if (hits.empty()) continue;
    auto nearest = std::min_element(hits.begin(), hits.end(), [&](const Vec3d& x, const Vec3d& y) {
      return (x - p).lengthSqr() < (y - p).lengthSqr();
    });
    candidates.push_back(*nearest);
  }
  if (candidates.size() < count)
    throw std::runtime_error("only " + std::to_string(candidates.size()) +
                             " points could be placed on the surface, fewer than the " +
                             std::to_string(count) + " nodes asked for");

  // Farthest-point selection: each new node is the candidate farthest from those chosen.
  std::vector<Vec3d> nodes;
  std::vector<double> gap(candidates.size(), std::numeric_limits<double>::infinity());
  std::size_t next = 0;
  for (std::size_t n = 0; n < count; ++n) {
    nodes.push_back(candidates[next]);
    std::size_t farthest = 0;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      gap[i] = std::min(gap[i], (candidates[i] - candidates[next]).lengthSqr());
      if (gap[i] > gap[farthest]) farthest = i;
    }
    next = farthest;
  }
  return to_world(phi, std::move(nodes));
}

// Rays along each axis through the centres of a square grid of `spacing` laid around `centre`
// (world coordinates), each running the whole length of the shape's box symmetrically about
// the centre, so that the rays of a mirror-symmetric shape come in mirror pairs.
std::vector<Vec3d> grid_nodes(const openvdb::FloatGrid& phi, const Vec3d& centre, double spacing) {
  const auto box = phi.evalActiveVoxelBoundingBox();
  Vec3d reach(0);  // the largest distance from the centre to the box, per axis
  for (int corner = 0; corner < 8; ++corner) {
    const Vec3d index((corner & 4 ? box.max()[0] + 1 : box.min()[0] - 1), (corner & 2 ? box.max()[1] + 1 : box.min()[1] - 1),
                      (corner & 1 ? box.max()[2] + 1 : box.min()[2] - 1));
    const Vec3d offset = phi.transform().indexToWorld(index) - centre;
    for (int a = 0; a < 3; ++a) reach[a] = std::max(reach[a], std::abs(offset[a]));
  }
  std::vector<Vec3d> nodes;
  for (int a = 0; a < 3; ++a) {
    const int b = (a + 1) % 3, c = (a + 2) % 3;
    const int half_b = int(std::ceil(reach[b] / spacing)), half_c = int(std::ceil(reach[c] / spacing));
    for (int i = -half_b; i < half_b; ++i)
      for (int j = -half_c; j < half_c; ++j) {
        Vec3d from = centre, to = centre;
        from[a] -= reach[a];
        to[a] += reach[a];
        from[b] = to[b] = centre[b] + (i + 0.5) * spacing;
        from[c] = to[c] = centre[c] + (j + 0.5) * spacing;
        const auto hits = zero_crossings(phi, from, to);
        nodes.insert(nodes.end(), hits.begin(), hits.end());
      }
  }
  return nodes;
}

// A grid spacing giving about `count` nodes: a first guess from the box's faces, corrected
// once by the count it gives (nodes go as 1 / spacing²).
std::vector<Vec3d> grid_nodes(const openvdb::FloatGrid& phi, const Vec3d& centre, std::size_t count) {
  const auto box = phi.evalActiveVoxelBoundingBox();
  const Vec3d size = phi.transform().indexToWorld(box.max()) - phi.transform().indexToWorld(box.min());
  const double faces = 2 * std::abs(size[0] * size[1] + size[1] * size[2] + size[2] * size[0]);
  double spacing = std::sqrt(faces / double(count));
  const std::size_t first = grid_nodes(phi, centre, spacing).size();
  if (first == 0) throw std::runtime_error("no grid ray meets the surface");
  spacing *= std::sqrt(double(first) / double(count));
  return grid_nodes(phi, centre, spacing);
}

}  // namespace

NodeMethod parse_node_method(const std::string& name) {
  if (name == "auto") return NodeMethod::automatic;
  if (name == "rays") return NodeMethod::rays;
  if (name == "surface") return NodeMethod::surface;
  if (name == "grid") return NodeMethod::grid;
  throw std::invalid_argument("node method must be auto, rays, surface or grid, not '" + name + "'");
}

std::string node_method_name(NodeMethod method) {
  switch (method) {
    case NodeMethod::rays: return "rays";
    case NodeMethod::surface: return "surface";
    case NodeMethod::grid: return "grid";
    default: return "auto";
  }
}

std::vector<Vec3d> spiral_directions(std::size_t n) {
  std::vector<Vec3d> out;
  out.reserve(n);
  const double golden = M_PI * (3 - std::sqrt(5.0));
  for (std::size_t i = 0; i < n; ++i) {
    double theta = std::acos(-1 + (2.0 * double(i) + 1) / double(n)), phi = double(i) * golden;
    out.emplace_back(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), std::cos(theta));
  }
  return out;
}

std::vector<Vec3d> zero_crossings(const openvdb::FloatGrid& phi, const Vec3d& from, const Vec3d& to) {
  Accessor acc = phi.getConstAccessor();
  const auto& xform = phi.transform();
  return to_world(phi, index_crossings(acc, xform.worldToIndex(from), xform.worldToIndex(to)));
}

NodePlacement place_nodes(const openvdb::FloatGrid& phi, const Vec3d& centre, std::size_t count,
                          NodeMethod method) {
  if (count == 0) throw std::invalid_argument("node count must be ≥ 1");
  if (method == NodeMethod::grid) return {grid_nodes(phi, centre, count), NodeMethod::grid};
  if (method != NodeMethod::surface) {
    const auto& xform = phi.transform();
    Accessor acc = phi.getConstAccessor();
    const Vec3d c = xform.worldToIndex(centre);
    const auto box = phi.evalActiveVoxelBoundingBox();
    bool star_shaped = openvdb::tools::BoxSampler::sample(acc, c) < 0;
    std::vector<Vec3d> nodes;
    for (const Vec3d& direction : spiral_directions(count)) {
      // The direction in index space (the transform may rotate), unit length there.
      Vec3d d = xform.worldToIndex(centre + direction) - c;
      d.normalize();
      auto hits = index_crossings(acc, c, c + d * exit_parameter(box, c, d));
      star_shaped = star_shaped && hits.size() == 1;
      nodes.insert(nodes.end(), hits.begin(), hits.end());
    }
    if (method == NodeMethod::rays || star_shaped) {
      if (nodes.empty()) throw std::runtime_error("no ray from the centre meets the surface");
      return {to_world(phi, std::move(nodes)), NodeMethod::rays};
    }
  }
  return {surface_nodes(phi, count), NodeMethod::surface};
}

}  // namespace scree::levelset
