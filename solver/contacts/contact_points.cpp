#include "solver/contacts/contact_points.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "solver/contacts/union_find.h"

namespace scree::solver {

std::vector<ContactPatch> glue_contacts(const std::vector<NodeContact>& nodes, const geometry::NodeGraph& glued_nodes,
                                        double max_angle, double margin) {
  const std::size_t n = nodes.size();
  const double min_cos = std::cos(max_angle);

  // The nodes in node order; one beyond the graph or listed twice is refused.
  thread_local std::vector<std::uint32_t> order;
  order.resize(n);
  std::iota(order.begin(), order.end(), 0u);
  auto by_node = [&](std::uint32_t a, std::uint32_t b) { return nodes[a].node < nodes[b].node; };
  if (!std::is_sorted(order.begin(), order.end(), by_node)) std::sort(order.begin(), order.end(), by_node);
  for (std::size_t k = 0; k < n; ++k) {
    if (nodes[order[k]].node >= glued_nodes.node_count())
      throw std::invalid_argument("glue: a contact node beyond the shape's nodes");
    if (k > 0 && nodes[order[k]].node == nodes[order[k - 1]].node)
      throw std::invalid_argument("glue: a contact node listed twice");
  }

  // The patches are the connected parts of the graph "neighbours in `glued_nodes`, normals
  // within the angle", each named by its smallest index; the normals are compared only where
  // the two lie in different parts so far. i's root is kept through its neighbours: a join
  // makes the smaller of the two roots the root. The sets and lists are kept per thread: a
  // settled heap's search glues some 60 000 faces of ~13 nodes, and their allocations took a
  // good part of the glue (docs/benchmarks.md, "The fourteenth pass").
  thread_local SmallestRootSets sets;
  sets.reset(n);
  // Parts left: once one, nothing more can join (a face against a wall is one in 99.9 %).
  std::size_t parts = n;
  auto glue = [&](std::uint32_t i, std::uint32_t& root_i, std::uint32_t j) {
    const std::uint32_t root_j = sets.root(j);
    if (root_i != root_j && nodes[i].normal.dot(nodes[j].normal) >= min_cos) {
      root_i = sets.join_roots(root_i, root_j);
      --parts;
    }
  };
  // The neighbours are found whichever way tests fewer: the nodes pair by pair, or each node's
  // row of the graph, its listed neighbours found through `slot` (by node, kept per thread and
  // cleared after: the graph's size, not the nodes'). A face against a wall has a few hundred
  // nodes with some ten thousand pairs; a settled heap's glues take ~16 nodes whose rows hold
  // ~27 neighbours each (docs/benchmarks.md, "The fifteenth pass"). Either way the parts are
  // the same.
  std::size_t row_length = 0;
  for (const NodeContact& c : nodes) row_length += glued_nodes.neighbour_count_after(c.node);
  if (n * (n - 1) / 2 <= row_length) {
    for (std::uint32_t i = 0; i < n && parts > 1; ++i) {
      std::uint32_t root_i = sets.root(i);
      for (std::uint32_t j = i + 1; j < n; ++j)
        if (glued_nodes.within(nodes[i].node, nodes[j].node)) glue(i, root_i, j);
    }
  } else {
    constexpr std::uint32_t unlisted = std::numeric_limits<std::uint32_t>::max();
    thread_local std::vector<std::uint32_t> slot;
    if (slot.size() < glued_nodes.node_count()) slot.resize(glued_nodes.node_count(), unlisted);
    for (std::uint32_t i = 0; i < n; ++i) slot[nodes[i].node] = i;
    for (std::uint32_t i = 0; i < n && parts > 1; ++i) {
      std::uint32_t root_i = sets.root(i);
      for (std::uint32_t neighbour : glued_nodes.neighbours_after(nodes[i].node))
        if (const std::uint32_t j = slot[neighbour]; j != unlisted) glue(i, root_i, j);
    }
    for (const NodeContact& c : nodes) slot[c.node] = unlisted;
  }

  // Patches by their first node, each with its members counted before they are listed.
  constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
  thread_local std::vector<std::uint32_t> patch_of_root, member_count;
  patch_of_root.assign(n, none);
  member_count.clear();
  std::vector<ContactPatch> patches;
  for (std::uint32_t i : order) {
    std::uint32_t& index = patch_of_root[sets.root(i)];
    if (index == none) {
      index = std::uint32_t(patches.size());
      patches.push_back({Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero(), nodes[i].depth, 0, nodes[i].node, {}});
      member_count.push_back(0);
    }
    ++member_count[index];
  }
  for (std::size_t k = 0; k < patches.size(); ++k) patches[k].members.reserve(member_count[k]);
  for (std::uint32_t i : order) {
    ContactPatch& p = patches[patch_of_root[sets.root(i)]];
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
