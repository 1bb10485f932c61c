// Gluing contact nodes into contact patches: a flat face gives one contact at its centroid,
// separate regions and disagreeing normals stay apart, and the result does not depend on
// the order the nodes come in. The nodes' neighbours within the glue distance come from a
// node graph of their points, as a shape's come from its template.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "geometry/node_graph.h"
#include "solver/contacts/contact_points.h"

namespace scree::solver {
namespace {

// A face's nodes on the plane z = 0 over [x0, x1] × [0, 1], spacing 0.1, normal +z.
std::vector<NodeContact> face_nodes(double x0, double x1, std::uint32_t first, double depth = 1e-3) {
  std::vector<NodeContact> out;
  std::uint32_t id = first;
  for (double x = x0; x <= x1 + 1e-9; x += 0.1)
    for (double y = 0; y <= 1 + 1e-9; y += 0.1) out.push_back({id++, Eigen::Vector3d(x, y, 0), Eigen::Vector3d::UnitZ(), depth});
  return out;
}

// The node graph of the nodes' points within `glue`, indexed by node: nodes not listed lie far
// apart, or with `crowd` at random among the listed ones, within `crowd` of the origin along x
// and y (as a template's nodes lie around the few that touch).
geometry::NodeGraph graph_of(const std::vector<NodeContact>& nodes, double glue, float crowd = 0) {
  std::uint32_t count = 0;
  for (const NodeContact& c : nodes) count = std::max(count, c.node + 1);
  std::vector<Eigen::Vector3f> points(count);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> across(-crowd, crowd);
  for (std::uint32_t k = 0; k < count; ++k)
    points[k] = crowd > 0 ? Eigen::Vector3f(across(rng), across(rng), 0) : Eigen::Vector3f(1e3f * float(k + 10), 0, 0);
  for (const NodeContact& c : nodes) points[c.node] = c.point.cast<float>();
  return geometry::nodes_within(points, glue);
}

std::vector<ContactPatch> glue(const std::vector<NodeContact>& nodes, double distance,
                               double max_angle = default_glue_angle) {
  return glue_contacts(nodes, graph_of(nodes, distance), max_angle);
}

TEST(ContactPoints, FlatFaceIsOneContactAtItsCentroid) {
  auto nodes = face_nodes(0, 2, 0);
  auto patches = glue(nodes, 0.15);
  ASSERT_EQ(patches.size(), 1u);
  EXPECT_LT((patches[0].point - Eigen::Vector3d(1, 0.5, 0)).norm(), 1e-12);
  EXPECT_LT((patches[0].normal - Eigen::Vector3d::UnitZ()).norm(), 1e-12);
  EXPECT_NEAR(patches[0].weighted_depth, 1e-3, 1e-15);
  EXPECT_EQ(patches[0].members.size(), nodes.size());
}

// A tilted face, depth rising linearly along x: the contact moves towards the deep edge to
// Σ d x / Σ d, and its depth is Σ d² / Σ d.
TEST(ContactPoints, TiltedFaceContactLeansToTheDeepEdge) {
  auto nodes = face_nodes(0, 2, 0);
  double sum_d = 0, sum_dx = 0, sum_dd = 0, deepest = 0;
  for (NodeContact& c : nodes) {
    c.depth = 1e-3 * (1 + c.point.x());
    sum_d += c.depth, sum_dx += c.depth * c.point.x(), sum_dd += c.depth * c.depth;
    deepest = std::max(deepest, c.depth);
  }
  auto patches = glue(nodes, 0.15);
  ASSERT_EQ(patches.size(), 1u);
  EXPECT_NEAR(patches[0].point.x(), sum_dx / sum_d, 1e-12);
  EXPECT_GT(patches[0].point.x(), 1.1);
  EXPECT_NEAR(patches[0].weighted_depth, sum_dd / sum_d, 1e-15);
  EXPECT_EQ(patches[0].depth, deepest);
}

TEST(ContactPoints, SeparateRegionsAndEdgesStayApart) {
  // Two faces 0.5 apart: two patches, ordered by their first node.
  auto nodes = face_nodes(1.5, 2, 200);
  auto left = face_nodes(0, 1, 0);
  nodes.insert(nodes.end(), left.begin(), left.end());
  auto patches = glue(nodes, 0.15);
  ASSERT_EQ(patches.size(), 2u);
  EXPECT_EQ(patches[0].first_node, 0u);
  EXPECT_NEAR(patches[0].point.x(), 0.5, 1e-12);
  EXPECT_NEAR(patches[1].point.x(), 1.75, 1e-12);
  // The same nodes with normals 90° apart on the two sides of x = 0.5: split at the edge.
  auto edge = face_nodes(0, 1, 0);
  for (auto& c : edge)
    if (c.point.x() > 0.55) c.normal = Eigen::Vector3d::UnitX();
  EXPECT_EQ(glue(edge, 0.15).size(), 2u);
  EXPECT_EQ(glue(edge, 0.15, M_PI).size(), 1u);  // unless any angle is allowed
}

TEST(ContactPoints, OrderOfNodesDoesNotMatter) {
  auto nodes = face_nodes(0, 1, 0);
  auto more = face_nodes(1.5, 3, 200);
  nodes.insert(nodes.end(), more.begin(), more.end());
  auto reference = glue(nodes, 0.15);
  std::mt19937 rng(9);
  std::shuffle(nodes.begin(), nodes.end(), rng);
  auto shuffled = glue(nodes, 0.15);
  ASSERT_EQ(shuffled.size(), reference.size());
  for (std::size_t k = 0; k < reference.size(); ++k) {
    EXPECT_EQ(shuffled[k].first_node, reference[k].first_node);
    EXPECT_LT((shuffled[k].point - reference[k].point).norm(), 1e-12);
  }
}

// The patches are the connected parts of "within the glue distance, normals within the
// angle", checked against a plain search over all pairs on random clusters of 5 to 400 nodes
// (points in float, as templates hold them, so that both see the same distances): sparse ones,
// which glue_contacts joins along the graph's rows, and dense ones (as a grain pair's few
// nodes, each with ~100 neighbours), which it tests pair by pair.
TEST(ContactPoints, PatchesAreTheConnectedPartsForAnyNumberOfNodes) {
  std::mt19937 rng(21);
  std::uniform_real_distribution<float> unit(-1, 1);
  struct Cluster {
    std::size_t n;
    double distance, half_width;
  };
  bool by_rows = false, by_pairs = false;
  for (const Cluster& cluster : {Cluster{5, 0.3, 1}, Cluster{20, 0.3, 1}, Cluster{48, 0.3, 1}, Cluster{49, 0.3, 1},
                                 Cluster{120, 0.15, 1}, Cluster{400, 0.15, 1}, Cluster{30, 0.3, 0.25}, Cluster{60, 0.3, 0.3}}) {
    const std::size_t n = cluster.n;
    // The dense clusters' normals tilt further: most of their nodes are neighbours.
    const bool dense = cluster.half_width < 1;
    const double tilt = dense ? 3 : 0.6;
    std::vector<NodeContact> nodes;
    for (std::uint32_t i = 0; i < n; ++i) {
      const Eigen::Vector3d normal = (Eigen::Vector3d::UnitZ() + tilt * Eigen::Vector3d(unit(rng), unit(rng), 0)).normalized();
      const Eigen::Vector3f point = float(cluster.half_width) * Eigen::Vector3f(unit(rng), unit(rng), 0.1f * unit(rng));
      nodes.push_back({3 * i + 1, point.cast<double>(), normal, 1e-3});
    }
    const double distance = cluster.distance, min_cos = std::cos(default_glue_angle);
    // The dense clusters' nodes lie among the shape's other nodes.
    const geometry::NodeGraph graph = graph_of(nodes, distance, dense ? float(cluster.half_width) : 0);
    std::size_t row_length = 0;
    for (const NodeContact& c : nodes) row_length += graph.neighbour_count_after(c.node);
    (n * (n - 1) / 2 <= row_length ? by_pairs : by_rows) = true;
    // The reference: each node's part, named by its smallest index, by search over all pairs.
    std::vector<std::uint32_t> part(n, std::uint32_t(n));
    for (std::uint32_t seed = 0; seed < n; ++seed) {
      if (part[seed] != n) continue;
      std::vector<std::uint32_t> stack{seed};
      part[seed] = seed;
      while (!stack.empty()) {
        const std::uint32_t i = stack.back();
        stack.pop_back();
        for (std::uint32_t j = 0; j < n; ++j)
          if (part[j] == n && (nodes[i].point - nodes[j].point).squaredNorm() <= distance * distance &&
              nodes[i].normal.dot(nodes[j].normal) >= min_cos)
            part[j] = seed, stack.push_back(j);
      }
    }
    std::vector<NodeContact> shuffled = nodes;  // not in node order: glued as if they were
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    for (const std::vector<NodeContact>* listed : {&nodes, &shuffled}) {
      const std::vector<ContactPatch> patches = glue_contacts(*listed, graph);
      std::size_t members = 0;
      for (const ContactPatch& p : patches) {
        members += p.members.size();
        auto part_of = [&](std::uint32_t m) { return part[((*listed)[m].node - 1) / 3]; };
        for (std::uint32_t m : p.members) EXPECT_EQ(part_of(m), part_of(p.members.front())) << n << " nodes";
      }
      EXPECT_EQ(members, n);
      std::vector<std::uint32_t> parts(part);
      std::sort(parts.begin(), parts.end());
      EXPECT_EQ(patches.size(), std::size_t(std::unique(parts.begin(), parts.end()) - parts.begin())) << n << " nodes";
      if (n >= 20) {  // neither all apart nor all one: the partition is a real one
        EXPECT_GT(patches.size(), 1u);
        EXPECT_LT(patches.size(), n);
      }
    }
  }
  EXPECT_TRUE(by_rows && by_pairs);  // both ways were taken
}

TEST(ContactPoints, ANodeListedTwiceOrBeyondTheShapeIsRefused) {
  auto nodes = face_nodes(0, 1, 0);
  const geometry::NodeGraph graph = graph_of(nodes, 0.15);
  auto twice = nodes;
  twice.push_back(nodes[3]);
  EXPECT_THROW(glue_contacts(twice, graph), std::invalid_argument);
  auto beyond = nodes;
  beyond.push_back({std::uint32_t(graph.node_count()), Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitZ(), 0});
  EXPECT_THROW(glue_contacts(beyond, graph), std::invalid_argument);
}

}  // namespace
}  // namespace scree::solver
