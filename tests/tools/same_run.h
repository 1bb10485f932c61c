#pragma once
// Runs that must agree bit for bit (a restart and the run it continues, a state and the same
// state in another order), and the case they are tried on: level-set blocks tumbling on the
// terrain against a wall and each other.
#include <Eigen/Geometry>

#include <cmath>
#include <fstream>
#include <numbers>

#include "tools/solve_case.h"

namespace scree::testing {

// Two runs of a case that must agree bit for bit: the final checkpoints (state and resting
// contact cache), the logs, and every frame. Returns the number of frames compared.
inline std::size_t expect_same_run(const TempDir& x, const TempDir& y) {
  const formats::State a = formats::read_state(x / "out" / "checkpoint.h5");
  const formats::State b = formats::read_state(y / "out" / "checkpoint.h5");
  EXPECT_EQ(a.step, b.step);
  EXPECT_EQ(a.time, b.time);
  EXPECT_EQ(a.bodies.position, b.bodies.position);
  EXPECT_EQ(a.bodies.orientation, b.bodies.orientation);
  EXPECT_EQ(a.bodies.velocity, b.bodies.velocity);
  EXPECT_EQ(a.bodies.angular_velocity, b.bodies.angular_velocity);
  EXPECT_EQ(a.solver->contacts.body_a, b.solver->contacts.body_a);
  EXPECT_EQ(a.solver->contacts.body_b, b.solver->contacts.body_b);
  EXPECT_EQ(a.solver->contacts.node, b.solver->contacts.node);
  EXPECT_EQ(a.solver->contacts.impulse, b.solver->contacts.impulse);
  EXPECT_EQ(read_text(x / "out" / "log.csv"), read_text(y / "out" / "log.csv"));
  std::size_t frames = 0;
  for (const auto& entry : std::filesystem::directory_iterator(x / "out")) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("frame_", 0) != 0) continue;
    ++frames;
    const formats::State p = formats::read_state(entry.path()), q = formats::read_state(y / "out" / name);
    EXPECT_EQ(p.bodies.position, q.bodies.position) << name;
    EXPECT_EQ(p.bodies.orientation, q.bodies.orientation) << name;
  }
  return frames;
}

// slope.vdb, block.vdb and state.h5 of the blocks_tumble case in `dir`, with its case file
// edited by `edits`.
inline void prepare_blocks(const TempDir& dir, const std::vector<CaseEdit>& edits) {
  const double slope = std::tan(20 * std::numbers::pi / 180);
  {
    std::ofstream asc(dir / "slope.asc");
    asc << "ncols 41\nnrows 13\nxllcorner 0\nyllcorner 0\ncellsize 0.25\nNODATA_value -9999\n";
    asc.precision(17);
    for (int row = 0; row < 13; ++row)
      for (int i = 0; i < 41; ++i) asc << (10 - (0.125 + 0.25 * i)) * slope << (i < 40 ? " " : "\n");
  }
  const auto terrain = run_tool(dir, "scree-terrain", in_dir(dir, "DIR/slope.asc --voxel-size 0.1 -o DIR/slope.vdb"));
  ASSERT_EQ(terrain.status, 0) << terrain.err;
  const Box block = make_box(dir, "block", "0.3,0.2,0.15", 400);
  write_validation_case(dir, "blocks_tumble", edits);
  std::vector<Grain> grains;
  for (int k = 0; k < 8; ++k) {
    // Two rows of four, one above the other, near the wall: by 0.6 s they rest on each other,
    // on the ground and against the wall.
    const double x = 6.2 + 0.45 * (k % 4), z = (10 - x) * slope + 0.3 + 0.35 * (k / 4);
    const Eigen::Quaterniond turn(Eigen::AngleAxisd(0.3 * k, Eigen::Vector3d(1, 2, 3).normalized()));
    const Eigen::Quaterniond q = turn * Eigen::Quaterniond(block.orientation[0], block.orientation[1],
                                                           block.orientation[2], block.orientation[3]);
    grains.push_back({{x, 1.6, z}, {1, 0.1 * (k % 3) - 0.1, 0}, {3.0 - k, 1.5 * k - 4, 2}, {q.w(), q.x(), q.y(), q.z()}});
  }
  write_grains(dir, {"block"}, grains);
}

}  // namespace scree::testing
