// Node-to-surface contacts between posed templates: depth and normal of two overlapping
// spheres against the closed form, with rotation and scale.
#include <gtest/gtest.h>

#include <random>

#include "geometry/template_from_avatar.h"
#include "levelset/avatar_builder.h"
#include "solver/contacts/narrow_phase.h"

namespace scree::solver {
namespace {

ShapeTemplate sphere_template(double radius, double voxel) {
  levelset::Resolution resolution;
  resolution.voxel_size = voxel;
  formats::Shape shape = levelset::implicit_shape(levelset::make_sphere(radius), resolution);
  levelset::add_nodes(shape, 4000, levelset::NodeMethod::rays);
  levelset::MassProperties mass;
  return geometry::template_from_avatar(levelset::make_avatar(shape, mass));
}

// Seed 004's superellipsoid A (elongated, blocky) with 2000 nodes at the given voxel size.
ShapeTemplate shape_a(double voxel) {
  levelset::Resolution resolution;
  resolution.voxel_size = voxel;
  formats::Shape shape = levelset::implicit_shape(levelset::make_superellipsoid({0.0058, 0.01, 0.0083}, 0.1, 0.5), resolution);
  levelset::add_nodes(shape, 2000, levelset::NodeMethod::rays);
  levelset::MassProperties mass;
  return geometry::template_from_avatar(levelset::make_avatar(shape, mass));
}

double farthest_node(const ShapeTemplate& t) {
  double radius = 0;
  for (const auto& n : t.nodes()) radius = std::max(radius, double(n.norm()));
  return radius;
}

// A at the origin; B of scale 2 (radius 0.2), turned, its centre 0.29 away along (1, 2, 2)/3:
// the overlap is 0.01 deep, the deepest node of A lies on the line of centres.
struct OverlappingSpheres {
  static constexpr double r = 0.1, h = 0.005;
  ShapeTemplate sphere = sphere_template(r, h);
  Pose a, b;
  Eigen::Vector3d axis = Eigen::Vector3d(1, 2, 2) / 3;
  OverlappingSpheres() {
    b.position = 0.29 * axis;
    b.orientation = Eigen::Quaterniond(Eigen::AngleAxisd(0.8, Eigen::Vector3d(0, 1, 1).normalized()));
    b.scale = 2;
  }
};

TEST(NarrowPhase, OverlappingSpheresGiveDepthAndNormal) {
  OverlappingSpheres s;
  const double h = s.h;
  const ShapeTemplate& sphere = s.sphere;
  const Pose& a = s.a;
  Pose& b = s.b;
  const Eigen::Vector3d& axis = s.axis;
  auto contacts = node_contacts(sphere, a, sphere, b, 0);
  ASSERT_FALSE(contacts.empty());
  const NodeContact* deepest = &contacts[0];
  for (const auto& c : contacts) {
    if (c.depth > deepest->depth) deepest = &c;
    // Each node's depth is B's radius minus its distance to B's centre, to the trilinear
    // interpolation error of B's level set (voxel 2h after scaling).
    EXPECT_NEAR(c.depth, 0.2 - (c.point - b.position).norm(), 0.03 * 2 * h);
    // The normal is B's outward radial direction at the node, within 2°.
    EXPECT_GT(c.normal.dot((c.point - b.position).normalized()), std::cos(2 * M_PI / 180));
  }
  EXPECT_NEAR(deepest->depth, 0.01, 0.1 * 2 * h);  // 4000 nodes: one lies near the axis
  EXPECT_GT(deepest->normal.dot(-axis), 0.999);  // B's normal points back towards A
  // Separated by 1 mm more than touching: nothing within a zero margin, something within 2 mm.
  b.position = 0.301 * axis;
  EXPECT_TRUE(node_contacts(sphere, a, sphere, b, 0).empty());
  EXPECT_FALSE(node_contacts(sphere, a, sphere, b, 0.002).empty());
}

// Culling by the other's bounding sphere skips nodes, never contacts: the same contacts with
// B's radius (plus a voxel) as without; a reach short of the overlap finds none.
TEST(NarrowPhase, CullingByTheOthersSphereKeepsEveryContact) {
  const OverlappingSpheres s;
  const auto all = node_contacts(s.sphere, s.a, s.sphere, s.b, 0);
  const auto culled = node_contacts(s.sphere, s.a, s.sphere, s.b, 0, 0.2 + 2 * s.h);
  ASSERT_EQ(culled.size(), all.size());
  for (std::size_t k = 0; k < all.size(); ++k) {
    EXPECT_EQ(culled[k].node, all[k].node);
    EXPECT_EQ(culled[k].depth, all[k].depth);
  }
  EXPECT_TRUE(node_contacts(s.sphere, s.a, s.sphere, s.b, 0, 0.15).empty());
}

// Culling by node clusters and the pair's own transform give what sampling every node at its
// world position gives: an elongated, blocky grain (seed 004's shape A) against another, at
// random poses that overlap.
TEST(NarrowPhase, ClusterCullingFindsWhatSamplingEveryNodeFinds) {
  const ShapeTemplate a = shape_a(0.001);
  const double radius = farthest_node(a);
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> unit(-1, 1);
  auto turn = [&] { return Eigen::Quaterniond(Eigen::Vector4d(unit(rng), unit(rng), unit(rng), unit(rng)).normalized()); };
  std::size_t found = 0;
  for (int trial = 0; trial < 200; ++trial) {
    Pose p, q;
    p.orientation = turn(), q.orientation = turn();
    p.scale = 1 + 0.5 * unit(rng), q.scale = 1 + 0.5 * unit(rng);
    q.position = 0.012 * Eigen::Vector3d(unit(rng), unit(rng), unit(rng));
    const double margin = 2e-4;
    const auto culled = node_contacts(a, p, a, q, margin, radius * q.scale + 1e-3);
    std::vector<std::uint32_t> every;
    for (std::uint32_t i = 0; i < a.nodes().size(); ++i) {
      const Eigen::Vector3d world = p.position + p.orientation * (p.scale * a.nodes()[i].cast<double>());
      Eigen::Vector3d gradient;
      if (posed_value(a, q, world, &gradient) < margin && gradient.norm() > 0) every.push_back(i);
    }
    ASSERT_EQ(culled.size(), every.size()) << "trial " << trial;
    for (std::size_t k = 0; k < every.size(); ++k) {
      ASSERT_EQ(culled[k].node, every[k]) << "trial " << trial;
      const Eigen::Vector3d world = p.position + p.orientation * (p.scale * a.nodes()[every[k]].cast<double>());
      EXPECT_NEAR(culled[k].depth, -posed_value(a, q, world), 1e-12);
      EXPECT_LT((culled[k].point - world).norm(), 1e-15);
    }
    found += every.size();
  }
  EXPECT_GT(found, 2000u);  // the poses overlap: the comparison is not empty
}

// A list of near nodes gives back its nodes as listed, across gaps of one to 2³¹ between
// them, each φ rounded down by less than a 255th of its span.
TEST(NarrowPhase, NearNodesPackedGiveBackTheirNodesAndAPhiBelow) {
  const std::vector<std::uint32_t> nodes = {0, 1, 2, 129, 257, 16640, 16641, 100000, 100127, 2147583648u, 4294967295u};
  std::vector<NearNode> listed;
  for (std::size_t k = 0; k < nodes.size(); ++k) listed.push_back({nodes[k], -2e-4 + 3e-5 * double((k * 7) % 11)});
  NearNodes near;
  near.reach = 1e-4;
  near.least = -2.5e-4;
  near.list(listed);
  std::size_t k = 0;
  near.for_each_listed([&](std::uint32_t node, double phi) {
    ASSERT_LT(k, listed.size());
    EXPECT_EQ(node, listed[k].node);
    EXPECT_LE(phi, listed[k].phi);
    EXPECT_GT(phi, listed[k].phi - (near.reach - near.least) / 255);
    ++k;
  });
  EXPECT_EQ(k, listed.size());
}

// The near nodes kept from search to search give a fresh search's contacts bit for bit, along
// a random walk of two superellipsoids that approach, touch, turn and part: steps a tenth of
// a voxel (reused many times over), and jumps of two voxels (listed afresh). Each of the three
// ways is taken: clear of each other without a sample, the listed nodes only, afresh.
TEST(NarrowPhase, NearNodesGiveTheFreshSearchesContacts) {
  const ShapeTemplate a = shape_a(0.0005);
  const double radius = farthest_node(a);
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> unit(-1, 1);
  Pose p, q;
  p.scale = 1.1, q.scale = 0.9;
  q.position = Eigen::Vector3d(0.02, 0.004, 0.0);  // apart; the walk drifts them together and back
  const double margin = 1e-5, skin = 0.0005, h = 0.0005;
  NearNodes near;
  int clear = 0, listed = 0, afresh = 0;
  std::size_t contacts = 0;
  for (int step = 0; step < 3000; ++step) {
    const double size = step % 100 == 99 ? 2 * h : 0.1 * h;
    const double drift = step < 1500 ? -0.02 * h : 0.02 * h;
    q.position += size * Eigen::Vector3d(unit(rng), unit(rng), unit(rng)) / std::sqrt(3.0) + Eigen::Vector3d(drift, 0, 0);
    q.orientation = (Eigen::Quaterniond(Eigen::AngleAxisd(size / 0.01, Eigen::Vector3d(unit(rng), unit(rng), unit(rng)).normalized())) *
                     q.orientation).normalized();
    p.orientation = (Eigen::Quaterniond(Eigen::AngleAxisd(0.5 * size / 0.01, Eigen::Vector3d::UnitZ())) * p.orientation).normalized();
    const NearNodesCover cover = near_nodes_cover(near, a, p, a, q, margin).cover;
    const auto kept = node_contacts(a, p, a, q, margin, radius * q.scale + 1e-3, skin, near);
    const auto fresh = node_contacts(a, p, a, q, margin, radius * q.scale + 1e-3);
    ASSERT_EQ(kept.size(), fresh.size()) << "step " << step;
    for (std::size_t k = 0; k < fresh.size(); ++k) {
      ASSERT_EQ(kept[k].node, fresh[k].node) << "step " << step;
      ASSERT_EQ(kept[k].depth, fresh[k].depth);
      ASSERT_EQ(kept[k].point, fresh[k].point);
      ASSERT_EQ(kept[k].normal, fresh[k].normal);
    }
    contacts += fresh.size();
    clear += cover == NearNodesCover::clear;
    listed += cover == NearNodesCover::listed;
    afresh += cover == NearNodesCover::stale;
    if (cover == NearNodesCover::clear) {
      EXPECT_TRUE(fresh.empty());
    }
  }
  EXPECT_GT(contacts, 1000u);  // they touch for much of the walk
  EXPECT_GT(clear, 100);
  EXPECT_GT(listed, 300);
  EXPECT_GT(afresh, 30);
  EXPECT_LT(afresh, 1000);  // most searches reuse
}

// The cover of a grain's list against the terrain: each listed node's φ may have drifted by
// the terrain's slope times the farthest any node moved; past the ball that slope was taken
// over (`roam`) the list is stale, even where the slope was nil (over a hole in the ground),
// and a list with no slope known is stale at once.
TEST(NarrowPhase, TerrainNodesCoverDriftsByTheSlopeWithinItsRoam) {
  const ShapeTemplate a = shape_a(0.0005);
  Pose grain;
  grain.position = Eigen::Vector3d(1.0, 2.0, 0.5);
  const Pose terrain{Eigen::Vector3d(0.3, -0.2, 0.1), Eigen::Quaterniond::Identity(), 1};
  const double margin = 1e-5, voxel = 0.01, reach = 0.005, roam = 0.003;
  std::vector<NearNode> nodes{{10, 0.004}, {3, 0.002}};
  TerrainNearNodes steep, flat, unknown;
  list_terrain_nodes(steep, grain, terrain, reach, nodes, 2.0, roam);
  list_terrain_nodes(flat, grain, terrain, reach, nodes, 0.0, roam);
  list_terrain_nodes(unknown, grain, terrain, reach, nodes, std::nullopt, roam);
  std::vector<std::uint32_t> listed;
  steep.near.for_each_listed([&](std::uint32_t node, double) { listed.push_back(node); });
  EXPECT_EQ(listed, (std::vector<std::uint32_t>{3, 10}));
  EXPECT_FLOAT_EQ(steep.near.least, 0.002f);
  Pose moved = grain;
  moved.position.x() += 0.001;
  const NearNodesState on_slope = terrain_nodes_cover(steep, a, moved, terrain, voxel, margin);
  EXPECT_EQ(on_slope.cover, NearNodesCover::listed);  // the least may have drifted to the margin
  EXPECT_NEAR(on_slope.drift, 2 * 0.001, 1e-5);       // and round-off
  EXPECT_EQ(terrain_nodes_cover(flat, a, moved, terrain, voxel, margin).cover, NearNodesCover::clear);
  EXPECT_EQ(terrain_nodes_cover(unknown, a, moved, terrain, voxel, margin).cover, NearNodesCover::stale);
  moved.position.x() += roam;  // beyond the roam
  EXPECT_EQ(terrain_nodes_cover(flat, a, moved, terrain, voxel, margin).cover, NearNodesCover::stale);
}

}  // namespace
}  // namespace scree::solver
