// Boundary nodes on the zero level (|φ| < 1e-3 voxel), the spiral of seed 004, several
// hits per ray on concave shapes, and avatars in the body frame.
#include <gtest/gtest.h>
#include <openvdb/tools/Interpolation.h>

#include <array>
#include <cmath>
#include <set>

#include "common/temp_dir.h"
#include "levelset/avatar_builder.h"
#include "levelset/superellipsoids.h"

namespace scree::levelset {
namespace {

double worst_level(const openvdb::FloatGrid& phi, const std::vector<Vec3d>& nodes) {
  auto acc = phi.getConstAccessor();
  double worst = 0;
  for (const Vec3d& n : nodes)
    worst = std::max(worst, std::abs(double(openvdb::tools::BoxSampler::sample(acc, phi.transform().worldToIndex(n)))));
  return worst;
}

TEST(BoundaryNodes, SpiralIsUnitAndBalanced) {
  auto d = spiral_directions(2000);
  ASSERT_EQ(d.size(), 2000u);
  Vec3d sum(0);
  for (const auto& v : d) {
    EXPECT_NEAR(v.length(), 1, 1e-12);
    sum += v;
  }
  EXPECT_LT(sum.length() / 2000, 1e-3);  // evenly spread: the mean direction vanishes
  EXPECT_NEAR(d[0][2], -1 + 1.0 / 2000, 1e-12);  // θ_0 = arccos(−1 + 1/N)
}

TEST(BoundaryNodes, ZeroCrossingsOfALinearFieldAreExact) {
  // φ = x − 0.237 is reproduced exactly by trilinear interpolation.
  auto phi = openvdb::FloatGrid::create(1);
  phi->setTransform(openvdb::math::Transform::createLinearTransform(0.1));
  for (int i = -5; i <= 5; ++i)
    for (int j = -5; j <= 5; ++j)
      for (int k = -5; k <= 5; ++k) phi->tree().setValue(openvdb::Coord(i, j, k), float(0.1 * i - 0.237));
  auto hits = zero_crossings(*phi, Vec3d(-0.4, -0.3, 0.05), Vec3d(0.45, 0.3, -0.2));
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_NEAR(hits[0][0], 0.237, 1e-6);
}

// φ = |x| − 0.2 on a grid whose nodes lie on both zeros: round-off may give the cells either
// side of a zero opposite signs there, and each crossing must still count once.
TEST(BoundaryNodes, ZerosOnGridNodesCountOnce) {
  auto phi = openvdb::FloatGrid::create(1);
  phi->setTransform(openvdb::math::Transform::createLinearTransform(0.05));
  for (int i = -10; i <= 10; ++i)
    for (int j = -2; j <= 2; ++j)
      for (int k = -2; k <= 2; ++k) phi->tree().setValue(openvdb::Coord(i, j, k), float(0.05 * std::abs(i) - 0.2));
  for (double reach : {0.3, 0.35, 0.45, 0.5})
    for (double y : {0.0, 0.0123, 0.025}) {
      const auto hits = zero_crossings(*phi, Vec3d(-reach, y, 0.01), Vec3d(reach, y, 0.01));
      ASSERT_EQ(hits.size(), 2u) << reach << " " << y;
      EXPECT_NEAR(hits[0][0], -0.2, 1e-9);
      EXPECT_NEAR(hits[1][0], 0.2, 1e-9);
    }
}

class NodesOnSuperellipsoid : public ::testing::TestWithParam<testing::TableSuperellipsoid> {};

TEST_P(NodesOnSuperellipsoid, RaysLandOnTheZeroLevel) {
  const auto& s = GetParam();
  formats::Shape shape = implicit_shape(make_superellipsoid(s.radii * 0.01, s.eps_e, s.eps_n), {});
  const double h = shape.phi->voxelSize()[0];
  auto placed = place_nodes(*shape.phi, Vec3d(0), 2000, NodeMethod::automatic);
  EXPECT_EQ(placed.method, NodeMethod::rays);  // convex: one hit per ray
  EXPECT_EQ(placed.nodes.size(), 2000u);
  EXPECT_LT(worst_level(*shape.phi, placed.nodes), 1e-3 * h);
  auto surface = place_nodes(*shape.phi, Vec3d(0), 500, NodeMethod::surface);
  EXPECT_EQ(surface.nodes.size(), 500u);
  EXPECT_LT(worst_level(*shape.phi, surface.nodes), 1e-3 * h);
}

INSTANTIATE_TEST_SUITE_P(Seed004, NodesOnSuperellipsoid, ::testing::ValuesIn(testing::table_superellipsoids),
                         testing::shape_name);

TEST(BoundaryNodes, ConcaveShapeGivesSeveralHitsPerRay) {
  // A dumbbell seen from its waist's side: rays along x pass through one ball only, but a
  // centre off the axis sees rays cross both balls.
  ImplicitShape dumbbell{[](const Vec3d& p) {
                           return std::min((p - Vec3d(-1, 0, 0)).length(), (p - Vec3d(1, 0, 0)).length()) - 0.8;
                         },
                         Vec3d(-1.8, -0.8, -0.8), Vec3d(1.8, 0.8, 0.8), "dumbbell"};
  formats::Shape shape = implicit_shape(dumbbell, {});
  auto rays = place_nodes(*shape.phi, Vec3d(-1, 0, 0), 500, NodeMethod::rays);
  EXPECT_GT(rays.nodes.size(), 500u);  // rays towards +x leave, re-enter and leave again
  EXPECT_LT(worst_level(*shape.phi, rays.nodes), 1e-3 * shape.phi->voxelSize()[0]);
  EXPECT_EQ(place_nodes(*shape.phi, Vec3d(-1, 0, 0), 500, NodeMethod::automatic).method, NodeMethod::surface);
}

// Grid rays give a box a node set with the box's three mirror planes: every node's mirror
// image is a node, so no face is tilted by the sampling (issue 4 case 3).
TEST(BoundaryNodes, GridNodesOfABoxAreMirrorSymmetric) {
  Resolution resolution;
  resolution.voxels = 20;
  formats::Shape shape = implicit_shape(make_box(Vec3d(1, 1, 0.5)), resolution);
  const double h = shape.phi->voxelSize()[0];
  const auto placed = place_nodes(*shape.phi, Vec3d(0), 1000, NodeMethod::grid);
  EXPECT_EQ(placed.method, NodeMethod::grid);
  EXPECT_NEAR(double(placed.nodes.size()), 1000, 100);
  EXPECT_LT(worst_level(*shape.phi, placed.nodes), 1e-3 * h);
  auto key = [](const Vec3d& p) { return std::array<long long, 3>{std::llround(p[0] * 1e9), std::llround(p[1] * 1e9), std::llround(p[2] * 1e9)}; };
  std::set<std::array<long long, 3>> nodes;
  Vec3d sum(0);
  for (const Vec3d& p : placed.nodes) {
    nodes.insert(key(p));
    sum += p;
  }
  for (const Vec3d& p : placed.nodes)
    for (const Vec3d& mirror : {Vec3d(-p[0], p[1], p[2]), Vec3d(p[0], -p[1], p[2]), Vec3d(p[0], p[1], -p[2])})
      ASSERT_TRUE(nodes.count(key(mirror))) << p;
  EXPECT_LT(sum.length() / double(placed.nodes.size()), 1e-12);
  // Every face gets nodes, about in proportion to its area (the 2 × 2 faces twice the others').
  int top = 0, side = 0;
  for (const Vec3d& p : placed.nodes) {
    top += std::abs(p[2] - 0.5) < 1e-3;
    side += std::abs(p[0] - 1) < 1e-3;
  }
  EXPECT_NEAR(double(top) / side, 2, 0.3);
}

TEST(Avatar, BodyFrameTransformsEverythingConsistently) {
  // A box rotated about z and shifted: the avatar's level set, nodes and source-to-body
  // matrix all agree, and in the body frame the centroid is 0 and the inertia diagonal.
  const double angle = 0.4, c = std::cos(angle), s = std::sin(angle);
  const Vec3d centre(0.3, -0.2, 0.1);
  auto box = make_box(Vec3d(0.1, 0.2, 0.3));
  ImplicitShape turned{[&](const Vec3d& p) {
                         Vec3d q = p - centre;
                         return box.f(Vec3d(c * q[0] + s * q[1], -s * q[0] + c * q[1], q[2]));
                       },
                       centre - Vec3d(0.4), centre + Vec3d(0.4), "turned box"};
  Resolution resolution;
  resolution.voxel_size = 0.01;
  formats::Shape shape = implicit_shape(turned, resolution);
  add_nodes(shape, 800, NodeMethod::rays);
  MassProperties mass;
  formats::Avatar avatar = make_avatar(shape, mass);
  const auto& M = avatar.properties.source_to_body;
  auto to_body = [&](const Vec3d& x) {
    return Vec3d(M[0] * x[0] + M[1] * x[1] + M[2] * x[2] + M[3], M[4] * x[0] + M[5] * x[1] + M[6] * x[2] + M[7],
                 M[8] * x[0] + M[9] * x[1] + M[10] * x[2] + M[11]);
  };
  EXPECT_LT(to_body(centre).length(), 1e-4);
  // Grid points map through the same transform.
  for (auto ijk : {openvdb::Coord(0, 0, 0), openvdb::Coord(7, -3, 12)}) {
    Vec3d expected = to_body(shape.phi->indexToWorld(ijk));
    EXPECT_LT((avatar.phi->indexToWorld(ijk) - expected).length(), 1e-12);
  }
  // Nodes: the same points, moved.
  for (std::size_t i = 0; i < shape.nodes.size(); i += 97) {
    Vec3d moved = to_body(Vec3d(shape.nodes[i][0], shape.nodes[i][1], shape.nodes[i][2]));
    EXPECT_LT((Vec3d(avatar.nodes[i][0], avatar.nodes[i][1], avatar.nodes[i][2]) - moved).length(), 1e-6);
  }
  // Body frame: centroid at 0, inertia diagonal with the box's moments (a 0.2 × 0.4 × 0.6 box).
  MassProperties body = integrate_mass(*avatar.phi);
  EXPECT_LT(body.centroid.length(), 1e-9);
  const double v = 0.048;
  EXPECT_NEAR(body.volume, v, 0.005 * v);
  EXPECT_NEAR(body.inertia(0, 1), 0, 1e-4 * body.principal[2]);
  EXPECT_NEAR(avatar.properties.inertia_per_density[0], v * (0.16 + 0.36) / 12, 0.01 * v * 0.52 / 12);
  EXPECT_NEAR(avatar.properties.inertia_per_density[2], v * (0.04 + 0.16) / 12, 0.01 * v * 0.2 / 12);
  std::vector<Vec3d> body_nodes;
  for (const auto& n : avatar.nodes) body_nodes.emplace_back(n[0], n[1], n[2]);
  EXPECT_LT(worst_level(*avatar.phi, body_nodes), 1e-3 * 0.01);

  testing::TempDir dir;
  formats::write_avatar(dir / "box.vdb", avatar);
  formats::Avatar back = formats::read_avatar(dir / "box.vdb");
  EXPECT_EQ(back.nodes, avatar.nodes);
  EXPECT_LT((back.phi->indexToWorld(openvdb::Coord(3, 4, 5)) - avatar.phi->indexToWorld(openvdb::Coord(3, 4, 5))).length(), 1e-12);
}

}  // namespace
}  // namespace scree::levelset
