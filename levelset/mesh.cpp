#include "levelset/mesh.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace scree::levelset {

namespace {

Vec3d vertex(const formats::TriangleMesh& m, std::uint32_t i) {
  return Vec3d(m.vertices[i][0], m.vertices[i][1], m.vertices[i][2]);
}

// Whether the 2-D point q lies in the triangle (a, b, c). Points on an edge count for exactly
// one of the two triangles sharing it: an edge accepts them only when it points "up"
// (dy > 0, or dy = 0 and dx < 0) after the triangle is turned counter-clockwise.
bool covers(double ax, double ay, double bx, double by, double cx, double cy, double qx, double qy) {
  double orientation = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  if (orientation == 0) return false;
  if (orientation < 0) std::swap(bx, cx), std::swap(by, cy);
  const double px[3] = {ax, bx, cx}, py[3] = {ay, by, cy};
  for (int e = 0; e < 3; ++e) {
    double ux = px[e], uy = py[e], vx = px[(e + 1) % 3], vy = py[(e + 1) % 3];
    double dx = vx - ux, dy = vy - uy;
    double side = dx * (qy - uy) - dy * (qx - ux);
    if (side < 0) return false;
    if (side == 0 && !(dy > 0 || (dy == 0 && dx < 0))) return false;
  }
  return true;
}

// Distance from p to the triangle (a, b, c): the closest point by Voronoi regions of the
// vertices, edges and face.
double triangle_distance(const Vec3d& p, const Vec3d& a, const Vec3d& b, const Vec3d& c) {
  const Vec3d ab = b - a, ac = c - a, ap = p - a;
  double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return ap.length();
  const Vec3d bp = p - b;
  double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return bp.length();
  double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return (p - (a + ab * (d1 / (d1 - d3)))).length();
  const Vec3d cp = p - c;
  double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return cp.length();
  double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return (p - (a + ac * (d2 / (d2 - d6)))).length();
  double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0)
    return (p - (b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6))))).length();
  double denominator = 1 / (va + vb + vc);
  return (p - (a + ab * (vb * denominator) + ac * (vc * denominator))).length();
}

// Triangles binned by the cells (of size `cell`) their boxes, grown by `reach`, overlap:
// the triangles within `reach` of a point are all in the point's cell.
class TriangleBins {
 public:
  TriangleBins(const formats::TriangleMesh& mesh, double cell, double reach) : mesh_(mesh), cell_(cell) {
    for (std::uint32_t t = 0; t < mesh.triangles.size(); ++t) {
      Vec3d lo(std::numeric_limits<double>::infinity()), hi = -lo;
      for (auto v : mesh.triangles[t])
        for (int a = 0; a < 3; ++a)
          lo[a] = std::min(lo[a], mesh.vertices[v][a]), hi[a] = std::max(hi[a], mesh.vertices[v][a]);
      openvdb::Coord l = key(lo - Vec3d(reach)), u = key(hi + Vec3d(reach));
      for (int i = l[0]; i <= u[0]; ++i)
        for (int j = l[1]; j <= u[1]; ++j)
          for (int k = l[2]; k <= u[2]; ++k) bins_[openvdb::Coord(i, j, k)].push_back(t);
    }
  }
  // Distance to the nearest triangle of p's cell; NaN when the cell holds none.
  double distance(const Vec3d& p) const {
    auto found = bins_.find(key(p));
    if (found == bins_.end()) return std::numeric_limits<double>::quiet_NaN();
    double best = std::numeric_limits<double>::infinity();
    for (std::uint32_t t : found->second) {
      const auto& tri = mesh_.triangles[t];
      best = std::min(best, triangle_distance(p, vertex(mesh_, tri[0]), vertex(mesh_, tri[1]), vertex(mesh_, tri[2])));
    }
    return best;
  }

 private:
  openvdb::Coord key(const Vec3d& p) const {
    return openvdb::Coord(int(std::floor(p[0] / cell_)), int(std::floor(p[1] / cell_)), int(std::floor(p[2] / cell_)));
  }
  const formats::TriangleMesh& mesh_;
  double cell_;
  std::map<openvdb::Coord, std::vector<std::uint32_t>> bins_;
};

