#include "solver/contacts/contact_points.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "solver/contacts/union_find.h"

namespace scree::solver {

namespace {

// The flood fill of glue_contacts: cells of the glue distance, each node meeting the 27
// cells around it, and a node leaving its cell once reached, so a patch of k nodes costs
// about k times a neighbourhood, not k². Cells are numbered z fastest from the lowest corner,
// 21 bits an axis (a grain spans a few dozen glue distances), so a cell and its neighbours
// along z have consecutive keys. `patch_root` (all unreached) gets each node's patch, named
// by its smallest index.
template <class Glued>
void flood_patches(const std::vector<NodeContact>& nodes, double glue_distance, const Glued& glued,
                   std::vector<std::uint32_t>& patch_root) {
  const std::size_t n = nodes.size();
  std::array<std::int64_t, 3> low{};
  for (int axis = 0; axis < 3; ++axis) {
    double least = std::numeric_limits<double>::infinity();
    for (const NodeContact& c : nodes) least = std::min(least, c.point[axis]);
    low[axis] = n ? std::int64_t(std::floor(least / glue_distance)) - 1 : 0;
  }
  constexpr std::uint64_t bits = 21, axis_cells = std::uint64_t(1) << bits;
  auto key_of = [&](std::uint64_t x, std::uint64_t y, std::uint64_t z) { return (x << 2 * bits) | (y << bits) | z; };
  auto cell_of = [&](const Eigen::Vector3d& p) {
    std::array<std::uint64_t, 3> c;
    for (int axis = 0; axis < 3; ++axis) {
      c[axis] = std::uint64_t(std::int64_t(std::floor(p[axis] / glue_distance)) - low[axis]);
      if (c[axis] + 1 >= axis_cells) throw std::invalid_argument("contact nodes spread over more than 2^21 glue distances");
    }
    return c;
  };
  std::vector<std::pair<std::uint64_t, std::uint32_t>> by_cell(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const auto c = cell_of(nodes[i].point);
    by_cell[i] = {key_of(c[0], c[1], c[2]), i};
  }
  std::sort(by_cell.begin(), by_cell.end());
  struct CellNodes {
    std::uint64_t key;
    std::uint32_t begin, end;  // the nodes not yet reached: slot[begin, end)
    std::uint32_t columns = 0;  // where its 3 × 3 columns of neighbours start in `column_ranges`; 0: not yet found
  };
  std::vector<CellNodes> cells;
  std::vector<std::uint32_t> slot(n), slot_of(n), cell_index(n);
  for (std::uint32_t k = 0; k < n; ++k) {
    if (cells.empty() || cells.back().key != by_cell[k].first) cells.push_back({by_cell[k].first, k, k});
    slot[k] = by_cell[k].second;
    slot_of[slot[k]] = k;
    cell_index[slot[k]] = std::uint32_t(cells.size() - 1);
    ++cells.back().end;
  }
  // The cells of each of a cell's nine columns (z − 1 to z + 1), found once per cell.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> column_ranges(1);
  auto columns_of = [&](std::uint32_t cell, const Eigen::Vector3d& p) {
    if (cells[cell].columns) return cells[cell].columns;
    cells[cell].columns = std::uint32_t(column_ranges.size());
    const auto c = cell_of(p);
    for (std::uint64_t dx = 0; dx < 3; ++dx)
      for (std::uint64_t dy = 0; dy < 3; ++dy) {
        const std::uint64_t from = key_of(c[0] + dx - 1, c[1] + dy - 1, c[2] - 1), to = from + 2;
        auto first = std::lower_bound(cells.begin(), cells.end(), from, [](const CellNodes& a, std::uint64_t k) { return a.key < k; });
        auto last = first;
        while (last != cells.end() && last->key <= to) ++last;
        column_ranges.push_back({std::uint32_t(first - cells.begin()), std::uint32_t(last - cells.begin())});
      }
    return cells[cell].columns;
  };
  auto take = [&](std::uint32_t j) {  // j leaves its cell's unreached nodes
    CellNodes& c = cells[cell_index[j]];
    const std::uint32_t last = slot[--c.end], k = slot_of[j];
    slot[k] = last, slot_of[last] = k;
    slot[c.end] = j, slot_of[j] = c.end;
  };
  constexpr std::uint32_t unreached = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> queue;
  for (std::uint32_t seed = 0; seed < n; ++seed) {
    if (patch_root[seed] != unreached) continue;
    patch_root[seed] = seed;  // the smallest index of its patch: every smaller one is taken
    take(seed);
    queue.assign(1, seed);
    while (!queue.empty()) {
      const std::uint32_t i = queue.back();
      queue.pop_back();
      const std::uint32_t columns = columns_of(cell_index[i], nodes[i].point);
      for (std::uint32_t column = columns; column < columns + 9; ++column)
        for (std::uint32_t cell = column_ranges[column].first; cell < column_ranges[column].second; ++cell)
          for (std::uint32_t k = cells[cell].begin; k < cells[cell].end;) {
            const std::uint32_t j = slot[k];
            if (!glued(i, j)) {
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

}  // namespace

std::vector<ContactPatch> glue_contacts(const std::vector<NodeContact>& nodes, double glue_distance, double max_angle,
                                        double margin) {
  if (!(glue_distance > 0)) throw std::invalid_argument("glue distance must be > 0");
  const std::size_t n = nodes.size();
  const double min_cos = std::cos(max_angle), reach2 = glue_distance * glue_distance;

  // The patches are the connected parts of the graph "within the glue distance, normals
  // within the angle", each named by its smallest index. A few dozen nodes (a pair's contact
  // in a heap) are joined pair by pair; more (a flat face on a floor has hundreds) by flood
  // fill through cells of the glue distance, below.
  constexpr std::uint32_t unreached = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> patch_root(n, unreached);
  auto glued = [&](std::uint32_t i, std::uint32_t j) {
    return (nodes[i].point - nodes[j].point).squaredNorm() <= reach2 && nodes[i].normal.dot(nodes[j].normal) >= min_cos;
  };
  if (n <= 48) {
    SmallestRootSets sets(n);
    for (std::uint32_t i = 0; i < n; ++i)
      for (std::uint32_t j = i + 1; j < n; ++j)
        if (glued(i, j)) sets.join(i, j);
    for (std::uint32_t i = 0; i < n; ++i) patch_root[i] = sets.root(i);
  } else {
    flood_patches(nodes, glue_distance, glued, patch_root);
  }

  constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
  std::vector<std::size_t> patch_of_root(n, none);  // patches by their first node
  std::vector<ContactPatch> patches;
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  auto by_node = [&](std::uint32_t a, std::uint32_t b) { return nodes[a].node < nodes[b].node; };
  if (!std::is_sorted(order.begin(), order.end(), by_node)) std::sort(order.begin(), order.end(), by_node);
  for (std::uint32_t i : order) {
    std::size_t& index = patch_of_root[patch_root[i]];
    if (index == none) {
      index = patches.size();
      patches.push_back({Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero(), nodes[i].depth, 0, nodes[i].node, {}});
    }
    ContactPatch& p = patches[index];
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
