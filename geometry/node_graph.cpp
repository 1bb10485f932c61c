#include "geometry/node_graph.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

namespace scree::geometry {

NodeGraph nodes_within(const std::vector<Eigen::Vector3f>& points, double distance) {
  if (!(distance > 0)) throw std::invalid_argument("node graph: the distance must be > 0");
  const std::size_t n = points.size();
  auto cell_of = [&](const Eigen::Vector3f& p) {
    std::array<std::int64_t, 3> c;
    for (int axis = 0; axis < 3; ++axis) c[axis] = std::int64_t(std::floor(double(p[axis]) / distance));
    return c;
  };
  // Points sorted by cell, x slowest; a cell's 27 neighbours are looked up by binary search.
  std::vector<std::pair<std::array<std::int64_t, 3>, std::uint32_t>> by_cell(n);
  for (std::uint32_t i = 0; i < n; ++i) by_cell[i] = {cell_of(points[i]), i};
  std::sort(by_cell.begin(), by_cell.end());
  NodeGraph graph;
  graph.points = points;
  graph.reach2 = distance * distance;
  std::vector<std::vector<std::uint32_t>> after(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const auto c = cell_of(points[i]);
    for (std::int64_t dx = -1; dx <= 1; ++dx)
      for (std::int64_t dy = -1; dy <= 1; ++dy) {
        // Cells (x + dx, y + dy, z − 1 .. z + 1) are consecutive in the sorted order.
        const std::array<std::int64_t, 3> from{c[0] + dx, c[1] + dy, c[2] - 1}, to{c[0] + dx, c[1] + dy, c[2] + 1};
        auto it = std::lower_bound(by_cell.begin(), by_cell.end(), from, [](const auto& e, const auto& k) { return e.first < k; });
        for (; it != by_cell.end() && it->first <= to; ++it) {
          const std::uint32_t j = it->second;
          if (j > i && graph.within(i, j)) after[i].push_back(j);
        }
      }
  }
  graph.start.reserve(n + 1);
  for (std::vector<std::uint32_t>& row : after) {
    std::sort(row.begin(), row.end());
    graph.adjacent.insert(graph.adjacent.end(), row.begin(), row.end());
    graph.start.push_back(std::uint32_t(graph.adjacent.size()));
  }
  return graph;
}

}  // namespace scree::geometry
