// Regions cut by bisection across ranks (Decomposition::bisection with a Ranks), on 1, 2, 3
// and 4 ranks: each rank holding its own share of the points, however uneven, every rank gets
// the cuts one process holding all the points gets, to the bit.
#include <gtest/gtest.h>

#include <random>

#include "solver/ranks/decomposition.h"

namespace scree::solver {
namespace {

TEST(Bisection, RanksHoldingSharesOfThePointsCutAsOneHoldingAll) {
  const Ranks ranks = Ranks::world();
  // A heap of 5000 points weighing 1 to 6, a tenth of them on one x (a row of grains).
  std::mt19937_64 random(31);
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<Vec3> points;
  std::vector<std::int64_t> weights;
  for (int k = 0; k < 5000; ++k) {
    points.emplace_back(k % 10 == 0 ? 4.0 : 20 * unit(random), 6 * unit(random), 2 * unit(random));
    weights.push_back(1 + std::int64_t(6 * unit(random)));
  }
  for (const bool even : {true, false}) {
    // Shares dealt round, or nearly all on the last rank.
    std::vector<Vec3> mine;
    std::vector<std::int64_t> my_weights;
    for (std::size_t k = 0; k < points.size(); ++k) {
      const int holder = even ? int(k % std::size_t(ranks.size())) : (k % 50 == 0 ? 0 : ranks.size() - 1);
      if (holder != ranks.rank()) continue;
      mine.push_back(points[k]);
      my_weights.push_back(weights[k]);
    }
    for (int regions : {ranks.size(), 5, 7}) {
      const std::vector<Box> whole = Decomposition::bisection(points, weights, regions).regions();
      const std::vector<Box> shared = Decomposition::bisection(mine, my_weights, regions, ranks).regions();
      ASSERT_EQ(shared.size(), whole.size());
      for (std::size_t r = 0; r < whole.size(); ++r) {
        EXPECT_EQ(shared[r].min(), whole[r].min()) << regions << " regions, region " << r << (even ? ", even" : ", uneven");
        EXPECT_EQ(shared[r].max(), whole[r].max()) << regions << " regions, region " << r << (even ? ", even" : ", uneven");
      }
    }
  }
}

}  // namespace
}  // namespace scree::solver