struct Crossing {
  openvdb::Coord lower;  // the edge from `lower` to its +axis neighbour
  int axis;
  double first, last;  // fractions of the first and last hit along the edge
};

using Edge = std::pair<std::uint32_t, std::uint32_t>;  // (smaller, larger) vertex index

Edge undirected(std::uint32_t a, std::uint32_t b) { return {std::min(a, b), std::max(a, b)}; }

// How many triangles use each edge; a degenerate triangle's repeated vertex adds no edge.
std::map<Edge, int> edge_uses(const formats::TriangleMesh& mesh) {
  std::map<Edge, int> uses;
  for (const auto& t : mesh.triangles)
    for (int e = 0; e < 3; ++e)
      if (t[e] != t[(e + 1) % 3]) ++uses[undirected(t[e], t[(e + 1) % 3])];
  return uses;
}

}  // namespace

std::string open_mesh_problem(const formats::TriangleMesh& mesh) {
  const auto uses = edge_uses(mesh);
  std::size_t open = 0, overused = 0;
  Edge example{};
  for (const auto& [edge, count] : uses) {
    if (count == 2) continue;
    if (open + overused == 0) example = edge;
    (count == 1 ? open : overused) += 1;
  }
  if (open + overused == 0) return {};
  auto at = [&](std::uint32_t i) {
    std::ostringstream s;
    s << "(" << mesh.vertices[i][0] << ", " << mesh.vertices[i][1] << ", " << mesh.vertices[i][2] << ")";
    return s.str();
  };
  std::ostringstream s;
  s << "mesh is not closed: " << open << " edges belong to one triangle only and " << overused
    << " to more than two (first: " << at(example.first) << " to " << at(example.second) << ")";
  return s.str();
}

std::string fill_holes(formats::TriangleMesh& mesh) {
  const auto uses = edge_uses(mesh);
  // Each open edge a→b (as its triangle winds) is crossed back b→a by the patch.
  std::map<std::uint32_t, std::uint32_t> next;
  for (const auto& t : mesh.triangles)
    for (int e = 0; e < 3; ++e) {
      std::uint32_t a = t[e], b = t[(e + 1) % 3];
      if (a == b) continue;
      const int count = uses.at(undirected(a, b));
      if (count > 2) throw std::runtime_error(open_mesh_problem(mesh) + "; edges shared by more than two triangles cannot be repaired");
      if (count == 1 && !next.emplace(b, a).second)
        throw std::runtime_error(open_mesh_problem(mesh) + "; its open edges do not form simple loops");
    }
  std::size_t holes = 0, added = 0;
  while (!next.empty()) {
    std::vector<std::uint32_t> loop{next.begin()->first};
    while (true) {
      auto it = next.find(loop.back());
      if (it == next.end())
        throw std::runtime_error(open_mesh_problem(mesh) + "; its open edges do not form closed loops");
      std::uint32_t to = it->second;
      next.erase(it);
      if (to == loop.front()) break;
      loop.push_back(to);
    }
    for (std::size_t k = 1; k + 1 < loop.size(); ++k, ++added)
      mesh.triangles.push_back({loop[0], loop[k], loop[k + 1]});
    ++holes;
  }
  if (holes == 0) return {};
  return "filled " + std::to_string(holes) + (holes == 1 ? " hole" : " holes") + " with " +
         std::to_string(added) + (added == 1 ? " triangle" : " triangles");
}

double enclosed_volume(const formats::TriangleMesh& mesh) {
  double six_v = 0;
  for (const auto& t : mesh.triangles)
    six_v += vertex(mesh, t[0]).dot(vertex(mesh, t[1]).cross(vertex(mesh, t[2])));
  return std::abs(six_v) / 6;
}

void scale_mesh(formats::TriangleMesh& mesh, double factor) {
  for (auto& v : mesh.vertices)
    for (double& c : v) c *= factor;
}

void mesh_bounds(const formats::TriangleMesh& mesh, Vec3d& lower, Vec3d& upper) {
  lower = Vec3d(std::numeric_limits<double>::infinity());
  upper = -lower;
  for (const auto& v : mesh.vertices)
    for (int a = 0; a < 3; ++a) lower[a] = std::min(lower[a], v[a]), upper[a] = std::max(upper[a], v[a]);
}

