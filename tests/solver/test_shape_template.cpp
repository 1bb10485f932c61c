// The solver's flat template samples the avatar's level set exactly as OpenVDB does,
// through the avatar's rotated body-frame transform, with the gradient of the same cell.
#include <gtest/gtest.h>
#include <openvdb/tools/Interpolation.h>

#include <random>

#include "levelset/avatar_builder.h"
#include "solver/template_from_avatar.h"

namespace scree::solver {
namespace {

// A turned, shifted box with nodes: its avatar's transform carries a rotation.
formats::Avatar turned_box_avatar() {
  const double angle = 0.7, c = std::cos(angle), s = std::sin(angle);
  auto box = levelset::make_box(levelset::Vec3d(0.1, 0.15, 0.2));
  levelset::ImplicitShape turned{[=](const levelset::Vec3d& p) {
                                   levelset::Vec3d q = p - levelset::Vec3d(0.3, 0.1, -0.2);
                                   return box.f(levelset::Vec3d(c * q[0] + s * q[2], q[1], -s * q[0] + c * q[2]));
                                 },
                                 levelset::Vec3d(-0.2, -0.3, -0.6), levelset::Vec3d(0.8, 0.5, 0.2), "turned box"};
  levelset::Resolution resolution;
  resolution.voxel_size = 0.02;
  formats::Shape shape = levelset::implicit_shape(turned, resolution);
  levelset::add_nodes(shape, 300, levelset::NodeMethod::rays);
  levelset::MassProperties mass;
  return levelset::make_avatar(shape, mass);
}

TEST(ShapeTemplate, SamplesLikeOpenVdbInTheBodyFrame) {
  const formats::Avatar avatar = turned_box_avatar();
  const ShapeTemplate shape = template_from_avatar(avatar);
  auto acc = avatar.phi->getConstAccessor();
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> coordinate(-0.3, 0.3);
  for (int n = 0; n < 2000; ++n) {
    Eigen::Vector3d body(coordinate(rng), coordinate(rng), coordinate(rng));
    double expected = openvdb::tools::BoxSampler::sample(
        acc, avatar.phi->transform().worldToIndex(openvdb::Vec3d(body[0], body[1], body[2])));
    EXPECT_NEAR(shape.value(body), expected, 1e-6) << body.transpose();
  }
  // Nodes lie on the zero level of the same interpolant.
  for (const auto& node : shape.nodes()) EXPECT_LT(std::abs(shape.value(node.cast<double>())), 1e-3 * 0.02);
  // Far outside: the background.
  EXPECT_FLOAT_EQ(float(shape.value(Eigen::Vector3d(5, 0, 0))), avatar.phi->background());
  EXPECT_LT(shape.bytes(), avatar.phi->memUsage());
}

TEST(ShapeTemplate, GradientIsTheInterpolantsAndPointsOutwards) {
  const formats::Avatar avatar = turned_box_avatar();
  const ShapeTemplate shape = template_from_avatar(avatar);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> coordinate(-0.25, 0.25);
  const double d = 1e-7;
  for (int n = 0; n < 500; ++n) {
    Eigen::Vector3d body(coordinate(rng), coordinate(rng), coordinate(rng)), gradient;
    shape.value_and_gradient(body, gradient);
    for (int a = 0; a < 3; ++a) {
      Eigen::Vector3d e = Eigen::Vector3d::Zero();
      e[a] = d;
      double numeric = (shape.value(body + e) - shape.value(body - e)) / (2 * d);
      EXPECT_NEAR(gradient[a], numeric, 1e-4) << body.transpose();  // differs only across cell faces
    }
  }
  // At a node the gradient is the outward normal: moving along it raises φ.
  for (std::size_t i = 0; i < shape.nodes().size(); i += 17) {
    Eigen::Vector3d node = shape.nodes()[i].cast<double>(), gradient;
    shape.value_and_gradient(node, gradient);
    EXPECT_NEAR(gradient.norm(), 1, 0.2);
    EXPECT_GT(shape.value(node + 0.005 * gradient.normalized()), 0);
    EXPECT_LT(shape.value(node - 0.005 * gradient.normalized()), 0);
  }
}

// The contact search tests a cluster's sphere before its nodes: every node belongs to
// exactly one cluster, and lies within its sphere.
TEST(ShapeTemplate, NodeClustersHoldEveryNodeOnceWithinTheirSpheres) {
  const ShapeTemplate t = template_from_avatar(turned_box_avatar());
  const auto& nodes = t.nodes();
  ASSERT_EQ(nodes.size(), 300u);
  std::vector<int> seen(nodes.size(), 0);
  EXPECT_GE(t.node_clusters().size(), 300u / 32);
  for (const NodeCluster& c : t.node_clusters()) {
    EXPECT_LE(c.end - c.begin, 32u);
    EXPECT_GT(c.end, c.begin);
    for (std::uint32_t k = c.begin; k < c.end; ++k) {
      const std::uint32_t i = t.clustered_nodes()[k];
      ++seen[i];
      EXPECT_LE((nodes[i] - c.centre).norm(), c.radius * (1 + 1e-6f)) << i;
    }
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) EXPECT_EQ(seen[i], 1) << i;
}

}  // namespace
}  // namespace scree::solver
