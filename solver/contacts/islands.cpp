#include "solver/contacts/islands.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "solver/contacts/union_find.h"

namespace scree::solver {

std::vector<Island> contact_islands(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs,
                                    const std::vector<bool>& is_static) {
  const std::size_t n = is_static.size();
  SmallestRootSets sets(n);
  for (const auto& [a, b] : pairs) {
    if (a >= n || b >= n) throw std::out_of_range("contact island: body index beyond the body list");
    if (is_static[a] || is_static[b]) continue;
    sets.join(a, b);
  }
  // Islands by their root, the smallest body: numbered in root order.
  constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> island_of_root(n, none), root_of_contact(pairs.size(), none);
  for (std::uint32_t c = 0; c < pairs.size(); ++c) {
    const auto [a, b] = pairs[c];
    if (is_static[a] && is_static[b]) continue;
    root_of_contact[c] = sets.root(is_static[a] ? b : a);
    island_of_root[root_of_contact[c]] = 0;
  }
  std::uint32_t count = 0;
  for (std::uint32_t& island : island_of_root)
    if (island != none) island = count++;
  std::vector<Island> islands(count);
  for (std::uint32_t c = 0; c < pairs.size(); ++c)
    if (root_of_contact[c] != none) islands[island_of_root[root_of_contact[c]]].contacts.push_back(c);
  // Each island's bodies, each once (a heap's island has ~60 contacts' ends a grain), sorted.
  std::vector<char> listed(n, false);
  for (Island& island : islands) {
    for (std::uint32_t c : island.contacts)
      for (std::uint32_t body : {pairs[c].first, pairs[c].second})
        if (!is_static[body] && !listed[body]) {
          listed[body] = true;
          island.bodies.push_back(body);
        }
    std::sort(island.bodies.begin(), island.bodies.end());
  }
  return islands;
}

int island_layers(const Island& island, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs,
                  const std::vector<bool>& is_static) {
  // A body's place in the island, by a table (kept per thread; only this island's bodies are
  // read, so it is never cleared) rather than a search a point.
  thread_local std::vector<std::uint32_t> place;
  if (!island.bodies.empty() && place.size() <= island.bodies.back()) place.resize(island.bodies.back() + 1);
  for (std::uint32_t k = 0; k < island.bodies.size(); ++k) place[island.bodies[k]] = k;
  auto local = [&](std::uint32_t body) { return place[body]; };
  // Neighbours in the island's own numbering, grain by grain (each link once per run of
  // points of the same pair), and the grains resting on something static as the first layer.
  const std::size_t grains = island.bodies.size();
  std::vector<std::uint32_t> first(grains + 1, 0), links;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> linked;
  std::vector<int> layer(grains, 0);
  std::vector<std::uint32_t> front;
  const std::pair<std::uint32_t, std::uint32_t>* previous = nullptr;
  for (std::uint32_t c : island.contacts) {
    const auto [a, b] = pairs[c];
    if (is_static[a] || is_static[b]) {
      const std::uint32_t grain = local(is_static[a] ? b : a);
      if (layer[grain] == 0) front.push_back(grain);
      layer[grain] = 1;
      continue;
    }
    if (previous && pairs[c] == *previous) continue;
    previous = &pairs[c];
    linked.emplace_back(local(a), local(b));
    ++first[linked.back().first + 1], ++first[linked.back().second + 1];
  }
  for (std::size_t g = 0; g < grains; ++g) first[g + 1] += first[g];
  links.resize(first[grains]);
  std::vector<std::uint32_t> filled(first.begin(), first.end() - 1);
  for (const auto& [a, b] : linked) links[filled[a]++] = b, links[filled[b]++] = a;
  const bool grounded = !front.empty();
  if (!grounded && !island.bodies.empty()) {
    front.push_back(0);
    layer[0] = 1;
  }
  int deepest = front.empty() ? 0 : 1;
  while (!front.empty()) {  // breadth first, layer by layer
    std::vector<std::uint32_t> next;
    for (std::uint32_t g : front)
      for (std::uint32_t k = first[g]; k < first[g + 1]; ++k)
        if (layer[links[k]] == 0) {
          layer[links[k]] = layer[g] + 1;
          deepest = layer[g] + 1;
          next.push_back(links[k]);
        }
    front = std::move(next);
  }
  return grounded ? deepest : 2 * (deepest - 1);
}

DepthGraph::DepthGraph(std::size_t grains, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& links)
    : first_(grains + 1, 0), neighbours_(2 * links.size()) {
  for (const auto& [a, b] : links) ++first_[a + 1], ++first_[b + 1];
  for (std::size_t g = 0; g < grains; ++g) first_[g + 1] += first_[g];
  std::vector<std::uint32_t> filled(first_.begin(), first_.end() - 1);
  for (const auto& [a, b] : links) neighbours_[filled[a]++] = b, neighbours_[filled[b]++] = a;
}

bool DepthGraph::spread(std::vector<int>& depth) const {
  // Grains by depth, shallowest first (buckets): a grain reached at d is met before any at d + 1.
  std::vector<std::vector<std::uint32_t>> at_depth;
  for (std::uint32_t g = 0; g < depth.size(); ++g)
    if (depth[g] >= 0) {
      if (at_depth.size() <= std::size_t(depth[g])) at_depth.resize(std::size_t(depth[g]) + 1);
      at_depth[std::size_t(depth[g])].push_back(g);
    }
  bool fell = false;
  for (std::size_t d = 0; d < at_depth.size(); ++d)
    for (std::size_t k = 0; k < at_depth[d].size(); ++k) {
      const std::uint32_t g = at_depth[d][k];
      if (depth[g] != int(d)) continue;  // met again at a lesser depth
      for (std::uint32_t j = first_[g]; j < first_[g + 1]; ++j)
        if (int& next = depth[neighbours_[j]]; next < 0 || next > int(d) + 1) {
          next = int(d) + 1;
          fell = true;
          if (at_depth.size() <= d + 1) at_depth.resize(d + 2);
          at_depth[d + 1].push_back(neighbours_[j]);
        }
    }
  return fell;
}

}  // namespace scree::solver

