// Islands across ranks by label propagation (solver/ranks/island_labels.h), on 1, 2, 3 and 4
// ranks: every grain a rank holds gets the least id of its island, as one union-find over all
// the links would give, and the rank that owns that grain, with an island that runs across
// the regions among them.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include "solver/contacts/union_find.h"
#include "solver/ranks/island_labels.h"

namespace scree::solver {
namespace {

TEST(IslandLabels, EveryRankNamesEachIslandByItsLeastId) {
  const Ranks ranks = Ranks::world();
  // 300 grains at random in 12 × 8 m, and a row of 30 along x across all of it, 0.4 m apart,
  // whose ids are the least and fall along x (its label, 1, must travel the row's length);
  // grains closer than 0.45 m are linked.
  std::mt19937_64 random(21);
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<Grain> everything;
  for (std::uint64_t k = 0; k < 330; ++k) {
    const std::uint64_t id = k < 300 ? 100 + 3 * ((k * 7919) % 300) : 330 - k;
    Grain g{id, 0, 0, 1, RigidBody::from_template(2650, 1, Vec3::Ones(), 0.2)};
    g.body.position = k < 300 ? Vec3(12 * unit(random), 8 * unit(random), 0) : Vec3(0.2 + 0.4 * double(k - 300), 4.1, 0);
    everything.push_back(g);
  }
  std::sort(everything.begin(), everything.end(), [](const Grain& x, const Grain& y) { return x.id < y.id; });
  auto linked = [](const Grain& x, const Grain& y) { return (x.body.position - y.body.position).norm() < 0.45; };
  // The whole graph's islands, on one union-find (indices in id order: the root is the least id).
  SmallestRootSets whole(everything.size());
  for (std::uint32_t a = 0; a < everything.size(); ++a)
    for (std::uint32_t b = a + 1; b < everything.size(); ++b)
      if (linked(everything[a], everything[b])) whole.join(a, b);
  std::map<std::uint64_t, std::uint64_t> expected;
  for (std::uint32_t a = 0; a < everything.size(); ++a) expected[everything[a].id] = everything[whole.root(a)].id;

  World w;
  w.shapes.push_back(GrainShape::sphere(0.2));
  std::vector<Grain> mine;
  for (std::size_t k = std::size_t(ranks.rank()); k < everything.size(); k += std::size_t(ranks.size())) mine.push_back(everything[k]);
  w.replace_grains(mine);
  std::vector<char> owned(w.grain_count(), 1);
  std::vector<Vec3> places;
  for (const Grain& g : everything) places.push_back(g.body.position);
  const Decomposition regions = Decomposition::bisection(places, std::vector<std::int64_t>(places.size(), 1), ranks.size());
  const Halo halo = share_grains(w, owned, regions, 0.6, ranks);
  // The links this rank finds: between grains it holds, one of them its own.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> links;
  for (std::uint32_t a = 0; a < w.grain_count(); ++a)
    for (std::uint32_t b = a + 1; b < w.grain_count(); ++b)
      if ((owned[a] || owned[b]) && linked(w.grain(a), w.grain(b))) links.emplace_back(a, b);
  const std::vector<IslandLabel> labels = island_labels(w.id, links, halo, ranks);
  ASSERT_EQ(labels.size(), w.grain_count());
  std::map<std::uint64_t, int> owner;  // by id
  for (const Grain& g : everything) owner[g.id] = regions.owner(g.body.position);
  for (std::uint32_t i = 0; i < w.grain_count(); ++i) {
    EXPECT_EQ(labels[i].id, expected.at(w.id[i])) << "grain " << w.id[i];
    EXPECT_EQ(labels[i].owner, owner.at(labels[i].id)) << "grain " << w.id[i];
  }
  // The row is one island, across regions.
  std::vector<std::uint64_t> row;
  for (std::uint64_t k = 300; k < 330; ++k) row.push_back(330 - k);
  std::vector<int> owners;
  for (std::uint64_t id : row) {
    EXPECT_EQ(expected.at(id), 1u);
    const auto at = std::find_if(everything.begin(), everything.end(), [&](const Grain& g) { return g.id == id; });
    owners.push_back(regions.owner(at->body.position));
  }
  std::sort(owners.begin(), owners.end());
  EXPECT_GE(std::unique(owners.begin(), owners.end()) - owners.begin(), std::min(ranks.size(), 2));
}

}  // namespace
}  // namespace scree::solver
