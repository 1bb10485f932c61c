// The broad phase finds exactly the pairs a brute-force search finds, in a fixed order.
#include <gtest/gtest.h>

#include <random>

#include "solver/contacts/broad_phase.h"

namespace scree::solver {
namespace {

std::vector<BodyPair> brute_force(const std::vector<Eigen::Vector3d>& c, const std::vector<double>& r, double margin) {
  std::vector<BodyPair> pairs;
  for (std::uint32_t i = 0; i < c.size(); ++i)
    for (std::uint32_t j = i + 1; j < c.size(); ++j)
      if ((c[i] - c[j]).norm() <= r[i] + r[j] + margin) pairs.emplace_back(i, j);
  return pairs;
}

TEST(BroadPhase, FindsExactlyTheBruteForcePairs) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> position(-1, 1), size(0.01, 0.05);
  for (std::size_t n : {2u, 10u, 500u, 3000u}) {
    std::vector<Eigen::Vector3d> centres;
    std::vector<double> radii;
    for (std::size_t b = 0; b < n; ++b) {
      centres.emplace_back(position(rng), position(rng), 0.2 * position(rng));  // a dense slab
      radii.push_back(size(rng));
    }
    auto expected = brute_force(centres, radii, 0.005);
    EXPECT_EQ(overlapping_pairs(centres, radii, 0.005), expected) << n;
    if (n == 3000) {
      EXPECT_GT(expected.size(), 1000u);  // the case has contacts to find
    }
  }
}

TEST(BroadPhase, TouchingAtTheMarginCountsAndFarApartDoesNot) {
  std::vector<Eigen::Vector3d> c{{0, 0, 0}, {0.25, 0, 0}, {10, 0, 0}};
  std::vector<double> r{0.1, 0.1, 0.1};
  EXPECT_EQ(overlapping_pairs(c, r, 0.05), (std::vector<BodyPair>{{0, 1}}));
  EXPECT_TRUE(overlapping_pairs(c, r, 0.04).empty());
  EXPECT_TRUE(overlapping_pairs({}, {}, 0.1).empty());
  EXPECT_THROW(overlapping_pairs(c, {0.1}, 0.1), std::invalid_argument);
}

// The neighbour list gives overlapping_pairs' pairs exactly, step after step, while bodies
// drift by random steps and the margin changes; it rebuilds only when the motion has used
// up its skin, and at once when a body jumps.
TEST(NeighbourList, GivesTheBroadPhasePairsWhileBodiesMove) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> box(0, 10), radius(0.2, 0.5), step(-0.02, 0.02), margin(0, 0.01);
  std::vector<Eigen::Vector3d> centres(400);
  std::vector<double> radii(centres.size());
  for (std::size_t i = 0; i < centres.size(); ++i) centres[i] = {box(rng), box(rng), box(rng)}, radii[i] = radius(rng);
  NeighbourList list;
  for (int n = 0; n < 60; ++n) {
    for (auto& c : centres) c += Eigen::Vector3d(step(rng), step(rng), step(rng));
    if (n == 40) centres[3] += Eigen::Vector3d(2, 0, 0);  // a jump past the skin
    const double m = margin(rng);
    ASSERT_EQ(list.pairs(centres, radii, m, 0.2), overlapping_pairs(centres, radii, m)) << "step " << n;
  }
  // Each step moves a body at most 0.035: the 0.2 skin lasts a few steps, not one.
  EXPECT_GE(list.rebuilds(), 5u);
  EXPECT_LE(list.rebuilds(), 25u);
}
}  // namespace
}  // namespace scree::solver
