// Grain shapes laid out flat (as a node's ranks share them, docs/parallel.md "Memory") come
// back the same to the bit: a level-set template samples the same values and gradients, with
// the same nodes, clusters, slope bound and glued nodes, reading its values where they lie; a
// sphere is the sphere; a block cut short is refused.
#include <gtest/gtest.h>

#include <random>

#include "geometry/flat_shapes.h"
#include "geometry/template_from_avatar.h"
#include "levelset/avatar_builder.h"
#include "levelset/shapes.h"

namespace scree::geometry {
namespace {

GrainShape rock() {
  levelset::Resolution resolution;
  resolution.voxel_size = 0.02;
  formats::Shape shape = levelset::implicit_shape(levelset::make_superellipsoid(levelset::Vec3d(0.3, 0.2, 0.15), 0.5, 0.5), resolution);
  levelset::add_nodes(shape, 200, levelset::NodeMethod::rays);
  levelset::MassProperties mass;
  return grain_shape_from_avatar(levelset::make_avatar(shape, mass));
}

TEST(FlatShapes, ComeBackTheSameToTheBit) {
  const std::vector<GrainShape> shapes{rock(), GrainShape::sphere(0.25)};
  auto block = std::make_shared<const std::vector<std::byte>>(flat_shapes(shapes));
  const std::vector<GrainShape> back = shapes_in_place(*block, block);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_FALSE(back[1].level_set);
  EXPECT_EQ(back[1].sphere_radius, 0.25);
  EXPECT_EQ(back[1].volume, shapes[1].volume);
  const GrainShape &a = shapes[0], &b = back[0];
  ASSERT_TRUE(b.level_set);
  EXPECT_EQ(b.volume, a.volume);
  EXPECT_EQ(b.inertia_per_density, a.inertia_per_density);
  EXPECT_EQ(b.bounding_radius, a.bounding_radius);
  EXPECT_EQ(b.smallest_half_extent, a.smallest_half_extent);
  EXPECT_EQ(b.glue_distance, a.glue_distance);
  EXPECT_EQ(b.glued_nodes.adjacent, a.glued_nodes.adjacent);
  const ShapeTemplate &s = *a.level_set, &t = *b.level_set;
  // Read where they lie, not copied.
  EXPECT_GE(t.values().data(), reinterpret_cast<const float*>(block->data()));
  EXPECT_LT(t.values().data(), reinterpret_cast<const float*>(block->data() + block->size()));
  EXPECT_EQ(t.nodes(), s.nodes());
  EXPECT_EQ(t.clustered_nodes(), s.clustered_nodes());
  EXPECT_EQ(t.node_clusters().size(), s.node_clusters().size());
  EXPECT_EQ(t.lipschitz(), s.lipschitz());
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> coordinate(-0.4, 0.4);
  for (int n = 0; n < 2000; ++n) {
    const Eigen::Vector3d p(coordinate(rng), coordinate(rng), coordinate(rng));
    Eigen::Vector3d g, h;
    EXPECT_EQ(t.value_and_gradient(p, g), s.value_and_gradient(p, h)) << p.transpose();
    EXPECT_EQ(g, h);
    EXPECT_EQ(t.may_be_below(p, 0.05, -0.01), s.may_be_below(p, 0.05, -0.01));
  }
  EXPECT_THROW(shapes_in_place(std::span(*block).first(block->size() - 8), block), std::invalid_argument);
}

}  // namespace
}  // namespace scree::geometry
