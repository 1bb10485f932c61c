#include "solver/ranks/island_depths.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "solver/contacts/islands.h"

namespace scree::solver {

IslandDepths island_depths_across(const std::vector<CoarseUnit>& units, bool coarse, bool fast,
                                  const std::vector<bool>& is_static, std::uint32_t label_body, const BodySharers& sharers,
                                  const Ranks& ranks) {
  constexpr std::uint32_t none = CoarseLayers::none;
  CoarseLayers c = enlist_grains(units, is_static);
  const std::size_t n = c.grains.size();
  const DepthGraph graph(n, grain_links(c));
  // The island's depth from any static body (island_layers(): 1 on it) and its load's layers
  // (0 on a static body that bears the load); an island on nothing static counts from its
  // least grain.
  std::vector<int> depth(n, -1);
  for (std::size_t k = 0; k < units.size(); ++k)
    if (c.unit_b[k] == none) depth[c.unit_a[k]] = 1;
  std::array<double, 2> anywhere{n > 0 && std::count(depth.begin(), depth.end(), 1) > 0 ? 1.0 : 0.0, fast ? 1.0 : 0.0};
  ranks.max(anywhere);
  const bool grounded = anywhere[0] > 0;
  coarse = coarse && anywhere[1] == 0;
  if (!grounded)
    for (std::size_t g = 0; g < n; ++g)
      if (c.grains[g] == label_body) depth[g] = 1;
  std::vector<int> layer = coarse ? bearing_layers(units, c) : std::vector<int>(n, -1);

  // The grains shared with each other rank, in the order of their bodies (of their ids, on
  // every rank alike).
  std::vector<std::uint32_t> by_body(n);
  for (std::uint32_t g = 0; g < n; ++g) by_body[g] = g;
  std::sort(by_body.begin(), by_body.end(), [&](std::uint32_t x, std::uint32_t y) { return c.grains[x] < c.grains[y]; });
  std::map<int, std::vector<std::uint32_t>> shared;  // by rank, places
  for (std::uint32_t g : by_body)
    for (std::uint32_t k = sharers.start[c.grains[g]]; k < sharers.start[c.grains[g] + 1]; ++k) shared[sharers.list[k].rank].push_back(g);
  std::vector<int> partners;
  for (const auto& [rank, places] : shared) partners.push_back(rank);

  // Rounds until no depth falls on any rank: each spreads its own, tells the sharers its shared
  // grains' depths and group bits and takes the least. The bits of the last round, made of the
  // final depths on every rank, are each grain's groups over all its units.
  std::vector<std::uint8_t> bits;
  std::array<double, 3> round{};  // over the ranks: whether a depth fell, the deepest of each
  do {
    bool fell = graph.spread(depth);
    fell = graph.spread(layer) || fell;
    bits = coarse ? group_bits(units, c, layer) : std::vector<std::uint8_t>(n, 0);
    std::vector<Bytes> to;
    for (const auto& [rank, places] : shared) {
      std::vector<std::int32_t> values;
      for (std::uint32_t g : places) values.insert(values.end(), {depth[g], layer[g], bits[g]});
      to.push_back(to_bytes(std::span<const std::int32_t>(values)));
    }
    const std::vector<Bytes> from = ranks.exchange(partners, to);
    std::vector<std::uint8_t> theirs(n, 0);
    std::size_t k = 0;
    for (const auto& [rank, places] : shared) {
      const std::vector<std::int32_t> values = from_bytes<std::int32_t>(from[k++]);
      for (std::size_t j = 0; j < places.size(); ++j) {
        const std::uint32_t g = places[j];
        for (auto [mine, other] : {std::pair{&depth[g], values[3 * j]}, std::pair{&layer[g], values[3 * j + 1]}})
          if (other >= 0 && (*mine < 0 || other < *mine)) *mine = other, fell = true;
        theirs[g] |= std::uint8_t(values[3 * j + 2]);
      }
    }
    for (std::size_t g = 0; g < n; ++g) bits[g] |= theirs[g];
    auto deepest = [](const std::vector<int>& d) { return d.empty() ? -1.0 : double(*std::max_element(d.begin(), d.end())); };
    round = {fell ? 1.0 : 0.0, deepest(depth), deepest(layer)};
    ranks.max(round);
  } while (round[0] > 0);

  IslandDepths result;
  const int deepest = std::max(0, int(round[1]));
  result.layers = grounded ? deepest : 2 * (deepest - 1);
  if (!coarse) return result;
  assign_groups(units, layer, bits, c);
  c.layers = int(round[2]) + 1;
  if (c.layers >= 3) {  // else no coarse step: its sums are never taken
    std::set<std::pair<int, int>> entries;
    std::vector<std::array<int, 2>> mine;
    for (const auto& [row, column] : coarse_entries(c)) mine.push_back({row, column});
    for (const Bytes& bytes : ranks.gather_all(to_bytes(std::span<const std::array<int, 2>>(mine))))
      for (const std::array<int, 2>& at : from_bytes<std::array<int, 2>>(bytes)) entries.insert({at[0], at[1]});
    result.entries.assign(entries.begin(), entries.end());
    c.groups = result.entries.empty() ? 0 : result.entries.back().first + 1;
  }
  result.coarse = std::move(c);
  return result;
}

}  // namespace scree::solver
