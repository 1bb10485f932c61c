// Determinism across thread counts (Jolt's determinism tests): the contact search runs in
// parallel batches joined in a fixed order, so a heap stepped on one thread and on several
// ends bit for bit the same.
#include <gtest/gtest.h>
#include <omp.h>

#include <cstring>

#include "geometry/template_from_avatar.h"
#include "levelset/avatar_builder.h"
#include "levelset/shapes.h"
#include "solver/step.h"
#include "solver/world.h"

namespace scree::solver {
namespace {

// Angular grains (level-set boxes) dropped into a box: collisions, resting contact between
// grains and against the walls, and neighbour-list rebuilds all happen within the run.
World falling_heap() {
  World w;
  levelset::Resolution resolution;
  resolution.voxels = 10;
  formats::Shape box = levelset::implicit_shape(levelset::make_box(levelset::Vec3d(0.05, 0.04, 0.03)), resolution);
  levelset::add_nodes(box, 60, levelset::NodeMethod::rays);
  levelset::MassProperties mass;
  w.shapes.push_back(geometry::grain_shape_from_avatar(levelset::make_avatar(box, mass)));
  w.laws = {{0.5, 0.3}};
  std::uint64_t id = 1;
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) {
        const Quat turn(Eigen::AngleAxisd(0.7 * double(id), Vec3(1, double(i), double(j + k)).normalized()));
        w.add_grain(id++, 0, 0, 2650, 1, Vec3(0.13 * i + 0.02 * k, 0.13 * j, 0.08 + 0.14 * k), turn);
      }
  w.add_wall({WallShape::box, Vec3::Zero(), Vec3::UnitZ(), Vec3(-0.08, -0.08, 0), Vec3(0.36, 0.34, 2)});
  return w;
}

World run_on(int threads, int steps) {
  const int before = omp_get_max_threads();
  omp_set_num_threads(threads);
  World w = falling_heap();
  StepSettings s;
  s.time_step = 2e-3;
  s.impulse.boundary_iterations = 3;
  for (int i = 0; i < steps; ++i) advance(w, s);
  omp_set_num_threads(before);
  return w;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

class ThreadCount : public ::testing::TestWithParam<int> {};

TEST_P(ThreadCount, AHeapEndsBitForBitAsOnOneThread) {
  const int steps = 150;
  const World one = run_on(1, steps), many = run_on(GetParam(), steps);
  // The heap has met the floor and its grains each other: the test is not of free fall.
  EXPECT_GT(one.energy.resting + one.energy.restitution, 0);
  EXPECT_GT(one.neighbours.rebuilds(), 1);
  ASSERT_EQ(one.grain_count(), many.grain_count());
  for (std::size_t i = 0; i < one.grain_count(); ++i)
    for (int c = 0; c < 3; ++c) {
      EXPECT_TRUE(same_bits(one.bodies[i].position[c], many.bodies[i].position[c])) << "grain " << i;
      EXPECT_TRUE(same_bits(one.bodies[i].velocity[c], many.bodies[i].velocity[c])) << "grain " << i;
      EXPECT_TRUE(same_bits(one.bodies[i].angular_velocity[c], many.bodies[i].angular_velocity[c])) << "grain " << i;
    }
  EXPECT_TRUE(same_bits(one.energy.total(), many.energy.total()));
  EXPECT_EQ(one.resting_impulses.size(), many.resting_impulses.size());
}

// Two threads (this machine's cores) and four (more than it has: other interleavings).
INSTANTIATE_TEST_SUITE_P(Solver, ThreadCount, ::testing::Values(2, 4), [](const auto& info) {
  return std::to_string(info.param) + "Threads";
});

}  // namespace
}  // namespace scree::solver
