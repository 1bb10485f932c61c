// Grains handed among ranks (solver/ranks/share_grains.h), on 1, 2, 3 and 4 ranks: each rank
// ends with its own grains and its halo, in id order, bit for bit as they were, every grain
// owned by one rank, and with the resting impulses of the grains it holds; again after the
// grains have moved across the regions, and after the regions are cut anew.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>

#include "solver/ranks/share_grains.h"

namespace scree::solver {
namespace {

// The grains every rank knows of in this test: 408 spheres in a flat heap, their ids a
// shuffle of 1000, 1007, …, in blocks of twelve by id: each grain of an odd block lies 0.3 m
// from the grain twelve ids before it and rests on it (a pair every rank count's first share
// puts on one rank: below); every grain rests on the floor (wall 0) at one node.
struct Everything {
  std::vector<Grain> grains;  // ascending ids
  std::map<std::pair<std::uint64_t, std::uint64_t>, RestingImpulses::Impulse> on_grain;  // (A, B) ids
  std::map<std::uint64_t, RestingImpulses::Impulse> on_floor;                           // by A
};

Everything everything() {
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<std::uint64_t> ids(408);
  for (std::size_t k = 0; k < ids.size(); ++k) ids[k] = 1000 + 7 * k;
  std::shuffle(ids.begin(), ids.end(), random);
  std::sort(ids.begin(), ids.end());
  Everything e;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    Grain g{ids[k], 0, 0, 1, RigidBody::from_template(2650, 1, Vec3::Ones(), 0.2)};
    const bool on_another = (k / 12) % 2 == 1;
    g.body.position = on_another ? Vec3(e.grains[k - 12].body.position + Vec3(0.3, 0, 0))
                                 : Vec3(10 * unit(random), 8 * unit(random), 3 * unit(random));
    g.body.velocity = Vec3(unit(random), -unit(random), 0.5 - unit(random));
    g.body.orientation = Quat(Eigen::AngleAxisd(6 * unit(random), Vec3(1, 1, unit(random)).normalized()));
    e.grains.push_back(g);
    e.on_floor[g.id] = RestingImpulses::Impulse(float(k), 0.5f, -1);
    if (on_another) e.on_grain[{g.id, e.grains[k - 12].id}] = RestingImpulses::Impulse(1, float(k), 2);
  }
  return e;
}

// This rank's world at the start: the grains k ≡ rank (mod ranks), all its own, with their
// impulses on the floor and on the grains it holds too.
World first_share(const Everything& e, const Ranks& ranks, std::vector<char>& owned) {
  World w;
  w.shapes.push_back(GrainShape::sphere(0.2));
  w.add_wall(Wall{});
  std::vector<Grain> mine;
  for (std::size_t k = std::size_t(ranks.rank()); k < e.grains.size(); k += std::size_t(ranks.size())) mine.push_back(e.grains[k]);
  w.replace_grains(mine);
  std::map<std::uint64_t, std::uint32_t> index;
  for (std::uint32_t i = 0; i < w.grain_count(); ++i) index[w.id[i]] = i;
  std::vector<RestingImpulses::Entry> entries;
  for (std::uint32_t i = 0; i < w.grain_count(); ++i) entries.push_back({{i, w.terrain_body() - 1, 0, 7}, e.on_floor.at(w.id[i])});
  for (const auto& [pair, impulse] : e.on_grain)
    if (index.count(pair.first) && index.count(pair.second))
      entries.push_back({{index[pair.first], index[pair.second], 0, 3}, impulse});
  w.resting_impulses = RestingImpulses(std::move(entries));
  owned.assign(w.grain_count(), 1);
  return w;
}

// What this rank must hold after share_grains, and its impulses, checked against `e` (the
// grains where they are now).
void expect_shared(const World& w, const std::vector<char>& owned, const Everything& e, const Decomposition& regions,
                   double halo, const Ranks& ranks) {
  const int me = ranks.rank();
  std::vector<std::uint64_t> expected;
  std::map<std::uint64_t, const Grain*> by_id;
  for (const Grain& g : e.grains) {
    by_id[g.id] = &g;
    const std::vector<int> near = regions.ranks_near(g.body.position, halo);
    if (std::find(near.begin(), near.end(), me) != near.end()) expected.push_back(g.id);
  }
  // No ASSERT before the sum below: a rank that left early would leave the others waiting.
  EXPECT_EQ(w.id, expected);
  std::vector<std::int64_t> owned_count{0};
  for (std::uint32_t i = 0; i < w.grain_count(); ++i) {
    const RigidBody& b = w.bodies[i];
    const RigidBody& was = by_id.at(w.id[i])->body;
    EXPECT_EQ(b.position, was.position);
    EXPECT_EQ(b.velocity, was.velocity);
    EXPECT_EQ(b.orientation.coeffs(), was.orientation.coeffs());
    EXPECT_EQ(b.inverse_mass, was.inverse_mass);
    EXPECT_EQ(bool(owned[i]), regions.owner(b.position) == me);
    owned_count[0] += owned[i];
  }
  ranks.sum(owned_count);
  EXPECT_EQ(owned_count[0], std::int64_t(e.grains.size()));
  // Every grain's impulse on the floor, and on the next grain where this rank holds both.
  std::size_t on_floor = 0, on_grain = 0;
  for (const auto& [key, impulse] : w.resting_impulses) {
    if (key.b == w.terrain_body() - 1) {
      EXPECT_EQ(impulse, e.on_floor.at(w.id[key.a]));
      ++on_floor;
    } else {
      EXPECT_EQ(impulse, e.on_grain.at({w.id[key.a], w.id[key.b]}));
      ++on_grain;
    }
  }
  EXPECT_EQ(on_floor, w.grain_count());
  std::size_t expected_on_grain = 0;
  for (const auto& [pair, impulse] : e.on_grain)
    expected_on_grain += std::binary_search(w.id.begin(), w.id.end(), pair.first) &&
                         std::binary_search(w.id.begin(), w.id.end(), pair.second);
  EXPECT_EQ(on_grain, expected_on_grain);
}

std::vector<Vec3> places(const Everything& e) {
  std::vector<Vec3> at;
  for (const Grain& g : e.grains) at.push_back(g.body.position);
  return at;
}

TEST(ShareGrains, EachRankHoldsItsOwnGrainsAndItsHalo) {
  const Ranks ranks = Ranks::world();
  Everything e = everything();
  ASSERT_EQ(e.on_grain.size(), 204u);
  const std::vector<std::int64_t> weights(e.grains.size(), 1);
  const Decomposition regions = Decomposition::bisection(places(e), weights, ranks.size());
  const double halo = 0.6;
  std::vector<char> owned;
  World w = first_share(e, ranks, owned);
  share_grains(w, owned, regions, halo, ranks);
  expect_shared(w, owned, e, regions, halo, ranks);

  // Every grain moved by up to 0.4 m (less than the halo), the grains resting on each other
  // together: some change owner, some leave or enter halos. Each rank moves the grains it
  // owns; the others' come from their owners.
  std::mt19937_64 random(12);
  std::uniform_real_distribution<double> shift(-0.4, 0.4);
  std::vector<Vec3> shifts;
  for (std::size_t k = 0; k < e.grains.size(); ++k) {
    if ((k / 12) % 2 == 0) shifts.push_back(Vec3(shift(random), shift(random), 0));
    e.grains[k].body.position += shifts[(k / 24) * 12 + k % 12];
  }
  for (std::uint32_t i = 0; i < w.grain_count(); ++i)
    if (owned[i])
      w.bodies[i].position = std::lower_bound(e.grains.begin(), e.grains.end(), w.id[i], [](const Grain& g, std::uint64_t id) {
                               return g.id < id;
                             })->body.position;
  share_grains(w, owned, regions, halo, ranks);
  expect_shared(w, owned, e, regions, halo, ranks);

  // The regions cut anew, on a grid across x this time.
  const Decomposition grid = Decomposition::cartesian(Box(Vec3(0, 0, 0), Vec3(10, 8, 3)), {ranks.size(), 1, 1});
  const Decomposition grid_first = grid;
  share_grains(w, owned, grid, halo, ranks);
  expect_shared(w, owned, e, grid_first, halo, ranks);
}

// Between hand-overs the owners' motion reaches their grains in the others' halos: each rank
// moves and spins its own grains, and after a refresh every grain it holds is as its owner
// left it, bit for bit.
TEST(ShareGrains, ARefreshBringsTheHaloTheOwnersMotion) {
  const Ranks ranks = Ranks::world();
  const Everything e = everything();
  const std::vector<std::int64_t> weights(e.grains.size(), 1);
  const Decomposition regions = Decomposition::bisection(places(e), weights, ranks.size());
  std::vector<char> owned;
  World w = first_share(e, ranks, owned);
  const Halo halo = share_grains(w, owned, regions, 0.6, ranks);
  // What every grain's owner does to it, the same on every rank: a function of its id.
  auto moved = [](std::uint64_t id, RigidBody b) {
    b.position += Vec3(1e-3 * double(id % 13), -2e-3, 1e-4 * double(id % 5));
    b.velocity = Vec3(double(id), 0.25, -1);
    b.angular_velocity = Vec3(0, double(id % 7), 3);
    b.orientation = Quat(Eigen::AngleAxisd(double(id % 11), Vec3::UnitZ()));
    return b;
  };
  std::vector<RigidBody> bodies = w.bodies;
  std::size_t in_halo = 0;
  for (std::uint32_t i = 0; i < w.grain_count(); ++i) {
    if (owned[i]) bodies[i] = moved(w.id[i], bodies[i]);
    else in_halo += 1;
  }
  refresh_halo(bodies, halo, ranks);
  for (std::uint32_t i = 0; i < w.grain_count(); ++i) {
    const RigidBody expected = moved(w.id[i], w.bodies[i]);
    EXPECT_EQ(bodies[i].position, expected.position) << w.id[i];
    EXPECT_EQ(bodies[i].velocity, expected.velocity) << w.id[i];
    EXPECT_EQ(bodies[i].angular_velocity, expected.angular_velocity) << w.id[i];
    EXPECT_EQ(bodies[i].orientation.coeffs(), expected.orientation.coeffs()) << w.id[i];
  }
  std::size_t listed = 0;
  for (const auto& take : halo.take) listed += take.size();
  EXPECT_EQ(listed, in_halo);
  if (ranks.size() > 1) {
    EXPECT_GT(in_halo, 0u);
  }
}

TEST(ShareGrains, RefusesRegionsForAnotherRankCount) {
  const Ranks ranks = Ranks::world();
  World w;
  std::vector<char> owned;
  const Decomposition too_many = Decomposition::cartesian(Box(Vec3(0, 0, 0), Vec3(1, 1, 1)), {ranks.size() + 1, 1, 1});
  EXPECT_THROW(share_grains(w, owned, too_many, 0.1, ranks), std::invalid_argument);
}

}  // namespace
}  // namespace scree::solver
