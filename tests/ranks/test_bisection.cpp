// Regions cut by bisection across ranks (Decomposition::bisection with a Ranks), on 1, 2, 3
// and 4 ranks: each rank holding its own share of the points, however uneven, every rank gets
// the cuts one process holding all the points gets, to the bit.
#include <gtest/gtest.h>

#include <random>

#include "solver/ranks/decomposition.h"
#include "solver/ranks/rank_share.h"

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

// A grain weighs one, and one more for each body or wall it rested on last step as body A
// (its points on one contact counting once), so that the bisection shares the work, not only
// the grains (the issue: "weighted by grains and contacts").
TEST(Bisection, AGrainWeighsOnePlusItsContacts) {
  World w;
  w.shapes.push_back(GrainShape::sphere(0.1));
  for (std::uint64_t id = 0; id < 3; ++id) w.add_grain(id, 0, 0, 2650, 1, Vec3(double(id), 0, 0), Quat::Identity());
  auto key = [](std::uint32_t a, std::uint32_t b, std::int32_t plane, std::int32_t node) { return RestingKey{a, b, plane, node}; };
  const RestingImpulses::Impulse p(1, 0, 0);
  // Grain 0: three points on grain 1, one on grain 2, two on a wall (body 3, plane 1):
  // three contacts. Grain 1: none as A. Grain 2: one point on grain 0.
  w.resting_impulses = RestingImpulses({{key(0, 1, 0, 4), p}, {key(0, 1, 0, 7), p}, {key(0, 1, 0, 9), p}, {key(0, 2, 0, 1), p},
                                        {key(0, 3, 1, 2), p}, {key(0, 3, 1, 5), p}, {key(2, 0, 0, 3), p}});
  EXPECT_EQ(bisection_weights(w), (std::vector<std::int64_t>{4, 1, 2}));
  const std::vector<char> owned{0, 1, 1};
  EXPECT_EQ(bisection_weights(w, &owned), (std::vector<std::int64_t>{1, 2}));
}

}  // namespace
}  // namespace scree::solver
