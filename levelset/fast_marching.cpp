#include "levelset/fast_marching.h"

#include <openvdb/tools/SignedFloodFill.h>

#include <algorithm>
#include <cmath>
#include <queue>
#include <stdexcept>
#include <vector>

namespace scree::levelset {

namespace {

struct Trial {
  float value;  // |φ| tentative
  openvdb::Coord coord;
  bool operator>(const Trial& o) const { return value > o.value; }
};

constexpr int neighbours[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
openvdb::Coord operator+(const openvdb::Coord& c, const int (&d)[3]) {
  return openvdb::Coord(c[0] + d[0], c[1] + d[1], c[2] + d[2]);
}

// One axis's upwind term α² (u − m)²: first order α = 1, m = u₁; second order α = 3/2,
// m = (4 u₁ − u₂) / 3 from the one-sided difference (3u − 4u₁ + u₂) / 2h.
struct AxisTerm {
  double m = std::numeric_limits<double>::infinity();
  double weight = 1;  // α²
};

// The largest root u of Σ_a α_a² max(u − m_a, 0)² = step², adding axes in order of m while
// the root lies above the next m.
double upwind(std::array<AxisTerm, 3> terms, double step) {
  std::sort(terms.begin(), terms.end(), [](const AxisTerm& a, const AxisTerm& b) { return a.m < b.m; });
  double a = 0, b = 0, c = -step * step, u = terms[0].m + step / std::sqrt(terms[0].weight);
  for (int k = 0; k < 3 && std::isfinite(terms[k].m); ++k) {
    a += terms[k].weight;
    b += terms[k].weight * terms[k].m;
    c += terms[k].weight * terms[k].m * terms[k].m;
    double disc = b * b - a * c;
    if (disc < 0) break;  // the axes disagree too much to share a front: keep the last root
    u = (b + std::sqrt(disc)) / a;
    if (k == 2 || u <= terms[k + 1].m) break;
  }
  return u;
}

// Marches the side of sign `sign` (+1 outside, −1 inside) into `result`, whose active voxels
// are the accepted points, up to |φ| ≤ limit.
void march_side(openvdb::FloatGrid& result, const openvdb::FloatGrid& boundary, float sign,
                double limit, const MarchOptions& options, std::size_t& accepted_count) {
  const double h = result.voxelSize()[0];
  const auto& xform = result.transform();
  auto accepted = result.getAccessor();
  openvdb::FloatGrid tentative(std::numeric_limits<float>::infinity());
  auto trial = tentative.getAccessor();
  std::priority_queue<Trial, std::vector<Trial>, std::greater<>> heap;

  // Boundary points of a closed interface enclose the inside: an inside point beyond their
  // box means the interface leaks, and the march would never end.
  openvdb::CoordBBox enclosure = boundary.evalActiveVoxelBoundingBox();
  enclosure.expand(1);
  auto update = [&](const openvdb::Coord& c) {
    if (accepted.isValueOn(c)) return;
    if (sign < 0 && std::isinf(limit) && !enclosure.isInside(c))
      throw std::runtime_error("the surface is not closed: its inside reaches beyond the grid");
    std::array<AxisTerm, 3> terms;
    for (int a = 0; a < 3; ++a) {
      int upwind_side = 0;
      for (int side : {-1, 1}) {
        openvdb::Coord n = c;
        n[a] += side;
        float v;
        if (accepted.probeValue(n, v) && v * sign >= 0 && v * sign < terms[a].m)
          terms[a].m = v * sign, upwind_side = side;
      }
      if (options.order < 2 || upwind_side == 0) continue;
      openvdb::Coord n2 = c;
      n2[a] += 2 * upwind_side;
      float v2;
      if (accepted.probeValue(n2, v2) && v2 * sign >= 0 && v2 * sign <= terms[a].m)
        terms[a] = {(4 * terms[a].m - v2 * sign) / 3, 2.25};
    }
    double step = h;
    if (options.speed) step *= options.speed(xform.indexToWorld(c));
    double u = upwind(terms, step);
    if (u > limit || !(u < trial.getValue(c))) return;
    trial.setValue(c, float(u));
    heap.push({float(u), c});
  };

  // A boundary point seeds the side its sign bit names: −0 is a point of the inside lying
  // on the surface, and its neighbours inside are not boundary points.
  for (auto it = boundary.cbeginValueOn(); it; ++it)
    if (std::signbit(*it) == (sign < 0))
      for (const auto& d : neighbours) update(it.getCoord() + d);
  while (!heap.empty()) {
    Trial t = heap.top();
    heap.pop();
    if (accepted.isValueOn(t.coord) || t.value > trial.getValue(t.coord)) continue;  // stale
    accepted.setValueOn(t.coord, sign * t.value);
    if (options.progress && ++accepted_count % 65536 == 0) options.progress(accepted_count);
    for (const auto& d : neighbours) update(t.coord + d);
  }
}

}  // namespace

openvdb::FloatGrid::Ptr march(const openvdb::FloatGrid& boundary, const MarchOptions& options) {
  const double h = boundary.voxelSize()[0];
  const float background = float(options.outside_width * h);
  auto result = openvdb::FloatGrid::create(background);
  result->setTransform(boundary.transform().copy());
  result->setGridClass(openvdb::GRID_LEVEL_SET);
  auto acc = result->getAccessor();
  for (auto it = boundary.cbeginValueOn(); it; ++it) acc.setValueOn(it.getCoord(), *it);
  std::size_t accepted = boundary.activeVoxelCount();
  march_side(*result, boundary, +1, options.outside_width * h, options, accepted);
  march_side(*result, boundary, -1, options.inside_width * h, options, accepted);
  openvdb::tools::signedFloodFill(result->tree());
  return result;
}

}  // namespace scree::levelset
