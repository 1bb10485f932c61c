// A world's grains replaced (World::replace_grains: what a rank does as grains come into its
// region and halo and leave them, docs/parallel.md): what the world carries of the grains it
// keeps follows them to their new places, and a world whose grains are replaced by themselves
// steps bit for bit as it would have.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "common/level_set_grain.h"
#include "levelset/shapes.h"
#include "solver/step.h"
#include "solver/world.h"

namespace scree::solver {
namespace {

// 36 level-set blocks (ids 3, 13, 23, …) dropped in a 3 × 4 × 3 lattice onto the floor and
// stepped `steps` times: by 0.25 s they lie on the floor and on each other, with resting
// impulses and near nodes to carry.
World heap_of_blocks(int steps) {
  World w;
  w.shapes.push_back(testing::level_set_grain(levelset::make_box({0.05, 0.04, 0.03}), 0.005, 200));
  w.laws = {{0.5, 0.3}};
  std::uint64_t id = 3;
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 3; ++i, id += 10) {
        const Quat turn(Eigen::AngleAxisd(0.2 * (i + 2 * j + 3 * k), Vec3(1, 2, 3).normalized()));
        w.add_grain(id, 0, 0, 2650, 1, Vec3(0.09 * i, 0.09 * j, 0.05 + 0.09 * k), turn);
      }
  w.add_wall(Wall{});
  const StepSettings settings;
  for (int s = 0; s < steps; ++s) advance(w, settings);
  return w;
}

std::vector<Grain> grains_of(const World& w) {
  std::vector<Grain> grains;
  for (std::uint32_t i = 0; i < w.grain_count(); ++i) grains.push_back(w.grain(i));
  return grains;
}

void expect_same_bodies(const World& x, const World& y) {
  ASSERT_EQ(x.bodies.size(), y.bodies.size());
  EXPECT_EQ(x.id, y.id);
  for (std::size_t i = 0; i < x.bodies.size(); ++i) {
    EXPECT_EQ(x.bodies[i].position, y.bodies[i].position) << i;
    EXPECT_EQ(x.bodies[i].velocity, y.bodies[i].velocity) << i;
    EXPECT_EQ(x.bodies[i].orientation.coeffs(), y.bodies[i].orientation.coeffs()) << i;
    EXPECT_EQ(x.bodies[i].angular_velocity, y.bodies[i].angular_velocity) << i;
  }
}

TEST(WorldGrains, AWorldWhoseGrainsAreReplacedByThemselvesStepsTheSame) {
  World whole = heap_of_blocks(250);
  ASSERT_GT(whole.resting_impulses.size(), 36u);
  ASSERT_GT(whole.near_nodes.pairs.size(), 10u);
  World replaced = whole;
  replaced.replace_grains(grains_of(whole));
  EXPECT_EQ(replaced.near_nodes.pairs, whole.near_nodes.pairs);
  const StepSettings settings;
  for (int s = 0; s < 50; ++s) {
    advance(whole, settings);
    advance(replaced, settings);
  }
  expect_same_bodies(whole, replaced);
}

// Some grains left out, the rest in place: each kept grain's impulses and near nodes are
// the same entries under its new index; the floor's index follows the grain count.
TEST(WorldGrains, WhatTheKeptGrainsCarryFollowsThem) {
  const World whole = heap_of_blocks(250);
  std::vector<Grain> kept;
  for (std::uint32_t i = 0; i < whole.grain_count(); ++i)
    if (i % 3 != 1) kept.push_back(whole.grain(i));
  World part = whole;
  part.replace_grains(kept);
  ASSERT_EQ(part.grain_count(), kept.size());
  ASSERT_EQ(part.bodies.size(), kept.size() + 1);
  EXPECT_TRUE(part.bodies.back().is_static());
  // Entries by ids: the whole's whose bodies are both kept, and nothing else.
  auto id_of = [](const World& w, std::uint32_t body) {
    return body < w.grain_count() ? w.id[body] : ~std::uint64_t(0) - (body - w.grain_count());
  };
  std::map<std::tuple<std::uint64_t, std::uint64_t, std::int32_t, std::int32_t>, RestingImpulses::Impulse> expected, got;
  auto is_kept = [&](std::uint64_t id) {
    return id > ~std::uint64_t(0) - 8 || std::any_of(kept.begin(), kept.end(), [&](const Grain& g) { return g.id == id; });
  };
  for (const auto& [key, impulse] : whole.resting_impulses) {
    const std::uint64_t a = id_of(whole, key.a), b = id_of(whole, key.b);
    if (is_kept(a) && is_kept(b)) expected[{a, b, key.plane, key.node}] = impulse;
  }
  for (const auto& [key, impulse] : part.resting_impulses) got[{id_of(part, key.a), id_of(part, key.b), key.plane, key.node}] = impulse;
  EXPECT_EQ(got, expected);
  EXPECT_LT(got.size(), whole.resting_impulses.size());
  EXPECT_TRUE(std::any_of(got.begin(), got.end(), [](const auto& e) { return std::get<1>(e.first) == ~std::uint64_t(0); }));
  std::size_t pairs = 0;
  for (std::size_t p = 0; p < whole.near_nodes.pairs.size(); ++p) {
    const std::uint64_t a = whole.id[whole.near_nodes.pairs[p] >> 32], b = whole.id[whole.near_nodes.pairs[p] & 0xffffffffu];
    if (!is_kept(a) || !is_kept(b)) continue;
    ASSERT_LT(pairs, part.near_nodes.pairs.size());
    const std::uint64_t key = part.near_nodes.pairs[pairs];
    EXPECT_EQ(part.id[key >> 32], a);
    EXPECT_EQ(part.id[key & 0xffffffffu], b);
    EXPECT_EQ(part.near_nodes.near[pairs][0].reach, whole.near_nodes.near[p][0].reach);
    ++pairs;
  }
  EXPECT_EQ(pairs, part.near_nodes.pairs.size());
  EXPECT_TRUE(std::is_sorted(part.near_nodes.pairs.begin(), part.near_nodes.pairs.end()));
}

TEST(WorldGrains, GrainsMustComeInAscendingIds) {
  World w = heap_of_blocks(0);
  std::vector<Grain> grains = grains_of(w);
  std::swap(grains[2], grains[5]);
  EXPECT_THROW(w.replace_grains(grains), std::invalid_argument);
}

}  // namespace
}  // namespace scree::solver
