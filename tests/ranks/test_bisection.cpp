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

// A grain weighs two, and one more for each body or wall it rested on last step as body A
// (its points on one contact counting once), so that the bisection shares the work, not only
// the grains (the issue: "weighted by grains and contacts").
TEST(Bisection, AGrainWeighsTwoPlusItsContacts) {
  World w;
  w.shapes.push_back(GrainShape::sphere(0.1));
  for (std::uint64_t id = 0; id < 3; ++id) w.add_grain(id, 0, 0, 2650, 1, Vec3(double(id), 0, 0), Quat::Identity());
  auto key = [](std::uint32_t a, std::uint32_t b, std::int32_t plane, std::int32_t node) { return RestingKey{a, b, plane, node}; };
  const RestingImpulses::Impulse p(1, 0, 0);
  // Grain 0: three points on grain 1, one on grain 2, two on a wall (body 3, plane 1):
  // three contacts. Grain 1: none as A. Grain 2: one point on grain 0.
  w.resting_impulses = RestingImpulses({{key(0, 1, 0, 4), p}, {key(0, 1, 0, 7), p}, {key(0, 1, 0, 9), p}, {key(0, 2, 0, 1), p},
                                        {key(0, 3, 1, 2), p}, {key(0, 3, 1, 5), p}, {key(2, 0, 0, 3), p}});
  EXPECT_EQ(bisection_weights(w), (std::vector<std::int64_t>{5, 2, 3}));
  const std::vector<char> owned{0, 1, 1};
  EXPECT_EQ(bisection_weights(w, &owned), (std::vector<std::int64_t>{2, 3}));
}

// A rank whose contact search takes longer a unit of weight (a slower core, or one the machine
// holds up) is given less weight, as LAMMPS weighs particles by time: rank r here takes r + 1
// times as long as rank 0, so the regions settle at weights in proportion to 1 / (r + 1), and
// stay there. A run's first step is not a pace (its search builds every cache: here its paces
// run the other way); the first paces known, after the second step, cut the regions at once
// (those a run starts with are cut by weight alone); later ones only at a hand-over due anyway
// (the grains moved half the skin); and only where the ranks have cores of their own
// (RankShare::paced): else they stay even.
TEST(Bisection, ARankWhoseSearchIsSlowerIsGivenLessWeightAtOnceThenAtAHandOver) {
  const Ranks ranks = Ranks::world();
  for (const bool paced : {true, false}) {
    World w;
    w.shapes.push_back(GrainShape::sphere(0.1));
    const int grains = 1200;
    for (int k = 0; k < grains; ++k) w.add_grain(std::uint64_t(k), 0, 0, 2650, 1, Vec3(0.5 * k, 0, 0), Quat::Identity());
    RankShare share;
    share.ranks = ranks;
    std::vector<Vec3> places;
    for (std::size_t i = 0; i < w.grain_count(); ++i) places.push_back(w.bodies[i].position);
    share.regions = Decomposition::bisection(places, std::vector<std::int64_t>(places.size(), 1), ranks.size());
    share.reach = 0.25;
    share.skin = 0.05;
    share.recut_above = 1.05;
    share.paced = paced;
    share.owned.resize(w.grain_count());
    for (std::size_t i = 0; i < w.grain_count(); ++i) share.owned[i] = share.regions.owner(w.bodies[i].position) == ranks.rank();
    share.hand_over(w);
    auto owned_weights = [&] {
      std::vector<std::int64_t> by_rank(std::size_t(ranks.size()), 0);
      for (const char o : share.owned) by_rank[std::size_t(ranks.rank())] += o;
      ranks.sum(by_rank);
      return by_rank;
    };
    const double pace = 1e-6 * (ranks.rank() + 1);                    // s a unit of weight
    const double first_pace = 1e-6 * (ranks.size() - ranks.rank());  // the first step's, not counted
    auto step = [&](double move, double seconds_a_unit) {
      for (std::size_t i = 0; i < w.grain_count(); ++i) w.bodies[i].position.y() += move;
      return share.keep_up(w, seconds_a_unit * double(owned_weights()[std::size_t(ranks.rank())]));
    };
    double speeds = 0;
    for (int r = 0; r < ranks.size(); ++r) speeds += paced ? 1.0 / (r + 1) : 1;
    auto expect_paced_weights = [&] {
      const std::vector<std::int64_t> weights = owned_weights();
      for (int r = 0; r < ranks.size(); ++r)
        EXPECT_NEAR(double(weights[std::size_t(r)]), grains / (paced ? r + 1 : 1) / speeds, 2) << ranks.size() << " ranks, rank " << r;
    };
    // The first step: not due, and no pace known.
    EXPECT_FALSE(step(0.1 * share.skin, first_pace));
    EXPECT_EQ(share.recuts, 0);
    EXPECT_FALSE(share.paces_known());
    // Not due, but the first paces known: handed over and cut by them where the ranks have
    // cores of their own (on several ranks).
    const bool cut_at_once = paced && ranks.size() > 1;
    EXPECT_EQ(step(0.1 * share.skin, pace), cut_at_once);
    EXPECT_EQ(share.recuts, cut_at_once ? 1 : 0);
    if (cut_at_once) expect_paced_weights();
    // Not due, the paces as before: the regions kept.
    EXPECT_FALSE(step(0.1 * share.skin, pace));
    // Due: handed over, the regions kept as the paces have not changed.
    for (int k = 0; k < 3; ++k) EXPECT_TRUE(step(0.6 * share.skin, pace));
    expect_paced_weights();
    EXPECT_EQ(share.recuts, cut_at_once ? 1 : 0);  // once the paces are known, and not again
  }
}

}  // namespace
}  // namespace scree::solver
