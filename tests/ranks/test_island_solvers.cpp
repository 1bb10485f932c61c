// Which rank solves each resting island (solver/ranks/island_solvers.h), on 1, 2, 3 and 4
// ranks: an island's points added up over the ranks that found them, an island big only by the
// sum of its parts shared by all, and the islands of a rank that owns more than its share
// handed to the others, alike on every rank. (That a handed island solves to the same bits is
// test_resting_across_ranks.cpp's and the runs' of bench/ranks/same_bits.sh.)
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "solver/ranks/island_solvers.h"

namespace scree::solver {
namespace {

// A rank's resting contacts: one face a group, of grain `a`, with `points` points.
struct Found {
  RestingContacts resting;
  std::vector<IslandLabel> labels;  // by grain: one grain a group here
  void add(IslandLabel label, std::size_t points) {
    const std::uint32_t grain = std::uint32_t(labels.size());
    labels.push_back(label);
    resting.faces.push_back(RestingFace{Vec3::UnitZ(), Vec3::UnitX(), 0.5, grain, grain, 0});
    for (std::size_t k = 0; k < points; ++k) {
      RestingPoint p{};
      p.face = std::uint32_t(resting.faces.size() - 1);
      p.arm = Eigen::Vector3f::Zero();
      p.clear_solve_state();
      resting.points.push_back(p);
    }
  }
};

TEST(IslandSolvers, ABusyOwnersIslandsGoToTheOthersAlikeOnEveryRank) {
  const Ranks ranks = Ranks::world();
  const int count = ranks.size(), me = ranks.rank();
  Found found;
  // Island 5, owned by rank 0: 1101 points in all, in parts of fewer than 1024 on each rank.
  found.add({5, 0}, 1101 / std::size_t(count) + (me == 0 ? 1101 % std::size_t(count) : 0));
  // Island 7, owned by the last rank: 10 points on each (movable from two ranks on).
  found.add({7, count - 1}, 10);
  // Twelve islands of 20 to 130 points, all found and owned by rank 0.
  if (me == 0)
    for (std::uint64_t i = 0; i < 12; ++i) found.add({100 + i, 0}, 20 + 10 * i);
  // A rock on the ground on each rank: 3 points, never listed.
  found.add({std::uint64_t(1000 + me), me}, 3);

  const IslandSolvers solvers = island_solvers(found.resting, found.labels, ranks);
  EXPECT_EQ(solvers.big, std::set<std::uint64_t>{5});
  // The same moves on every rank.
  std::vector<std::pair<std::uint64_t, int>> moved(solvers.moved.begin(), solvers.moved.end());
  std::sort(moved.begin(), moved.end());
  std::vector<std::uint64_t> flat;  // label, rank, …
  for (const auto& [label, rank] : moved) flat.insert(flat.end(), {label, std::uint64_t(rank)});
  for (const Bytes& theirs : ranks.gather_all(to_bytes(std::span<const std::uint64_t>(flat))))
    EXPECT_EQ(from_bytes<std::uint64_t>(theirs), flat);
  if (count == 1) {
    EXPECT_TRUE(moved.empty());
    return;
  }
  // Each rank's expected work, before and after: every rank's tiny island, island 7 its owner's.
  std::vector<std::uint64_t> before(std::size_t(count), expected_island_work(3));
  before.back() += expected_island_work(10 * std::uint64_t(count));
  for (std::uint64_t i = 0; i < 12; ++i) before[0] += expected_island_work(20 + 10 * i);
  std::vector<std::uint64_t> after = before;
  for (const auto& [label, rank] : moved) {
    ASSERT_TRUE((label >= 100 && label < 112) || label == 7) << label;
    const int giver = label == 7 ? count - 1 : 0;
    ASSERT_NE(rank, giver);
    const std::uint64_t work = expected_island_work(label == 7 ? 10 * std::uint64_t(count) : 20 + 10 * (label - 100));
    after[std::size_t(giver)] -= work;
    after[std::size_t(rank)] += work;
    EXPECT_EQ(solvers.of({label, giver}), rank);
  }
  // Rank 0 held all but a few per cent of the work; now no rank holds more than 0.6 of it.
  const double total = double(std::accumulate(before.begin(), before.end(), std::uint64_t(0)));
  EXPECT_GT(double(before[0]) / total, 0.9);
  EXPECT_LT(double(*std::max_element(after.begin(), after.end())) / total, 0.6);
}

}  // namespace
}  // namespace scree::solver
