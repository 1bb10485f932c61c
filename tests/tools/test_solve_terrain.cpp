// Grains on terrain through scree-terrain and scree-solve (issue 5): a block slides down a
// 30° plane built from a raster as the incline solution says; a block left on the flat part
// of a real DEM neither sinks nor creeps; a block thrown at the ground at 30 m/s bounces off
// it. Penetration is measured in the terrain as the solver samples it.
#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <cmath>
#include <fstream>
#include <numbers>

#include "formats/terrain.h"
#include "geometry/terrain_from_file.h"
#include "tools/solve_case.h"

namespace scree {
namespace {

using testing::Box;
using testing::make_box;
using testing::solve;
using testing::TempDir;

Eigen::Vector3d vec(const formats::Vec3& v) { return {v[0], v[1], v[2]}; }
Eigen::Quaterniond quat(const std::array<double, 4>& q) { return {q[0], q[1], q[2], q[3]}; }
std::array<double, 4> array_of(const Eigen::Quaterniond& q) { return {q.w(), q.x(), q.y(), q.z()}; }

void make_terrain(const TempDir& dir, const std::string& args) {
  const auto run = testing::run_tool(dir, "scree-terrain", testing::in_dir(dir, args));
  ASSERT_EQ(run.status, 0) << run.err;
}

geometry::TerrainField load_field(const std::filesystem::path& file) {
  return geometry::terrain_field(formats::read_terrain(file), file);
}

// How deep the block's deepest node is in the ground (negative: the gap), m.
double deepest(const geometry::TerrainField& ground, const formats::Avatar& avatar, const Eigen::Vector3d& position,
               const Eigen::Quaterniond& orientation) {
  double depth = -std::numeric_limits<double>::infinity();
  for (const auto& p : avatar.nodes)
    depth = std::max(depth, -ground.value(position + orientation * Eigen::Vector3d(p[0], p[1], p[2])));
  return depth;
}

// ---- A block on a 30° raster plane follows the incline solution ----

class TerrainIncline : public ::testing::TestWithParam<double> {};

TEST_P(TerrainIncline, BlockFollowsTheInclineSolution) {
  const double theta = 30 * std::numbers::pi / 180, phi = GetParam() * std::numbers::pi / 180;
  const double g = 9.81, a = g * (std::sin(theta) - std::tan(phi) * std::cos(theta));
  TempDir dir;
  {
    std::ofstream asc(dir / "incline.asc");
    asc << "ncols 81\nnrows 21\nxllcorner 0\nyllcorner 0\ncellsize 0.5\nNODATA_value -9999\n";
    asc.precision(17);
    for (int row = 0; row < 21; ++row) {
      for (int i = 0; i < 81; ++i) asc << (40 - (0.25 + 0.5 * i)) * std::tan(theta) << (i < 80 ? " " : "\n");
    }
  }
  make_terrain(dir, "DIR/incline.asc --voxel-size 0.25 -o DIR/incline.vdb");
  const Box block = make_box(dir, "block", "0.4,0.4,0.2", 1000);
  char friction[32];
  std::snprintf(friction, sizeof friction, "friction: %.8f", std::tan(phi));
  testing::write_validation_case(dir, "terrain_incline", {{"friction: 0.36397023", friction}});
  // Base on the slope: the block turned by θ about y, its centre half its height along the normal.
  const Eigen::Vector3d normal(std::sin(theta), 0, std::cos(theta));
  const Eigen::Vector3d start = Eigen::Vector3d(10, 5, 30 * std::tan(theta)) + (0.1 + 1e-4) * normal;
  const Eigen::Quaterniond tilt(Eigen::AngleAxisd(theta, Eigen::Vector3d::UnitY()));
  testing::write_grains(dir, {"block"}, {{{start.x(), start.y(), start.z()}, {}, {}, array_of(tilt * quat(block.orientation))}});
  solve(dir);

  // v² = 2 a d along the way, as the wall incline checks it (World.BlockOnInclineFollowsCoulomb).
  double worst = 0, distance = 0;
  for (int f = 1; f <= 30; ++f) {
    const formats::State s = formats::read_state(testing::frame_file(dir, f));
    const Eigen::Vector3d moved = vec(s.bodies.position[0]) - start;
    distance = moved.norm();
    if (distance > 0.1) worst = std::max(worst, std::abs(vec(s.bodies.velocity[0]).squaredNorm() / (2 * a * distance) - 1));
    EXPECT_LT(std::abs(moved.dot(normal)), 5e-4) << "leaves the slope at frame " << f;  // it starts 0.1 mm above
  }
  const double expected = 0.5 * a * 1.5 * 1.5;
  std::printf("φ = %.0f°: slid %.4f m in 1.5 s (closed form %.4f), worst |v²/2ad − 1| %.4f\n", GetParam(), distance,
              expected, worst);
  EXPECT_NEAR(distance, expected, 0.02 * expected);
  EXPECT_LT(worst, 0.02);
}

INSTANTIATE_TEST_SUITE_P(Solve, TerrainIncline, ::testing::Values(20.0, 25.0),
                         [](const auto& info) { return "phi" + std::to_string(int(info.param)); });

// ---- A block on real ground: the flat part of the dc7 DEM ----

struct DemBlock {
  TempDir dir;
  Box block;
  Eigen::Vector3d start;
  std::optional<geometry::TerrainField> ground;

