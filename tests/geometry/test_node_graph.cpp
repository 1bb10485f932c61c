// The node graph (geometry/node_graph.h): the pairs within a distance, found through cells,
// are those of a search over all pairs, each listed once, in increasing order.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "geometry/node_graph.h"

namespace scree::geometry {
namespace {

TEST(NodeGraph, ListsEveryPairWithinTheDistanceOnce) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> coordinate(-2, 3);
  std::vector<Eigen::Vector3f> points(700);
  for (Eigen::Vector3f& p : points) p = Eigen::Vector3f(coordinate(rng), coordinate(rng), 0.2f * coordinate(rng));
  points[7] = points[3];  // coincident points are neighbours
  for (double distance : {0.15, 0.4, 1.0}) {
    const NodeGraph graph = nodes_within(points, distance);
    ASSERT_EQ(graph.node_count(), points.size());
    std::size_t pairs = 0;
    for (std::uint32_t i = 0; i < points.size(); ++i) {
      std::vector<std::uint32_t> expected;
      for (std::uint32_t j = i + 1; j < points.size(); ++j)
        if ((points[i].cast<double>() - points[j].cast<double>()).squaredNorm() <= distance * distance) expected.push_back(j);
      const auto listed = graph.neighbours_after(i);
      EXPECT_EQ(std::vector<std::uint32_t>(listed.begin(), listed.end()), expected) << "node " << i << ", distance " << distance;
      EXPECT_EQ(graph.neighbour_count_after(i), expected.size());
      for (std::uint32_t j = 0; j < points.size(); ++j) {  // the test the rows were found by, both ways round
        const bool listed_either_way = std::ranges::count(expected, j) == 1 || std::ranges::count(graph.neighbours_after(j), i) == 1;
        if (j != i) {
          ASSERT_EQ(graph.within(i, j), listed_either_way) << i << ", " << j;
        }
      }
      pairs += expected.size();
    }
    EXPECT_GT(pairs, points.size() / 20) << distance;  // the test sees real neighbourhoods
  }
  EXPECT_THROW(nodes_within(points, 0), std::invalid_argument);
}

}  // namespace
}  // namespace scree::geometry