InterfaceSamples sample_mesh(const formats::TriangleMesh& mesh, double h) {
  Vec3d lower, upper;
  mesh_bounds(mesh, lower, upper);
  InterfaceSamples s(grid_box(lower, upper, h, 2), h);
  const openvdb::CoordBBox& box = s.box;
  std::vector<std::uint8_t> votes(box.volume(), 0);
  std::vector<Crossing> crossings;

  for (int axis = 0; axis < 3; ++axis) {
    const int b = (axis + 1) % 3, c = (axis + 2) % 3;
    const int nb = box.dim()[b], nc = box.dim()[c];
    // Hits along each grid line (b, c), in metres along `axis`.
    std::vector<std::vector<double>> hits(std::size_t(nb) * nc);
    for (const auto& t : mesh.triangles) {
      Vec3d p[3] = {vertex(mesh, t[0]), vertex(mesh, t[1]), vertex(mesh, t[2])};
      double lo_b = std::min({p[0][b], p[1][b], p[2][b]}), hi_b = std::max({p[0][b], p[1][b], p[2][b]});
      double lo_c = std::min({p[0][c], p[1][c], p[2][c]}), hi_c = std::max({p[0][c], p[1][c], p[2][c]});
      for (int j = int(std::ceil(lo_b / h)); j <= int(std::floor(hi_b / h)); ++j)
        for (int k = int(std::ceil(lo_c / h)); k <= int(std::floor(hi_c / h)); ++k) {
          double qb = j * h, qc = k * h;
          if (!covers(p[0][b], p[0][c], p[1][b], p[1][c], p[2][b], p[2][c], qb, qc)) continue;
          // Barycentric weights of (qb, qc) in the projected triangle give the hit's depth.
          double det = (p[1][b] - p[0][b]) * (p[2][c] - p[0][c]) - (p[2][b] - p[0][b]) * (p[1][c] - p[0][c]);
          double w1 = ((qb - p[0][b]) * (p[2][c] - p[0][c]) - (p[2][b] - p[0][b]) * (qc - p[0][c])) / det;
          double w2 = ((p[1][b] - p[0][b]) * (qc - p[0][c]) - (qb - p[0][b]) * (p[1][c] - p[0][c])) / det;
          double depth = p[0][axis] + w1 * (p[1][axis] - p[0][axis]) + w2 * (p[2][axis] - p[0][axis]);
          hits[std::size_t(j - box.min()[b]) * nc + (k - box.min()[c])].push_back(depth);
        }
    }
    for (int j = 0; j < nb; ++j)
      for (int k = 0; k < nc; ++k) {
        auto& line = hits[std::size_t(j) * nc + k];
        std::sort(line.begin(), line.end());
        openvdb::Coord point;
        point[b] = box.min()[b] + j;
        point[c] = box.min()[c] + k;
        std::size_t passed = 0;  // hits below the current grid point
        for (int i = box.min()[axis]; i <= box.max()[axis]; ++i) {
          point[axis] = i;
          double x = i * h;
          std::size_t before = passed;
          while (passed < line.size() && line[passed] < x) ++passed;
          if (passed % 2 == 1) votes[s.index(point)] += 1;
          if (passed > before && (passed - before) % 2 == 1 && i > box.min()[axis]) {
            openvdb::Coord lower_point = point;
            lower_point[axis] = i - 1;
            crossings.push_back({lower_point, axis, (line[before] - (x - h)) / h,
                                 (line[passed - 1] - (x - h)) / h});
          }
        }
      }
  }
  for (std::size_t i = 0; i < votes.size(); ++i) s.inside[i] = votes[i] >= 2;
  // Exact distances for the points within a few voxels of the surface.
  auto bins = std::make_shared<TriangleBins>(mesh, 4 * h, 4 * h);
  s.surface_distance = [bins](const Vec3d& p) { return bins->distance(p); };
  for (const auto& x : crossings) {
    openvdb::Coord upper_point = x.lower;
    upper_point[x.axis] += 1;
    if (s.inside[s.index(x.lower)] == s.inside[s.index(upper_point)]) continue;
    s.add_crossing(x.lower, x.axis, std::clamp(x.first, 0.0, 1.0));
    s.add_crossing(x.lower, x.axis, std::clamp(x.last, 0.0, 1.0));
  }
  return s;
}

}  // namespace scree::levelset
