// A permutation carried out in place (solver/impulse/move_to.h): every item ends where the
// permutation sends it, whatever its cycles and the number of threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include <omp.h>

#include "solver/impulse/move_to.h"

namespace scree::solver {
namespace {

// Items k = 0..n−1 tagged by k, moved by `to` on `threads` threads: item k must lie at to[k].
void expect_moved(const std::vector<std::uint32_t>& to, int threads) {
  std::vector<std::uint64_t> items(to.size());
  std::iota(items.begin(), items.end(), 1000u);
  const int before = omp_get_max_threads();
  omp_set_num_threads(threads);
  move_to(items, to);
  omp_set_num_threads(before);
  for (std::size_t k = 0; k < to.size(); ++k) ASSERT_EQ(items[to[k]], 1000u + k) << "item " << k << " of " << to.size();
}

std::vector<std::uint32_t> shuffled(std::size_t n, unsigned seed) {
  std::vector<std::uint32_t> to(n);
  std::iota(to.begin(), to.end(), 0u);
  std::shuffle(to.begin(), to.end(), std::mt19937(seed));
  return to;
}

TEST(MoveTo, RandomPermutationsOnOneAndTwoThreads) {
  // A random permutation of 30 000 holds a cycle of thousands of places (cut into runs) and
  // short ones (moved as found).
  for (std::size_t n : {0, 1, 2, 17, 5000, 30000})
    for (unsigned seed : {1u, 2u, 3u})
      for (int threads : {1, 2}) expect_moved(shuffled(n, seed), threads);
}

TEST(MoveTo, CyclesAtTheLengthsWhereRunsAreCut) {
  // Cycles of 4096 places (one run), 4097 and 8193 (a short last run), 8192 (two full runs),
  // and places left where they are, side by side.
  std::vector<std::uint32_t> to;
  auto add_cycle = [&](std::uint32_t length) {
    const std::uint32_t first = std::uint32_t(to.size());
    for (std::uint32_t i = 0; i < length; ++i) to.push_back(first + (i + 1) % length);
  };
  for (std::uint32_t length : {4096u, 1u, 4097u, 8192u, 1u, 8193u, 3u}) add_cycle(length);
  for (int threads : {1, 2}) expect_moved(to, threads);
  // The same cycles with their places spread over the array.
  const std::vector<std::uint32_t> spread = shuffled(to.size(), 7);
  std::vector<std::uint32_t> spread_to(to.size());
  for (std::size_t k = 0; k < to.size(); ++k) spread_to[spread[k]] = spread[to[k]];
  for (int threads : {1, 2}) expect_moved(spread_to, threads);
}

}  // namespace
}  // namespace scree::solver
