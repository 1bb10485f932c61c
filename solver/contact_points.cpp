#include "solver/contact_points.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>

#include "solver/union_find.h"
#include <tuple>

namespace scree::solver {

std::vector<ContactPatch> glue_contacts(const std::vector<NodeContact>& nodes, double glue_distance, double max_angle,
                                        double margin) {
  if (!(glue_distance > 0)) throw std::invalid_argument("glue distance must be > 0");
  const std::size_t n = nodes.size();
  SmallestRootSets sets(n);
  const double min_cos = std::cos(max_angle), reach2 = glue_distance * glue_distance;

  // Neighbours through cells of the glue distance: each node meets the 27 cells around it.
  using Cell = std::tuple<long, long, long>;
  auto cell_of = [&](const Eigen::Vector3d& p) {
    return Cell{long(std::floor(p[0] / glue_distance)), long(std::floor(p[1] / glue_distance)),
                long(std::floor(p[2] / glue_distance))};
  };
  std::map<Cell, std::vector<std::uint32_t>> cells;
  for (std::uint32_t i = 0; i < n; ++i) cells[cell_of(nodes[i].point)].push_back(i);
  for (std::uint32_t i = 0; i < n; ++i) {
    const auto [x, y, z] = cell_of(nodes[i].point);
    for (long dx = -1; dx <= 1; ++dx)
      for (long dy = -1; dy <= 1; ++dy)
        for (long dz = -1; dz <= 1; ++dz) {
          auto it = cells.find(Cell{x + dx, y + dy, z + dz});
          if (it == cells.end()) continue;
          for (std::uint32_t j : it->second) {
            if (j <= i || (nodes[i].point - nodes[j].point).squaredNorm() > reach2 ||
                nodes[i].normal.dot(nodes[j].normal) < min_cos)
              continue;
            sets.join(i, j);
          }
        }
  }

  std::map<std::uint32_t, std::size_t> patch_of_root;  // ordered: patches by their first node
  std::vector<ContactPatch> patches;
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return nodes[a].node < nodes[b].node; });
  for (std::uint32_t i : order) {
    auto [it, added] = patch_of_root.try_emplace(sets.root(i), patches.size());
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
