// The order of a state's grains carries no meaning (docs/formats.md): scree-solve takes them
// in the order of their ids, so the same grains listed in another order run bit for bit the
// same. Every order a step takes follows it, which is what lets a rank that holds some of
// the grains take them as one that holds all does (docs/parallel.md).
#include <gtest/gtest.h>

#include <algorithm>

#include "tools/same_run.h"

namespace scree {
namespace {

TEST(SolveGrainOrder, AStateInAnotherOrderRunsTheSame) {
  testing::TempDir listed, shuffled;
  testing::prepare_blocks(listed, {});
  testing::prepare_blocks(shuffled, {});
  // The same grains, reversed and then rotated by three.
  const formats::State state = formats::read_state(listed / "state.h5");
  const std::size_t n = state.bodies.size();
  ASSERT_GE(n, 4u);
  formats::State moved = state;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t from = n - 1 - (k + 3) % n;
    moved.bodies.id[k] = state.bodies.id[from];
    moved.bodies.template_index[k] = state.bodies.template_index[from];
    moved.bodies.scale[k] = state.bodies.scale[from];
    moved.bodies.position[k] = state.bodies.position[from];
    moved.bodies.orientation[k] = state.bodies.orientation[from];
    moved.bodies.velocity[k] = state.bodies.velocity[from];
    moved.bodies.angular_velocity[k] = state.bodies.angular_velocity[from];
  }
  ASSERT_NE(moved.bodies.id, state.bodies.id);
  formats::write_state(shuffled / "state.h5", moved);
  testing::solve(listed);
  testing::solve(shuffled);
  EXPECT_GE(testing::expect_same_run(listed, shuffled), 7u);
  // Frames and checkpoints list the grains by id.
  const formats::State end = testing::checkpoint(shuffled);
  EXPECT_TRUE(std::is_sorted(end.bodies.id.begin(), end.bodies.id.end()));
}

}  // namespace
}  // namespace scree