  explicit DemBlock(const std::vector<testing::CaseEdit>& edits, const Eigen::Vector3d& velocity) {
    make_terrain(dir, std::string(SCREE_DATASETS) + "/geotaichi/dc7_dem_1411slide.asc --crop 618107,3996242,618147,3996282 "
                                                     "--origin 618127,3996262,1609 -o DIR/dc7.vdb");
    ground = load_field(dir / "dc7.vdb");
    block = make_box(dir, "block", "1.2,0.8,0.6", 1000);
    testing::write_validation_case(dir, "terrain_dem", edits);
    // 1 mm above the ground: lower the block from above until its deepest node is there.
    start = Eigen::Vector3d(0, 0, 1);
    const Eigen::Quaterniond q = quat(block.orientation);
    start.z() += deepest(*ground, block.avatar, start, q) + 1e-3;
    start.z() += deepest(*ground, block.avatar, start, q) + 1e-3;
    testing::write_grains(dir, {"block"},
                          {{{start.x(), start.y(), start.z()}, {velocity.x(), velocity.y(), velocity.z()}, {}, block.orientation}});
    solve(dir);
  }
  formats::State frame(int f) const { return formats::read_state(testing::frame_file(dir, f)); }
  double depth(const formats::State& s) const {
    return deepest(*ground, block.avatar, vec(s.bodies.position[0]), quat(s.bodies.orientation[0]));
  }
};

TEST(TerrainDem, BlockOnTheFlatNeitherSinksNorCreeps) {
  DemBlock run({}, Eigen::Vector3d::Zero());
  // Frames say where they lie on the map: the terrain's origin offset.
  ASSERT_TRUE(run.frame(0).georeference.has_value());
  EXPECT_EQ(run.frame(0).georeference->offset, (std::array<double, 3>{618127, 3996262, 1609}));
  const double voxel = run.ground->voxel_size();
  double sunk = 0;
  for (int f = 0; f <= 20; ++f) sunk = std::max(sunk, run.depth(run.frame(f)));
  // Creep: from the first frame after it touched down (0.5 s) to the last (10 s).
  const Eigen::Vector3d landed = vec(run.frame(1).bodies.position[0]), last = vec(run.frame(20).bodies.position[0]);
  std::printf("dc7 flat: deepest node %.5f voxel, moved %.3g mm from 0.5 s to 10 s, %.3g mm from the start\n",
              sunk / voxel, 1e3 * (last - landed).norm(), 1e3 * (last - run.start).norm());
  EXPECT_LT(sunk, 0.1 * voxel);
  EXPECT_LT((last - landed).norm(), 1e-3);
  // Dropped 1 mm onto uneven ground, it lands on a corner and settles where it was left.
  EXPECT_LT((last - run.start).norm(), 1e-2);
  EXPECT_LT(vec(run.frame(20).bodies.velocity[0]).norm(), 1e-3);
}

TEST(TerrainDem, BlockAtThirtyMetresPerSecondDoesNotTunnel) {
  DemBlock run({{"duration: 10", "duration: 0.4"}, {"frame_interval: 0.5", "frame_interval: 0.004"}},
               Eigen::Vector3d(3, 0, -30));
  const double half_height = 0.3;
  double worst = 0;
  for (int f = 0; f <= 100; ++f) worst = std::max(worst, run.depth(run.frame(f)));
  const formats::State last = run.frame(100);
  std::printf("dc7 at 30 m/s: deepest node %.4f m (%.3f of the half-height); after 0.4 s at z = %.3f m, v_z = %.3f m/s\n",
              worst, worst / half_height, last.bodies.position[0][2], last.bodies.velocity[0][2]);
  EXPECT_LT(worst, 0.25 * half_height);
  EXPECT_GT(last.bodies.position[0][2], run.start.z() - 0.05);  // above the ground it started on
}

// A block resting on the terrain: its resting contacts start each step from the last step's
// impulses, so the checkpoint carries them (body 2⁶³, the terrain) and a restart continues
// bit for bit.
TEST(TerrainDem, RestartOnTheGroundContinuesBitForBit) {
  DemBlock whole({{"duration: 10", "duration: 2"}}, Eigen::Vector3d::Zero());
  DemBlock half({{"duration: 10", "duration: 1"}}, Eigen::Vector3d::Zero());
  const formats::State middle = testing::checkpoint(half.dir);
  ASSERT_TRUE(middle.solver);
  ASSERT_FALSE(middle.solver->contacts.body_b.empty());
  for (std::uint64_t b : middle.solver->contacts.body_b) EXPECT_EQ(b, formats::terrain_id);
  testing::write_validation_case(half.dir, "terrain_dem", {{"duration: 10", "duration: 2"}});
  std::filesystem::copy_file(half.dir / "out" / "checkpoint.h5", half.dir / "half.h5");
  const auto run = testing::run_tool(half.dir, "scree-solve", testing::in_dir(half.dir, "DIR/case.yaml --restart DIR/half.h5"));
  ASSERT_EQ(run.status, 0) << run.err;
  const formats::State a = testing::checkpoint(whole.dir), b = testing::checkpoint(half.dir);
  EXPECT_EQ(a.step, b.step);
  EXPECT_EQ(a.bodies.position, b.bodies.position);
  EXPECT_EQ(a.bodies.velocity, b.bodies.velocity);
  EXPECT_EQ(a.solver->contacts.impulse, b.solver->contacts.impulse);
}

}  // namespace
}  // namespace scree
