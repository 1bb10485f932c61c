#include "solver/contact_points.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>


namespace scree::solver {

std::vector<ContactPatch> glue_contacts(const std::vector<NodeContact>& nodes, double glue_distance, double max_angle,
                                        double margin) {
  if (!(glue_distance > 0)) throw std::invalid_argument("glue distance must be > 0");
  const std::size_t n = nodes.size();
  const double min_cos = std::cos(max_angle), reach2 = glue_distance * glue_distance;

  // The patches are the connected parts of the graph "within the glue distance, normals
  // within the angle", found by flood fill through cells of the glue distance: each node meets
  // the 27 cells around it, and a node leaves its cell once reached, so a patch of k nodes
  // costs about k times a neighbourhood, not k² (a flat face on a floor has hundreds).
  using Cell = std::array<std::int64_t, 3>;
  auto cell_of = [&](const Eigen::Vector3d& p) {
    return Cell{std::int64_t(std::floor(p[0] / glue_distance)), std::int64_t(std::floor(p[1] / glue_distance)),
                std::int64_t(std::floor(p[2] / glue_distance))};
  };
  std::vector<std::pair<Cell, std::uint32_t>> by_cell(n);
  for (std::uint32_t i = 0; i < n; ++i) by_cell[i] = {cell_of(nodes[i].point), i};
  std::sort(by_cell.begin(), by_cell.end());
  struct CellNodes {
    Cell cell;
    std::uint32_t begin, end;  // the nodes not yet reached: slot[begin, end)
  };
  std::vector<CellNodes> cells;
  std::vector<std::uint32_t> slot(n), slot_of(n), cell_index(n);
  for (std::uint32_t k = 0; k < n; ++k) {
    if (cells.empty() || cells.back().cell != by_cell[k].first) cells.push_back({by_cell[k].first, k, k});
    slot[k] = by_cell[k].second;
    slot_of[slot[k]] = k;
    cell_index[slot[k]] = std::uint32_t(cells.size() - 1);
    ++cells.back().end;
  }
  auto take = [&](std::uint32_t j) {  // j leaves its cell's unreached nodes
    CellNodes& c = cells[cell_index[j]];
    const std::uint32_t last = slot[--c.end], k = slot_of[j];
    slot[k] = last, slot_of[last] = k;
    slot[c.end] = j, slot_of[j] = c.end;
  };
  constexpr std::uint32_t unreached = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> patch_root(n, unreached), queue;
  for (std::uint32_t seed = 0; seed < n; ++seed) {
    if (patch_root[seed] != unreached) continue;
    patch_root[seed] = seed;  // the smallest index of its patch: every smaller one is taken
    take(seed);
    queue.assign(1, seed);
    while (!queue.empty()) {
      const std::uint32_t i = queue.back();
      queue.pop_back();
      const Cell c = cell_of(nodes[i].point);
      for (std::int64_t dx = -1; dx <= 1; ++dx)
        for (std::int64_t dy = -1; dy <= 1; ++dy) {
          // The three cells along z are adjacent in the sorted order: one search finds them.
          const Cell from{c[0] + dx, c[1] + dy, c[2] - 1}, to{c[0] + dx, c[1] + dy, c[2] + 1};
          auto it = std::lower_bound(cells.begin(), cells.end(), from,
                                     [](const CellNodes& a, const Cell& b) { return a.cell < b; });
          for (; it != cells.end() && it->cell <= to; ++it)
            for (std::uint32_t k = it->begin; k < it->end;) {
              const std::uint32_t j = slot[k];
              if ((nodes[i].point - nodes[j].point).squaredNorm() > reach2 || nodes[i].normal.dot(nodes[j].normal) < min_cos) {
                ++k;
                continue;
              }
              patch_root[j] = seed;
              take(j);  // slot k now holds another unreached node
              queue.push_back(j);
            }
        }
    }
  }

  std::map<std::uint32_t, std::size_t> patch_of_root;  // ordered: patches by their first node
  std::vector<ContactPatch> patches;
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return nodes[a].node < nodes[b].node; });
  for (std::uint32_t i : order) {
    auto [it, added] = patch_of_root.try_emplace(patch_root[i], patches.size());
    if (added) patches.push_back({Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero(), nodes[i].depth, 0, nodes[i].node, {}});
    ContactPatch& p = patches[it->second];
    p.depth = std::max(p.depth, nodes[i].depth);
    p.members.push_back(i);
  }
  for (ContactPatch& p : patches) {
    auto weight = [&](std::uint32_t i) { return std::max(nodes[i].depth + margin, 0.0); };
    double weight_sum = 0;
    Eigen::Vector3d normal_sum = Eigen::Vector3d::Zero();
    for (std::uint32_t i : p.members) {
      const double w = weight(i);
      p.point += w * nodes[i].point;
      normal_sum += w * nodes[i].normal;
      weight_sum += w;
      p.weighted_depth += w * nodes[i].depth;
    }
    p.point /= weight_sum;
    p.weighted_depth /= weight_sum;
    p.normal = normal_sum.normalized();
  }
  return patches;
}

}  // namespace scree::solver
