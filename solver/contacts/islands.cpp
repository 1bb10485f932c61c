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

}  // namespace scree::solver
