// Small resting islands handed from busy ranks to idle ones (solver/ranks/island_solvers.h):
// the expected work of an island, the largest islands of an overloaded rank to the least
// loaded, nothing moved where the ranks are even, and the same moves whatever order the
// islands come in (every rank balances alike). That a moved island solves to the same bits is
// tests/ranks/test_resting_across_ranks.cpp's.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "solver/ranks/island_solvers.h"

namespace scree::solver {
namespace {

TEST(IslandBalance, AnIslandsExpectedWorkIsItsPointsTimesPassesThatGrowWithItsSize) {
  EXPECT_EQ(expected_island_work(0), 0u);
  EXPECT_EQ(expected_island_work(1), 9u);
  EXPECT_EQ(expected_island_work(3), 3u * 12);
  EXPECT_EQ(expected_island_work(16), 16u * 21);
  EXPECT_EQ(expected_island_work(200), 200u * 30);
  EXPECT_EQ(expected_island_work(1000), 1000u * 31);
  for (std::uint64_t p = 1; p < 5000; ++p) EXPECT_LE(expected_island_work(p) * (p + 1), expected_island_work(p + 1) * p) << p;
}

TEST(IslandBalance, EvenRanksKeepTheirIslands) {
  EXPECT_TRUE(balance_islands({500, 500, 500}, {{7, 300, 0}, {8, 200, 1}, {9, 100, 2}}).empty());
  EXPECT_TRUE(balance_islands({500}, {{7, 300, 0}}).empty());
}

TEST(IslandBalance, AnOverloadedRanksLargestIslandsGoToTheLeastLoaded) {
  // Rank 0 would solve 1000 (islands of 400, 300 and 100, and 200 it cannot hand on), the others
  // 100 each: the mean is 325. The 400 goes to rank 1 (then 500, 175 over the mean: less than
  // half of 400), the 300 to rank 2 (then 400), and rank 0, at 300, keeps the 100.
  const std::vector<std::pair<std::uint64_t, int>> moved =
      balance_islands({1000, 100, 100, 100}, {{30, 100, 0}, {10, 400, 0}, {20, 300, 0}});
  const std::vector<std::pair<std::uint64_t, int>> expected{{10, 1}, {20, 2}};
  EXPECT_EQ(moved, expected);
}

TEST(IslandBalance, AnIslandTooLargeForAnyTakerStays) {
  // Rank 0 would solve one island of 1400, 933 over the mean: a taker would end as far over it.
  EXPECT_TRUE(balance_islands({1400, 0, 0}, {{4, 1400, 0}}).empty());
  // With 200 it cannot hand on, rank 0 is 600 over the mean of 600 and hands the 1000 over: rank 1
  // then holds 1000, 400 over it (less than half the island), and the busiest rank 1000, not 1200.
  const std::vector<std::pair<std::uint64_t, int>> expected{{4, 1}};
  EXPECT_EQ(balance_islands({1200, 0}, {{4, 1000, 0}}), expected);
}

TEST(IslandBalance, TheMovesDoNotDependOnTheIslandsOrderAndNeverRaiseTheBusiestRank) {
  std::mt19937_64 random(28);
  std::size_t moves = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const int ranks = 1 + int(random() % 16);
    std::vector<std::uint64_t> load(std::size_t(ranks), 0);
    std::vector<MovableIsland> islands;
    for (std::uint64_t label = 0; label < 60; ++label) {
      const int rank = int(random() % std::uint64_t(std::min(ranks, 3)));  // the first ranks the busiest
      islands.push_back({label * 7 + 3, expected_island_work(16 + random() % 1000), rank});
      load[std::size_t(rank)] += islands.back().work;
    }
    for (std::uint64_t& work : load) work += random() % 5000;
    const std::vector<std::pair<std::uint64_t, int>> moved = balance_islands(load, islands);
    moves += moved.size();
    std::shuffle(islands.begin(), islands.end(), random);
    EXPECT_EQ(balance_islands(load, islands), moved) << "trial " << trial;
    std::vector<std::uint64_t> after = load;
    for (const auto& [label, taker] : moved) {
      const auto island = std::find_if(islands.begin(), islands.end(), [&](const MovableIsland& i) { return i.label == label; });
      ASSERT_NE(island, islands.end());
      ASSERT_NE(taker, island->rank);
      after[std::size_t(island->rank)] -= island->work;
      after[std::size_t(taker)] += island->work;
    }
    EXPECT_LE(*std::max_element(after.begin(), after.end()), *std::max_element(load.begin(), load.end())) << "trial " << trial;
  }
  EXPECT_GT(moves, 1000u);  // the trials hand islands on
}

}  // namespace
}  // namespace scree::solver
