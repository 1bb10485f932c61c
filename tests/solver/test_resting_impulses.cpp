// The resting impulse store on its own: sorted by key whatever order the entries come in,
// the last of equal keys kept, a sweep's entries merged from where they lie, and one store
// through a step: the last step's entries found as such until a sweep sets them, and only
// the step's own kept at its end.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "solver/resting_impulses.h"

namespace scree::solver {
namespace {

using Impulse = RestingImpulses::Impulse;

RestingKey key(std::uint32_t a, std::uint32_t b, std::int32_t node) { return {a, b, 0, node}; }

TEST(RestingImpulses, SortsByKeyAndKeepsTheLastOfEqualKeys) {
  // Keys of several grains A, in an order that is neither A's nor the nodes'.
  std::vector<RestingImpulses::Entry> entries;
  for (std::uint32_t a : {7u, 2u, 9u, 2u, 0u, 7u})
    for (std::int32_t node : {5, 1, 3}) entries.push_back({key(a, a + 1, node), Impulse(a, node, 0)});
  entries.push_back({key(2, 3, 1), Impulse(-1, -1, -1)});  // the same key again, given last
  const RestingImpulses store(entries);
  EXPECT_EQ(store.size(), 12u);  // 4 grains × 3 nodes
  EXPECT_TRUE(std::is_sorted(store.begin(), store.end(), [](const auto& x, const auto& y) { return x.first < y.first; }));
  ASSERT_NE(store.find_of_last_step(key(2, 3, 1)), nullptr);
  EXPECT_EQ(*store.find_of_last_step(key(2, 3, 1)), Impulse(-1, -1, -1));
  EXPECT_EQ(*store.find_of_last_step(key(9, 10, 3)), Impulse(9, 3, 0));
  EXPECT_EQ(store.find_of_last_step(key(9, 10, 4)), nullptr);
  EXPECT_EQ(store.find_of_last_step(key(1, 2, 1)), nullptr);
}

TEST(RestingImpulses, OneStoreThroughAStepKeepsTheStepsOwn) {
  // The last step left points 1 and 2; the first sweep sets 2 and 3, a second sweep 3 again.
  RestingImpulses store({{key(0, 1, 1), Impulse(1, 0, 0)}, {key(0, 1, 2), Impulse(2, 0, 0)}});
  EXPECT_NE(store.find_of_last_step(key(0, 1, 1)), nullptr);
  EXPECT_EQ(store.find_of_this_step(key(0, 1, 1)), nullptr);

  store.update(RestingImpulses({{key(0, 1, 3), Impulse(30, 0, 0)}, {key(0, 1, 2), Impulse(20, 0, 0)}}));
  EXPECT_EQ(store.size(), 3u);
  ASSERT_NE(store.find_of_last_step(key(0, 1, 1)), nullptr);  // not set in this step yet
  EXPECT_EQ(*store.find_of_last_step(key(0, 1, 1)), Impulse(1, 0, 0));
  EXPECT_EQ(store.find_of_last_step(key(0, 1, 2)), nullptr);  // replaced by the sweep's
  ASSERT_NE(store.find_of_this_step(key(0, 1, 2)), nullptr);
  EXPECT_EQ(*store.find_of_this_step(key(0, 1, 2)), Impulse(20, 0, 0));

  store.update(RestingImpulses({{key(0, 1, 3), Impulse(31, 0, 0)}}));
  EXPECT_EQ(*store.find_of_this_step(key(0, 1, 3)), Impulse(31, 0, 0));
  EXPECT_EQ(*store.find_of_this_step(key(0, 1, 2)), Impulse(20, 0, 0));  // an earlier sweep's stays

  store.keep_this_step();
  EXPECT_EQ(store, RestingImpulses({{key(0, 1, 2), Impulse(20, 0, 0)}, {key(0, 1, 3), Impulse(31, 0, 0)}}));
  EXPECT_NE(store.find_of_last_step(key(0, 1, 3)), nullptr);  // the next step's last step
}

TEST(RestingImpulses, AMergePlacesNewKeysAmongTheOldInOrder) {
  // New keys before, between and after the old ones, and one of them again.
  RestingImpulses store({{key(1, 2, 4), Impulse(4, 0, 0)}, {key(3, 4, 2), Impulse(32, 0, 0)}});
  store.update(RestingImpulses({{key(0, 1, 9), Impulse(9, 0, 0)},
                                {key(3, 4, 2), Impulse(-32, 0, 0)},
                                {key(2, 3, 1), Impulse(21, 0, 0)},
                                {key(5, 6, 0), Impulse(50, 0, 0)}}));
  ASSERT_EQ(store.size(), 5u);
  EXPECT_TRUE(std::is_sorted(store.begin(), store.end(), [](const auto& x, const auto& y) { return x.first < y.first; }));
  EXPECT_EQ(*store.find_of_this_step(key(3, 4, 2)), Impulse(-32, 0, 0));
  EXPECT_EQ(*store.find_of_last_step(key(1, 2, 4)), Impulse(4, 0, 0));
  for (const RestingKey& k : {key(0, 1, 9), key(2, 3, 1), key(5, 6, 0)}) EXPECT_NE(store.find_of_this_step(k), nullptr);
}

// A sweep's entries merged where they lie (its resting points), in no order, one key given
// twice: the last of it is kept, and each kept entry's impulse is read once.
TEST(RestingImpulses, AMergeReadsEntriesWhereTheyLie) {
  struct Point {
    RestingKey key;
    Impulse impulse;
  };
  const std::vector<Point> points{{key(3, 4, 1), Impulse(31, 0, 0)},
                                  {key(0, 1, 2), Impulse(2, 0, 0)},
                                  {key(3, 4, 1), Impulse(-31, 0, 0)},
                                  {key(1, 2, 0), Impulse(10, 0, 0)}};
  RestingImpulses store({{key(0, 1, 2), Impulse(99, 0, 0)}, {key(2, 3, 5), Impulse(25, 0, 0)}});
  int impulses_read = 0;
  store.update(
      points.size(), [&](std::size_t k) { return points[k].key; },
      [&](std::size_t k) {
        ++impulses_read;
        return points[k].impulse;
      });
  EXPECT_EQ(store.size(), 4u);
  EXPECT_EQ(impulses_read, 3);
  EXPECT_TRUE(std::is_sorted(store.begin(), store.end(), [](const auto& x, const auto& y) { return x.first < y.first; }));
  EXPECT_EQ(*store.find_of_this_step(key(3, 4, 1)), Impulse(-31, 0, 0));
  EXPECT_EQ(*store.find_of_this_step(key(0, 1, 2)), Impulse(2, 0, 0));
  EXPECT_EQ(*store.find_of_this_step(key(1, 2, 0)), Impulse(10, 0, 0));
  EXPECT_EQ(*store.find_of_last_step(key(2, 3, 5)), Impulse(25, 0, 0));
}

// A sweep's points (no key twice, as a node is in one face) booked as rest() books them: those
// whose key the store had set where the warm start found them, the new ones merged; the store
// ends as the merge by keys leaves it, each impulse read once.
TEST(RestingImpulses, SettingFoundPlacesAndMergingTheNewEndsAsAMergeByKeys) {
  struct Point {
    RestingKey key;
    Impulse impulse;
  };
  const std::vector<Point> points{{key(3, 4, 1), Impulse(-31, 0, 0)}, {key(0, 1, 2), Impulse(2, 0, 0)},
                                  {key(1, 2, 0), Impulse(-10, 0, 0)}, {key(2, 3, 5), Impulse(27, 0, 0)},
                                  {key(1, 3, 7), Impulse(13, 0, 0)}};
  const RestingImpulses last_step({{key(0, 1, 2), Impulse(99, 0, 0)},
                                   {key(2, 3, 5), Impulse(25, 0, 0)},
                                   {key(3, 4, 1), Impulse(30, 0, 0)},
                                   {key(4, 5, 6), Impulse(46, 0, 0)}});
  RestingImpulses by_keys = last_step, by_places = last_step;
  by_keys.update(points.size(), [&](std::size_t k) { return points[k].key; }, [&](std::size_t k) { return points[k].impulse; });
  std::vector<std::size_t> added;
  int impulses_read = 0;
  for (std::size_t k = 0; k < points.size(); ++k) {
    const std::uint32_t place = last_step.place_of(points[k].key);
    if (place == RestingImpulses::none) {
      added.push_back(k);
      continue;
    }
    ++impulses_read;
    by_places.set_at(place, points[k].impulse);
  }
  EXPECT_EQ(added, (std::vector<std::size_t>{2, 4}));  // keys (1, 2, 0) and (1, 3, 7)
  by_places.update(
      added.size(), [&](std::size_t j) { return points[added[j]].key; },
      [&](std::size_t j) {
        ++impulses_read;
        return points[added[j]].impulse;
      });
  EXPECT_EQ(by_places, by_keys);
  EXPECT_EQ(impulses_read, 5);
  EXPECT_EQ(*by_places.find_of_this_step(key(3, 4, 1)), Impulse(-31, 0, 0));
  EXPECT_EQ(*by_places.find_of_this_step(key(2, 3, 5)), Impulse(27, 0, 0));
  EXPECT_EQ(*by_places.find_of_this_step(key(1, 3, 7)), Impulse(13, 0, 0));
  EXPECT_EQ(*by_places.find_of_last_step(key(4, 5, 6)), Impulse(46, 0, 0));
  EXPECT_EQ(by_places.at(RestingImpulses::none).impulse, nullptr);
}

// A grain's entries are found among its own (the lookups bisect those alone): the right ones
// for grains with entries, none for a grain between them or past the last, and still after a
// merge adds grains and the step's end drops some.
TEST(RestingImpulses, EachGrainsEntriesAreItsOwn) {
  auto grains_of = [](const RestingImpulses& store, std::uint32_t a) {
    std::vector<std::int32_t> nodes;
    for (const auto& e : store.of_grain(a)) {
      EXPECT_EQ(e.first.a, a);
      nodes.push_back(e.first.node);
    }
    return nodes;
  };
  RestingImpulses store({{key(4, 0, 7), Impulse(1, 0, 0)}, {key(1, 2, 3), Impulse(1, 0, 0)}, {key(4, 1, 2), Impulse(1, 0, 0)}});
  EXPECT_EQ(grains_of(store, 1), std::vector<std::int32_t>({3}));
  EXPECT_EQ(grains_of(store, 4), std::vector<std::int32_t>({7, 2}));  // by B, then node
  EXPECT_TRUE(grains_of(store, 0).empty());
  EXPECT_TRUE(grains_of(store, 2).empty());
  EXPECT_TRUE(grains_of(store, 9).empty());
  EXPECT_EQ(store.find(key(4, 9, 7)).impulse, nullptr);  // A's entries, another B

  store.update(RestingImpulses({{key(6, 4, 1), Impulse(2, 0, 0)}, {key(0, 1, 5), Impulse(2, 0, 0)}, {key(4, 1, 2), Impulse(2, 0, 0)}}));
  EXPECT_EQ(grains_of(store, 0), std::vector<std::int32_t>({5}));
  EXPECT_EQ(grains_of(store, 4), std::vector<std::int32_t>({7, 2}));
  EXPECT_EQ(grains_of(store, 6), std::vector<std::int32_t>({1}));
  ASSERT_NE(store.find_of_this_step(key(6, 4, 1)), nullptr);
  EXPECT_EQ(*store.find_of_last_step(key(4, 0, 7)), Impulse(1, 0, 0));

  store.keep_this_step();  // grain 1's entry and one of grain 4's were the last step's only
  EXPECT_TRUE(grains_of(store, 1).empty());
  EXPECT_EQ(grains_of(store, 4), std::vector<std::int32_t>({2}));
  EXPECT_EQ(*store.find_of_last_step(key(0, 1, 5)), Impulse(2, 0, 0));
  EXPECT_EQ(store.find(key(4, 0, 7)).impulse, nullptr);
}

TEST(RestingImpulses, AStepThatSetsNothingKeepsNothing) {
  RestingImpulses store({{key(0, 1, 1), Impulse(1, 0, 0)}});
  store.keep_this_step();
  EXPECT_TRUE(store.empty());
}

}  // namespace
}  // namespace scree::solver
