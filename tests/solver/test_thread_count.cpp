// Determinism across thread counts (Jolt's determinism tests): the contact search runs in
// parallel batches joined in a fixed order, so a heap stepped on one thread and on several
// ends bit for bit the same.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
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

// A crate of 26 × 26 × 13 balls at rest touching, shaken: one resting island of ~30 000
// points, which the threads share tile by tile (solver/impulse/tiles.h).
World shaken_crate() {
  World w;
  const double r = 0.01;
  w.shapes.push_back(GrainShape::sphere(r));
  w.laws = {{0.4, 0.5}};
  std::uint64_t id = 1;
  for (int k = 0; k < 13; ++k)
    for (int j = 0; j < 26; ++j)
      for (int i = 0; i < 26; ++i) {
        const std::uint32_t g = w.add_grain(id, 0, 0, 2650, 1, Vec3(r + 2 * r * i, r + 2 * r * j, r + 2 * r * k), Quat::Identity());
        w.bodies[g].velocity = 0.01 * Vec3(std::sin(double(id)), std::cos(3.0 * double(id)), 0);
        ++id;
      }
  w.add_wall({WallShape::box, Vec3::Zero(), Vec3::UnitZ(), Vec3::Zero(), Vec3(52 * r, 52 * r, 1)});
  return w;
}

TEST_P(ThreadCount, AShakenCrateEndsBitForBitAsOnOneThread) {
  auto run = [](int threads, StepReport& last) {
    const int before = omp_get_max_threads();
    omp_set_num_threads(threads);
    World w = shaken_crate();
    StepSettings s;
    for (int i = 0; i < 5; ++i) last = advance(w, s);
    omp_set_num_threads(before);
    return w;
  };
  StepReport report;
  const World one = run(1, report), many = run(GetParam(), report);
  EXPECT_GT(report.contacts, 25000u);  // one island, solved by all threads at once
  EXPECT_GT(report.passes, 1);
  for (std::size_t i = 0; i < one.grain_count(); ++i)
    for (int c = 0; c < 3; ++c) {
      EXPECT_TRUE(same_bits(one.bodies[i].position[c], many.bodies[i].position[c])) << "grain " << i;
      EXPECT_TRUE(same_bits(one.bodies[i].velocity[c], many.bodies[i].velocity[c])) << "grain " << i;
    }
  EXPECT_TRUE(same_bits(one.energy.total(), many.energy.total()));
  EXPECT_EQ(one.resting_impulses, many.resting_impulses);
}

// Two threads (this machine's cores) and four (more than it has: other interleavings).
INSTANTIATE_TEST_SUITE_P(Solver, ThreadCount, ::testing::Values(2, 4), [](const auto& info) {
  return std::to_string(info.param) + "Threads";
});

}  // namespace
}  // namespace scree::solver
