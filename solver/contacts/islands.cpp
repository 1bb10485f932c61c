#include "solver/contacts/islands.h"

#include <algorithm>
#include <map>
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
  std::map<std::uint32_t, Island> by_root;
  for (std::uint32_t c = 0; c < pairs.size(); ++c) {
    const auto [a, b] = pairs[c];
    if (is_static[a] && is_static[b]) continue;
    by_root[sets.root(is_static[a] ? b : a)].contacts.push_back(c);
  }
  for (auto& [r, island] : by_root) {
    for (std::uint32_t c : island.contacts)
      for (std::uint32_t body : {pairs[c].first, pairs[c].second})
        if (!is_static[body]) island.bodies.push_back(body);
    std::sort(island.bodies.begin(), island.bodies.end());
    island.bodies.erase(std::unique(island.bodies.begin(), island.bodies.end()), island.bodies.end());
  }
  std::vector<Island> islands;
  for (auto& [r, island] : by_root) islands.push_back(std::move(island));
  return islands;
}

int island_layers(const Island& island, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs,
                  const std::vector<bool>& is_static) {
  auto local = [&](std::uint32_t body) {
    return std::uint32_t(std::lower_bound(island.bodies.begin(), island.bodies.end(), body) - island.bodies.begin());
  };
  // Neighbours as sorted (grain, neighbour) pairs in the island's own numbering.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> links;
  std::vector<int> layer(island.bodies.size(), 0);
  std::vector<std::uint32_t> front;
  for (std::uint32_t c : island.contacts) {
    const auto [a, b] = pairs[c];
    if (is_static[a] || is_static[b]) {
      const std::uint32_t grain = local(is_static[a] ? b : a);
      if (layer[grain] == 0) front.push_back(grain);
      layer[grain] = 1;
      continue;
    }
    links.emplace_back(local(a), local(b));
    links.emplace_back(local(b), local(a));
  }
  std::sort(links.begin(), links.end());
  const bool grounded = !front.empty();
  if (!grounded && !island.bodies.empty()) {
    front.push_back(0);
    layer[0] = 1;
  }
  int deepest = front.empty() ? 0 : 1;
  while (!front.empty()) {  // breadth first, layer by layer
    std::vector<std::uint32_t> next;
    for (std::uint32_t g : front)
      for (auto it = std::lower_bound(links.begin(), links.end(), std::pair<std::uint32_t, std::uint32_t>{g, 0});
           it != links.end() && it->first == g; ++it)
        if (layer[it->second] == 0) {
          layer[it->second] = layer[g] + 1;
          deepest = layer[g] + 1;
          next.push_back(it->second);
        }
    front = std::move(next);
  }
  return grounded ? deepest : 2 * (deepest - 1);
}

}  // namespace scree::solver
