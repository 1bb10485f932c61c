// The solver's flat template samples the avatar's level set exactly as OpenVDB does,
// through the avatar's rotated body-frame transform, with the gradient of the same cell.
#include <gtest/gtest.h>
#include <openvdb/tools/Interpolation.h>

#include <random>

#include "geometry/template_from_avatar.h"
#include "levelset/avatar_builder.h"

namespace scree::geometry {
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

// The contact search tests a part's sphere before its halves and a leaf's before its nodes:
// the leaves hold every node exactly once, and every part's sphere holds its nodes.
TEST(ShapeTemplate, NodeHierarchyHoldsEveryNodeOnceWithinItsSpheres) {
  const ShapeTemplate t = template_from_avatar(turned_box_avatar());
  const auto& nodes = t.nodes();
  const auto& parts = t.node_clusters();
  ASSERT_EQ(nodes.size(), 300u);
  ASSERT_FALSE(parts.empty());
  EXPECT_EQ(parts[0].begin, 0u);  // the root holds them all
  EXPECT_EQ(parts[0].end, 300u);
  EXPECT_EQ(parts[0].after, parts.size());
  std::vector<int> in_leaves(nodes.size(), 0);
  for (std::size_t c = 0; c < parts.size(); ++c) {
    const NodeCluster& part = parts[c];
    EXPECT_GT(part.after, c);
    EXPECT_EQ(part.leaf, part.after == c + 1);
    if (part.leaf) {
      EXPECT_LE(part.end - part.begin, 8u);
    }
    for (std::uint32_t k = part.begin; k < part.end; ++k) {
      const std::uint32_t i = t.clustered_nodes()[k];
      if (part.leaf) ++in_leaves[i];
      EXPECT_LE((nodes[i] - part.centre).norm(), part.radius * (1 + 1e-6f)) << i;
    }
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) EXPECT_EQ(in_leaves[i], 1) << i;
  // Visiting with a test that takes everything reaches every node once.
  std::vector<int> visited(nodes.size(), 0);
  t.for_nodes_near([](const Eigen::Vector3f&, float) { return true; }, [&](std::uint32_t i) { ++visited[i]; });
  for (std::size_t i = 0; i < nodes.size(); ++i) EXPECT_EQ(visited[i], 1) << i;
}

// The contact search skips a part of a grain's nodes when the other's template says no value
// within the part's sphere can be below the margin: wherever it says so, sampling agrees.
TEST(ShapeTemplate, MayBeBelowIsFalseOnlyWhereNoSampleIsBelow) {
  const ShapeTemplate t = template_from_avatar(turned_box_avatar());
  const double h = t.voxel_size();
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> unit(-1, 1), fraction(0, 1);
  int skipped = 0, kept = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Eigen::Vector3d centre = 0.35 * Eigen::Vector3d(unit(rng), unit(rng), unit(rng));
    // Radii up to 12 voxels: the block minima tell up to 4, the slope bound at any size.
    const double radius = 12 * h * fraction(rng) * fraction(rng), below = 3 * h * unit(rng);
    if (t.may_be_below(centre, radius, below)) {
      ++kept;
      continue;
    }
    ++skipped;
    for (int k = 0; k < 200; ++k) {
      Eigen::Vector3d d(unit(rng), unit(rng), unit(rng));
      if (d.norm() > 1) continue;
      ASSERT_GE(t.value(centre + radius * d), below) << "trial " << trial;
    }
  }
  // Both answers come up: near the surface and far from it.
  EXPECT_GT(skipped, 200);
  EXPECT_GT(kept, 200);
}

// The slope bound holds between any two points of the box (within a voxel of each other,
// where culling uses it), and is sharp: the interpolant's gradient comes close to it. A
// distance field's is about 1; near the turned box's edges the interpolant is steeper.
TEST(ShapeTemplate, LipschitzBoundsTheSlopeOfTheInterpolant) {
  const ShapeTemplate t = template_from_avatar(turned_box_avatar());
  EXPECT_GE(t.lipschitz(), 1.0);
  EXPECT_LT(t.lipschitz(), 1.8);
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> unit(-1, 1);
  const double h = t.voxel_size();
  auto in_box = [&](const Eigen::Vector3d& body) {
    const Eigen::Vector3d index = t.index_of(body);
    for (int a = 0; a < 3; ++a)
      if (!(index[a] >= 0 && index[a] < t.dims()[a] - 1)) return false;
    return true;
  };
  double slope = 0, gradient_norm = 0;
  for (int trial = 0; trial < 200000; ++trial) {
    const Eigen::Vector3d x = 0.4 * Eigen::Vector3d(unit(rng), unit(rng), unit(rng));
    const Eigen::Vector3d y = x + 0.5 * h * Eigen::Vector3d(unit(rng), unit(rng), unit(rng));
    if (!in_box(x) || !in_box(y)) continue;
    slope = std::max(slope, std::abs(t.value(x) - t.value(y)) / (x - y).norm());
    Eigen::Vector3d gradient;
    t.value_and_gradient(x, gradient);
    gradient_norm = std::max(gradient_norm, gradient.norm());
  }
  EXPECT_LE(slope, t.lipschitz() * (1 + 1e-9));
  EXPECT_LE(gradient_norm, t.lipschitz() * (1 + 1e-9));
  // The steepest place is a cell's corner: just inside every corner of every cell (the voxel
  // is cubic, so the body frame's gradient is the index frame's over the voxel size).
  const Eigen::Vector3d offset = t.index_of(Eigen::Vector3d::Zero());
  Eigen::Matrix3d to_index;
  for (int a = 0; a < 3; ++a) to_index.col(a) = t.index_of(Eigen::Vector3d::Unit(a)) - offset;
  const Eigen::Matrix3d to_body = to_index.inverse();
  double corner_gradient = 0;
  for (int i = 0; i + 1 < t.dims()[0]; ++i)
    for (int j = 0; j + 1 < t.dims()[1]; ++j)
      for (int k = 0; k + 1 < t.dims()[2]; ++k)
        for (int corner = 0; corner < 8; ++corner) {
          const Eigen::Vector3d inside(corner >> 2 ? 1 - 1e-9 : 1e-9, (corner >> 1) & 1 ? 1 - 1e-9 : 1e-9, corner & 1 ? 1 - 1e-9 : 1e-9);
          Eigen::Vector3d gradient;
          t.value_and_gradient(to_body * (Eigen::Vector3d(i, j, k) + inside - offset), gradient);
          corner_gradient = std::max(corner_gradient, gradient.norm());
        }
  EXPECT_NEAR(corner_gradient, t.lipschitz(), 1e-6 * t.lipschitz());
}

}  // namespace
}  // namespace scree::geometry
