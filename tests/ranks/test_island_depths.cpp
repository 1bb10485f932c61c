// A big island's depths found by ranks that each hold some of its units
// (solver/ranks/island_depths.h), on 1, 2, 3 and 4 ranks: the passes' budget and the coarse
// step's layers, groups, slots and H entries those one process finds over all the units.
#include <algorithm>

#include <gtest/gtest.h>

#include "solver/contacts/islands.h"
#include "solver/ranks/island_depths.h"

namespace scree::solver {
namespace {

// A triangle of grains on a floor (body `grains`, static; a frictionless side wall, body
// `grains` + 1, against the left edge), or on nothing: row r holds width − r grains, each
// resting on the two below it; row 0 on the floor. Units go to ranks by a rule that does not follow the places
// (unit u to rank (u / 3) % R), so that depths cross between the ranks many times.
struct Triangle {
  static constexpr std::uint32_t width = 9;
  std::uint32_t grains = 0;
  std::vector<CoarseUnit> units;
  std::vector<bool> is_static;
  explicit Triangle(bool on_floor) {
    std::vector<std::vector<std::uint32_t>> rows;
    for (std::uint32_t r = 0; r < width; ++r) {
      rows.emplace_back();
      for (std::uint32_t k = 0; k < width - r; ++k) rows.back().push_back(grains++);
    }
    const std::uint32_t floor = grains, wall = grains + 1;
    is_static.assign(grains + 2, false);
    is_static[floor] = is_static[wall] = true;
    for (std::uint32_t r = 0; r < width; ++r)
      for (std::uint32_t k = 0; k < rows[r].size(); ++k) {
        if (r == 0 && on_floor) units.push_back({rows[r][k], floor, true});
        if (k == 0 && on_floor) units.push_back({rows[r][k], wall, false});
        if (r > 0) units.push_back({rows[r][k], rows[r - 1][k], false}), units.push_back({rows[r][k], rows[r - 1][k + 1], false});
      }
  }
  static int rank_of(std::size_t unit, int ranks) { return int(unit / 3) % ranks; }
  // This rank's units and each body's other ranks (all phases: the depths read no phase).
  std::vector<CoarseUnit> mine(const Ranks& ranks, BodySharers& sharers) const {
    std::vector<CoarseUnit> here;
    std::vector<std::vector<char>> moves(is_static.size(), std::vector<char>(std::size_t(ranks.size()), 0));
    for (std::size_t u = 0; u < units.size(); ++u) {
      const int r = rank_of(u, ranks.size());
      moves[units[u].a][std::size_t(r)] = 1;
      if (!is_static[units[u].b]) moves[units[u].b][std::size_t(r)] = 1;
      if (r == ranks.rank()) here.push_back(units[u]);
    }
    sharers.start = {0};
    for (std::size_t b = 0; b < is_static.size(); ++b) {
      if (moves[b][std::size_t(ranks.rank())])
        for (int r = 0; r < ranks.size(); ++r)
          if (r != ranks.rank() && moves[b][std::size_t(r)]) sharers.list.push_back({r, 15});
      sharers.start.push_back(std::uint32_t(sharers.list.size()));
    }
    return here;
  }
};

// The budget one process gives the whole island (island_layers over its units as contacts).
int layers_of_all(const std::vector<CoarseUnit>& units, const std::vector<bool>& is_static) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  for (const CoarseUnit& u : units) pairs.emplace_back(u.a, u.b);
  const std::vector<Island> islands = contact_islands(pairs, is_static);
  EXPECT_EQ(islands.size(), 1u);
  return island_layers(islands.at(0), pairs, is_static);
}

void expect_one_process_depths(bool on_floor, bool fast_somewhere) {
  const Ranks ranks = Ranks::world();
  const Triangle triangle(on_floor);
  BodySharers sharers;
  const std::vector<CoarseUnit> here = triangle.mine(ranks, sharers);
  const bool fast = fast_somewhere && ranks.rank() == ranks.size() - 1;
  const bool holds_least = std::any_of(here.begin(), here.end(), [](const CoarseUnit& u) { return u.a == 0 || u.b == 0; });
  const IslandDepths depths =
      island_depths_across(here, true, fast, triangle.is_static, holds_least ? 0 : CoarseLayers::none, sharers, ranks);
  EXPECT_EQ(depths.layers, layers_of_all(triangle.units, triangle.is_static));
  EXPECT_GT(depths.layers, 3);
  const CoarseLayers all = coarse_layers(triangle.units, triangle.is_static);
  if (fast_somewhere || !on_floor) {
    EXPECT_LT(depths.coarse.layers, 3);  // no coarse step: a grain too fast, or no load path
    return;
  }
  EXPECT_EQ(all.layers, int(Triangle::width));
  EXPECT_EQ(depths.coarse.layers, all.layers);
  EXPECT_EQ(depths.coarse.groups, all.groups);
  EXPECT_EQ(depths.entries, coarse_entries(all));
  constexpr int slots = CoarseLayers::slots;
  auto place_in_all = [&](std::uint32_t body) {
    return std::size_t(std::find(all.grains.begin(), all.grains.end(), body) - all.grains.begin());
  };
  for (std::size_t g = 0; g < depths.coarse.grains.size(); ++g) {
    const std::size_t at = place_in_all(depths.coarse.grains[g]);
    for (int s = 0; s < slots; ++s)
      EXPECT_EQ(depths.coarse.grain_groups[g * slots + std::size_t(s)], all.grain_groups[at * slots + std::size_t(s)])
          << "grain " << depths.coarse.grains[g] << " slot " << s;
  }
  for (std::size_t k = 0, u = 0; u < triangle.units.size(); ++u) {
    if (Triangle::rank_of(u, ranks.size()) != ranks.rank()) continue;
    EXPECT_EQ(depths.coarse.unit_group[k], all.unit_group[u]) << "unit " << u;
    EXPECT_EQ(depths.coarse.slot_a[k], all.slot_a[u]) << "unit " << u;
    EXPECT_EQ(depths.coarse.slot_b[k], all.slot_b[u]) << "unit " << u;
    ++k;
  }
}

TEST(IslandDepths, AHeapsLayersAcrossRanksAreOneProcesss) { expect_one_process_depths(true, false); }

TEST(IslandDepths, AnIslandOnNothingCountsFromItsLeastGrainOnEveryRank) { expect_one_process_depths(false, false); }

TEST(IslandDepths, AFastGrainOnOneRankStopsTheCoarseStepOnAll) { expect_one_process_depths(true, true); }

}  // namespace
}  // namespace scree::solver
