// Sharing space among ranks (solver/ranks/decomposition.h): every place has one owner, the
// regions fill space, a Cartesian grid numbers its cells as the docs say, and a bisection
// shares the weight evenly, whatever order its points come in (and, tests/ranks/, whichever
// ranks hold them).
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <random>

#include "solver/ranks/decomposition.h"

namespace scree::solver {
namespace {

// `at` lies in region r (lower faces closed, upper open) for r its owner alone.
void expect_owner_alone_holds(const Decomposition& d, const Vec3& at) {
  const std::vector<Box> regions = d.regions();
  const int owner = d.owner(at);
  for (int r = 0; r < d.ranks(); ++r) {
    const Box& box = regions[std::size_t(r)];
    const bool inside = (at.array() >= box.min().array()).all() && (at.array() < box.max().array()).all();
    EXPECT_EQ(inside, r == owner) << "rank " << r << " at " << at.transpose();
  }
}

TEST(Decomposition, OneRankOwnsAllOfSpace) {
  const Decomposition d;
  EXPECT_EQ(d.ranks(), 1);
  EXPECT_EQ(d.owner(Vec3(1e300, -5, 3)), 0);
  EXPECT_EQ(d.ranks_near(Vec3::Zero(), 1e9), std::vector<int>{0});
  expect_owner_alone_holds(d, Vec3(2, 3, 4));
}

TEST(Decomposition, CartesianCellsAreNumberedXThenYThenZ) {
  const Box bounds(Vec3(0, 0, 0), Vec3(4, 3, 2));
  const Decomposition d = Decomposition::cartesian(bounds, {2, 3, 2});
  ASSERT_EQ(d.ranks(), 12);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 2; ++k) {
        const Vec3 centre(2 * i + 1, j + 0.5, k + 0.5);
        EXPECT_EQ(d.owner(centre), (i * 3 + j) * 2 + k) << centre.transpose();
        expect_owner_alone_holds(d, centre);
      }
  const std::vector<Box> regions = d.regions();
  EXPECT_EQ(regions[0].min().x(), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(regions[0].max(), Vec3(2, 1, 1));
  EXPECT_EQ(regions[11].min(), Vec3(2, 2, 1));
  EXPECT_EQ(regions[11].max().z(), std::numeric_limits<double>::infinity());
  // A place on a cut belongs above it; places outside the bounds to the outer cells.
  EXPECT_EQ(d.owner(Vec3(2, 0.5, 0.5)), 6);
  EXPECT_EQ(d.owner(Vec3(-100, -100, 100)), 1);
  EXPECT_EQ(d.owner(Vec3(100, 100, -100)), 10);
}

TEST(Decomposition, RanksNearAPlaceAreThoseWithinReach) {
  const Decomposition d = Decomposition::cartesian(Box(Vec3(0, 0, 0), Vec3(2, 2, 1)), {2, 2, 1});
  EXPECT_EQ(d.ranks_near(Vec3(0.5, 0.5, 0.5), 0.1), std::vector<int>{0});
  EXPECT_EQ(d.ranks_near(Vec3(0.95, 0.5, 0.5), 0.1), (std::vector<int>{0, 2}));
  EXPECT_EQ(d.ranks_near(Vec3(0.95, 1.05, 0.5), 0.1), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(d.ranks_near(Vec3(1.5, 1.5, 0.5), 0.4), std::vector<int>{3});
}

TEST(Decomposition, NeighboursAreTheRegionsWithinReach) {
  const Decomposition d = Decomposition::cartesian(Box(Vec3(0, 0, 0), Vec3(3, 2, 1)), {3, 2, 1});
  // Rank (i · 2 + j): cells 1 × 1 in x and y.
  EXPECT_EQ(d.neighbours(0, 0.5), (std::vector<int>{1, 2, 3}));      // touching, corner included
  EXPECT_EQ(d.neighbours(0, 1.2), (std::vector<int>{1, 2, 3, 4, 5}));  // x gap 1 to the third column
  EXPECT_EQ(d.neighbours(2, 0.1), (std::vector<int>{0, 1, 3, 4, 5}));
  EXPECT_TRUE(Decomposition().neighbours(0, 100).empty());
  for (int r = 0; r < 6; ++r)
    for (int other : d.neighbours(r, 1.2)) {
      const std::vector<int> back = d.neighbours(other, 1.2);
      EXPECT_TRUE(std::find(back.begin(), back.end(), r) != back.end()) << r << " " << other;
    }
}

TEST(Decomposition, CartesianRefusesNoRanksOrFlatBounds) {
  EXPECT_THROW(Decomposition::cartesian(Box(Vec3::Zero(), Vec3::Ones()), {0, 1, 1}), std::invalid_argument);
  EXPECT_THROW(Decomposition::cartesian(Box(Vec3::Zero(), Vec3(1, 0, 1)), {1, 2, 1}), std::invalid_argument);
  EXPECT_NO_THROW(Decomposition::cartesian(Box(Vec3::Zero(), Vec3(1, 0, 1)), {2, 1, 1}));
}

struct Cloud {
  std::vector<Vec3> points;
  std::vector<std::int64_t> weights;
};

// A flat heap, 10 × 4 × 1 m, of points weighing 1 to 5 (grains and their contacts); with
// `row`, every tenth on x = 3, as a row of grains would be.
Cloud heap(std::size_t n, bool row) {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> unit(0, 1);
  Cloud c;
  for (std::size_t k = 0; k < n; ++k) {
    const double x = row && k % 10 == 0 ? 3.0 : 10 * unit(random);
    c.points.emplace_back(x, 4 * unit(random), unit(random));
    c.weights.push_back(1 + std::int64_t(5 * unit(random)));
  }
  return c;
}

std::vector<std::int64_t> weight_by_rank(const Decomposition& d, const Cloud& c) {
  std::vector<std::int64_t> w(std::size_t(d.ranks()), 0);
  for (std::size_t k = 0; k < c.points.size(); ++k) w[std::size_t(d.owner(c.points[k]))] += c.weights[k];
  return w;
}

TEST(Decomposition, BisectionSharesTheWeightEvenly) {
  const Cloud c = heap(4000, false);
  const double total = double(std::accumulate(c.weights.begin(), c.weights.end(), std::int64_t(0)));
  for (int ranks : {2, 3, 4, 7, 16}) {
    const Decomposition d = Decomposition::bisection(c.points, c.weights, ranks);
    ASSERT_EQ(d.ranks(), ranks);
    const std::vector<std::int64_t> w = weight_by_rank(d, c);
    // Each level of cuts misses its share by at most a point's weight.
    for (int r = 0; r < ranks; ++r) EXPECT_NEAR(double(w[std::size_t(r)]), total / ranks, 2 * 5) << ranks << " ranks, rank " << r;
    for (std::size_t k = 0; k < c.points.size(); k += 97) expect_owner_alone_holds(d, c.points[k]);
  }
}

// With shares (a rank's speed, RankShare::search_shares), each region holds its rank's share
// of the weight, the ranks below a cut the sum of theirs.
TEST(Decomposition, BisectionSharesTheWeightByTheRanksShares) {
  const Cloud c = heap(4000, false);
  const double total = double(std::accumulate(c.weights.begin(), c.weights.end(), std::int64_t(0)));
  for (const std::vector<std::int64_t>& shares : {std::vector<std::int64_t>{1, 3}, {3, 1}, {2, 1, 1}, {1, 1, 1, 5}}) {
    const int ranks = int(shares.size());
    const Decomposition d = Decomposition::bisection(c.points, c.weights, ranks, Ranks(), shares);
    const std::vector<std::int64_t> w = weight_by_rank(d, c);
    const double all = double(std::accumulate(shares.begin(), shares.end(), std::int64_t(0)));
    for (int r = 0; r < ranks; ++r)
      EXPECT_NEAR(double(w[std::size_t(r)]), total * double(shares[std::size_t(r)]) / all, 2 * 5) << ranks << " ranks, rank " << r;
  }
  EXPECT_THROW(Decomposition::bisection(c.points, c.weights, 2, Ranks(), std::vector<std::int64_t>{1, 0}), std::invalid_argument);
  EXPECT_THROW(Decomposition::bisection(c.points, c.weights, 2, Ranks(), std::vector<std::int64_t>{1}), std::invalid_argument);
}

TEST(Decomposition, BisectionCutsAtWeightNotCount) {
  // Ten light points on the left, one heavy on the right: the cut keeps the heavy one alone.
  Cloud c;
  for (int k = 0; k < 10; ++k) {
    c.points.emplace_back(k, 0, 0);
    c.weights.push_back(1);
  }
  c.points.emplace_back(20, 0, 0);
  c.weights.push_back(10);
  const Decomposition d = Decomposition::bisection(c.points, c.weights, 2);
  EXPECT_EQ(d.owner(Vec3(9, 0, 0)), 0);
  EXPECT_EQ(d.owner(Vec3(20, 0, 0)), 1);
  EXPECT_EQ(d.regions()[0].max().x(), 14.5);  // halfway between the two points either side
}

TEST(Decomposition, BisectionDoesNotDependOnThePointsOrder) {
  const Cloud c = heap(1000, true);
  Cloud shuffled = c;
  std::vector<std::size_t> order(c.points.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::shuffle(order.begin(), order.end(), std::mt19937_64(3));
  for (std::size_t k = 0; k < order.size(); ++k) {
    shuffled.points[k] = c.points[order[k]];
    shuffled.weights[k] = c.weights[order[k]];
  }
  const std::vector<Box> a = Decomposition::bisection(c.points, c.weights, 5).regions();
  const std::vector<Box> b = Decomposition::bisection(shuffled.points, shuffled.weights, 5).regions();
  for (std::size_t r = 0; r < a.size(); ++r) {
    EXPECT_EQ(a[r].min(), b[r].min()) << r;
    EXPECT_EQ(a[r].max(), b[r].max()) << r;
  }
}

TEST(Decomposition, BisectionOfFewOrCoincidentPointsLeavesSomeRanksEmpty) {
  const std::vector<Vec3> points(3, Vec3(1, 2, 3));
  const std::vector<std::int64_t> weights(3, 1);
  const Decomposition d = Decomposition::bisection(points, weights, 4);
  EXPECT_EQ(d.ranks(), 4);
  expect_owner_alone_holds(d, points[0]);
  const Decomposition none = Decomposition::bisection({}, {}, 3);
  EXPECT_EQ(none.ranks(), 3);
  expect_owner_alone_holds(none, Vec3(1, 1, 1));
  EXPECT_THROW(Decomposition::bisection(points, weights, 0), std::invalid_argument);
  const std::vector<std::int64_t> negative{1, -1, 1};
  EXPECT_THROW(Decomposition::bisection(points, negative, 2), std::invalid_argument);
}

}  // namespace
}  // namespace scree::solver
