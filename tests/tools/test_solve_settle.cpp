// Issue 4, case 9: 200 superellipsoids of seed 004's five shapes dropped into a box settle.
// Avatars from scree-shape, the case from tests/solver/cases, run by scree-solve; the log and
// the last checkpoint must show a heap at rest whose weight the floor carries.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include <Eigen/Geometry>

#include "common/run_tool.h"
#include "common/temp_dir.h"
#include "formats/avatar.h"
#include "formats/csv_log.h"
#include "formats/state.h"

namespace scree {
namespace {

struct Superellipsoid {
  const char* name;
  const char* radii;  // m
  const char* eps_e;
  const char* eps_n;
};
// Seed 004 Table 1, radii scaled to centimetres.
constexpr Superellipsoid shapes[] = {{"A", "0.0058,0.01,0.0083", "0.1", "0.5"},
                                     {"B", "0.0042,0.01,0.0083", "0.1", "1"},
                                     {"C", "0.0042,0.01,0.0083", "1", "0.5"},
                                     {"D", "0.005,0.007,0.01", "1.4", "1.2"},
                                     {"E", "0.004,0.01,0.008", "0.4", "1.6"}};

TEST(SolveSettle, SuperellipsoidsComeToRestOnTheFloor) {
  testing::TempDir dir;
  for (const Superellipsoid& s : shapes) {
    const std::string args = std::string("superellipsoid --radii ") + s.radii + " --eps-e " + s.eps_e + " --eps-n " +
                             s.eps_n + " --voxels 20 --avatar --nodes 500 -o " + (dir / (std::string(s.name) + ".vdb")).string();
    ASSERT_EQ(testing::run_tool(dir, "scree-shape", args).status, 0) << s.name;
  }
  std::filesystem::copy_file(std::filesystem::path(SCREE_SOURCE_DIR) / "tests/solver/cases/superellipsoids_settle.yaml",
                             dir / "case.yaml");

  // Layers of 4 × 4 grains 24 mm apart, 25 mm between layers, random orientations.
  formats::State state;
  for (const Superellipsoid& s : shapes) state.templates.push_back(s.name);
  constexpr int count = 200;
  state.bodies.resize(count);
  std::mt19937_64 random(1);
  std::normal_distribution<double> gauss;
  for (int i = 0; i < count; ++i) {
    const int layer = i / 16, k = i % 16;
    state.bodies.id[i] = i + 1;
    state.bodies.template_index[i] = i % 5;
    state.bodies.scale[i] = 1;
    state.bodies.position[i] = {-0.036 + 0.024 * (k % 4), -0.036 + 0.024 * (k / 4), 0.03 + 0.025 * layer};
    std::array<double, 4> q{gauss(random), gauss(random), gauss(random), gauss(random)};
    const double norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (double& c : q) c /= norm;
    state.bodies.orientation[i] = q;
    state.bodies.velocity[i] = state.bodies.angular_velocity[i] = {0, 0, 0};
  }
  formats::write_state(dir / "state.h5", state);

  const auto run = testing::run_tool(dir, "scree-solve", (dir / "case.yaml").string());
  ASSERT_EQ(run.status, 0) << run.err;

  const formats::CsvTable log = formats::read_csv_log(dir / "out" / "log.csv");
  for (const auto& row : log.rows)
    for (double v : row) ASSERT_TRUE(std::isfinite(v));
  const double initial_potential = log.rows.front()[log.column("potential")];
  const auto& last = log.rows.back();
  std::printf("KE/PE0 every 0.1 s:");
  for (std::size_t r = 0; r < log.rows.size(); r += 10) std::printf(" %.2g", log.rows[r][log.column("kinetic")] / initial_potential);
  std::printf("\n");
  EXPECT_LT(last[log.column("kinetic")], 1e-6 * initial_potential);
  // And it stays at rest: over the last 0.3 s no log row's kinetic energy reaches 1e-7 of the
  // initial potential energy (3e-8 at most; 5e-7 while gaps under 0.01 |g| Δt² only counted as
  // touching, and a support the corrections lifted a grain off lost its load each sweep,
  // docs/theory.md "The resting solve").
  double restless = 0;
  for (std::size_t r = log.rows.size() - 31; r < log.rows.size(); ++r)
    restless = std::max(restless, log.rows[r][log.column("kinetic")]);
  EXPECT_LT(restless, 1e-7 * initial_potential);

  // The floor's mean force over the last 0.2 s against the weight.
  double weight = 0;
  std::vector<formats::Avatar> avatars;
  for (const Superellipsoid& s : shapes) avatars.push_back(formats::read_avatar(dir / (std::string(s.name) + ".vdb")));
  for (int i = 0; i < count; ++i) weight += 2650 * avatars[i % 5].properties.volume * 9.81;
  const auto& before = log.rows[log.rows.size() - 21];
  const std::size_t z = log.column("impulse_floor_z"), t = log.column("time");
  const double floor_load = -(last[z] - before[z]) / (last[t] - before[t]);
  EXPECT_NEAR(floor_load / weight, 1, 0.02);

  // No node deeper than a tenth of a voxel in a wall.
  const formats::State end = formats::read_state(dir / "out" / "checkpoint.h5");
  double deepest = 0, voxel = INFINITY;
  for (std::size_t i = 0; i < end.bodies.size(); ++i) {
    const formats::Avatar& avatar = avatars[end.bodies.template_index[i]];
    voxel = std::min(voxel, avatar.voxel_size());
    const auto& p = end.bodies.position[i];
    const auto& q = end.bodies.orientation[i];
    ASSERT_TRUE(std::isfinite(p[0] + p[1] + p[2] + q[0] + q[1] + q[2] + q[3]));
    const Eigen::Quaterniond rotation(q[0], q[1], q[2], q[3]);
    for (const auto& node : avatar.nodes) {
      const Eigen::Vector3d x = Eigen::Vector3d(p[0], p[1], p[2]) +
                                rotation * Eigen::Vector3d(node[0], node[1], node[2]);
      deepest = std::max({deepest, -x.z(), std::abs(x.x()) - 0.05, std::abs(x.y()) - 0.05});
    }
  }
  EXPECT_LT(deepest, 0.1 * voxel);
  std::printf("KE/PE0 %.3g (most over the last 0.3 s %.3g), F_rel %.5f, deepest node %.3g voxel\n",
              last[log.column("kinetic")] / initial_potential, restless / initial_potential, floor_load / weight,
              deepest / voxel);
}

}  // namespace
}  // namespace scree
