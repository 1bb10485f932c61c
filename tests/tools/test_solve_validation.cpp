// Issue 4's validation cases, LAMMPS style: each case is one file in tests/solver/cases, run
// by scree-solve as a user would run it (several settings of the same case where the issue
// asks), with the closed-form or published answer asserted from the frames and the log.
// Case 1 and the inside of case 6 (the stored energy through compression and restitution)
// happen within one collision and are tested where the ETM is, tests/solver/
// test_energy_tracking.cpp: between two log rows the free flight would blur a 1e-10 check.
// Case 7 is pipelines/incline (test pipeline.Incline); case 9 is test_solve_settle.cpp.
#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <cmath>

#include "tools/solve_case.h"

namespace scree {
namespace {

using testing::Box;
using testing::checkpoint;
using testing::make_box;
using testing::solve;
using testing::TempDir;

Eigen::Vector3d vec(const formats::Vec3& v) { return {v[0], v[1], v[2]}; }

// ---- Case 2: a ball dropped from 0.5 m on a plane rebounds at e times its impact speed ----

class SphereBounce : public ::testing::TestWithParam<double> {};

TEST_P(SphereBounce, ReboundSpeedIsETimesTheImpactSpeed) {
  const double e = GetParam();
  TempDir dir;
  testing::write_validation_case(dir, "sphere_bounce", {{"restitution: 0.5", "restitution: " + std::to_string(e)},
                                                       {"duration: 0.8", "duration: 2.0"}});
  testing::write_grains(dir, {"ball"}, {{{0, 0, 0.5}}});
  solve(dir);
  const formats::CsvTable log = testing::run_log(dir);
  // Speeds from heights: at each top the ball has risen h = v² / 2g above its contact height.
  const double contact = 0.05;
  std::vector<double> tops{0.5};
  for (double top : testing::rebound_apexes(log, 0.5, contact)) tops.push_back(top);
  ASSERT_GE(tops.size(), 4u);  // three bounces
  std::printf("e = %.2f, rebound / impact speed:", e);
  for (std::size_t k = 1; k < 4; ++k) {
    const double ratio = std::sqrt((tops[k] - contact) / (tops[k - 1] - contact));
    EXPECT_NEAR(ratio, e, 0.01 * e) << "bounce " << k;
    std::printf(" %.5f", ratio);
  }
  std::printf("\n");
  EXPECT_LT(testing::largest(log, "energy_error"), 1e-9 * log.rows[0][log.column("potential")]);
}

INSTANTIATE_TEST_SUITE_P(Solve, SphereBounce, ::testing::Values(0.5, 0.65, 1.0),
                         [](const auto& info) { return "e" + std::to_string(int(std::lround(info.param * 100))); });

// ---- Case 6 through the time step: a ball falls onto two resting on the floor, e = 0.5 ----
// What happens inside the collision (the store peaks, drops to e², is released) is asserted
// where the ETM is (ThreeStackedSpheresBookTheirEnergy); here the solver's books close over
// the whole run, the store is empty at the end of every step, and restitution took its share.
TEST(SphereStack, BooksCloseAndTheStoreEmptiesEveryStep) {
  TempDir dir;
  testing::write_validation_case(dir, "sphere_bounce", {{"duration: 0.8", "duration: 0.4"}});
  testing::write_grains(dir, {"ball"}, {{{0, 0, 0.05}}, {{0, 0, 0.15}}, {{0, 0, 0.35}}});
  solve(dir);
  const formats::CsvTable log = testing::run_log(dir);
  const double potential = log.rows[0][log.column("potential")];
  EXPECT_LT(testing::largest(log, "energy_error"), 1e-9 * potential);
  EXPECT_EQ(testing::largest(log, "stored"), 0);
  // The top ball falls 0.1 m onto the stack and bounces until it rests: restitution takes
  // what it brought (the rest of the books, resting contact and the integrator, stay small).
  const double brought = 7850 * 4.0 / 3.0 * M_PI * 0.05 * 0.05 * 0.05 * 9.81 * 0.1;
  const double lost = log.rows.back()[log.column("restitution")];
  EXPECT_NEAR(lost, brought, 0.01 * brought);
  EXPECT_LT(log.rows.back()[log.column("kinetic")], 1e-9 * brought);
  std::printf("restitution took %.4f of the %.4f J the top ball brought; largest energy error %.2g J\n", lost, brought,
              testing::largest(log, "energy_error"));
}

// ---- Cases 3, 4 and 10: a level-set box on the ground and on a ledge ----

const std::vector<testing::CaseEdit> automatic_step_at_20 = {
    {"step: 1.0e-4", "step: auto\n  max_step: 0.05"}, {"duration: 0.02", "duration: 0.2"},
    {"frame_interval: 0.01", "frame_interval: 0.1"}, {"log_interval: 1.0e-3", "log_interval: 0.05"}};

TEST(BoxBounce, FlatFaceLeavesStraightWithoutSpin) {
  TempDir dir;
  const Box box = make_box(dir, "box", "2,2,1", 1000);
  testing::write_validation_case(dir, "box_bounce");
  testing::write_grains(dir, {"box"}, {{{0, 0, 0.505}, {1, 1, -10}, {0, 0, 0}, box.orientation}});
  solve(dir);
  const formats::State end = checkpoint(dir);
  const Eigen::Vector3d expected(1, 1, 10);
  EXPECT_LT((vec(end.bodies.velocity[0]) - expected).norm(), 1e-4 * expected.norm()) << vec(end.bodies.velocity[0]).transpose();
  EXPECT_LT(vec(end.bodies.angular_velocity[0]).norm(), 1e-6);
  std::printf("velocity after (%.9g, %.9g, %.9g) m/s, |ω| %.3g rad/s\n", end.bodies.velocity[0][0],
              end.bodies.velocity[0][1], end.bodies.velocity[0][2], vec(end.bodies.angular_velocity[0]).norm());
}

// Case 10: at 20 m/s with the Courant-chosen step the box bounces off, never through.
TEST(BoxBounce, FastBoxDoesNotTunnelThroughTheGround) {
  TempDir dir;
  const Box box = make_box(dir, "box", "2,2,1", 1000);
  testing::write_validation_case(dir, "box_bounce", automatic_step_at_20);
  testing::write_grains(dir, {"box"}, {{{0, 0, 0.505}, {0, 0, -20}, {0, 0, 0}, box.orientation}});
  solve(dir);
  const formats::State end = checkpoint(dir);
  EXPECT_NEAR(end.bodies.velocity[0][2], 20, 1e-4 * 20);
  EXPECT_GT(end.bodies.position[0][2], 0.5 + 20 * 0.15);  // it has come back up
  const formats::CsvTable log = testing::run_log(dir);
  EXPECT_GT(testing::largest(log, "courant"), 0.1);  // large steps
  std::printf("after 0.2 s: z = %.4f m, v_z = %.6f m/s; largest Courant number %.3f, %g steps\n",
              end.bodies.position[0][2], end.bodies.velocity[0][2], testing::largest(log, "courant"),
              log.rows.back()[log.column("step")]);
}

struct LedgeRun {
  formats::State end;
  formats::CsvTable log;
  double mass = 0;
  Eigen::Matrix3d inverse_inertia;  // world frame, at the start
};

LedgeRun drop_on_ledge(const std::vector<testing::CaseEdit>& edits, double speed) {
  TempDir dir;
  const Box box = make_box(dir, "box", "2,2,1", 1000);
  const Box ledge = make_box(dir, "ledge", "4,4,1", 2000);
  testing::write_validation_case(dir, "box_ledge", edits);
  testing::write_grains(dir, {"box", "ledge"},
                        {{{0, 0, 1.002}, {0, 0, -speed}, {0, 0, 0}, box.orientation, 0},
                         {{2, 0, 0}, {0, 0, 0}, {0, 0, 0}, ledge.orientation, 1}});
  solve(dir);
  LedgeRun run{checkpoint(dir), testing::run_log(dir), 1000 * box.avatar.properties.volume, {}};
  const auto& o = box.orientation;
  const Eigen::Matrix3d r = Eigen::Quaterniond(o[0], o[1], o[2], o[3]).toRotationMatrix();
  const auto& i = box.avatar.properties.inertia_per_density;
  run.inverse_inertia = r * Eigen::Vector3d(1 / i[0], 1 / i[1], 1 / i[2]).asDiagonal() * r.transpose() / 1000;
  return run;
}

// The rigid answer for one impact at the centre of the touching half (x = 0.5 m from the
// centre): ω_y = −x P / I_y with P = 2 |u_n| / (n·K n). The nodes over the ledge are glued
// into one contact point at their centre, so ETM gives about that answer (1.01 of it).
TEST(BoxLedge, HalfFaceContactSpinsAsTheRigidBodyAnswer) {
  const LedgeRun run = drop_on_ledge({}, 10);
  const Eigen::Vector3d w = vec(run.end.bodies.angular_velocity[0]);
  const double x = 0.5, inverse_inertia_y = run.inverse_inertia(1, 1);
  const double rigid = -x * (2 * 10 / (1 / run.mass + x * x * inverse_inertia_y)) * inverse_inertia_y;
  std::printf("ω = (%.4g, %.4g, %.4g) rad/s; rigid answer ω_y = %.4g\n", w.x(), w.y(), w.z(), rigid);
  EXPECT_GT(w.y() / rigid, 1.0 / 3);
  EXPECT_LT(w.y() / rigid, 3.0);
  EXPECT_LT(std::abs(w.x()) + std::abs(w.z()), 0.1 * std::abs(w.y()));
  // Elastic and frictionless: the energy stays.
  const double kinetic = run.log.rows.front()[run.log.column("kinetic")];
  EXPECT_NEAR(run.log.rows.back()[run.log.column("kinetic")], kinetic, 1e-9 * kinetic);
  EXPECT_LT(testing::largest(run.log, "energy_error"), 1e-9 * kinetic);
}

// Case 10 on a grain: at 20 m/s with the Courant-chosen step the box never passes through
// the ledge; it comes back up spinning.
TEST(BoxLedge, FastBoxDoesNotTunnelThroughAGrain) {
  const LedgeRun run = drop_on_ledge(automatic_step_at_20, 20);
  EXPECT_GT(run.end.bodies.velocity[0][2], 0);
  EXPECT_GT(run.end.bodies.position[0][2], 1.0);
  std::printf("after 0.2 s: z = %.4f m, v_z = %.4f m/s, ω_y = %.3f rad/s; largest Courant number %.3f\n",
              run.end.bodies.position[0][2], run.end.bodies.velocity[0][2], run.end.bodies.angular_velocity[0][1],
              testing::largest(run.log, "courant"));
  const double kinetic = run.log.rows.front()[run.log.column("kinetic")];
  EXPECT_NEAR(run.log.rows.back()[run.log.column("kinetic")], kinetic, 1e-9 * kinetic);
}

// ---- Case 5: chains of equal balls, elastic ----

std::vector<double> cradle_velocities(int balls, int increments, double* momentum_error, double* energy_error) {
  TempDir dir;
  testing::write_validation_case(dir, "cradle", {{"increments: 50", "increments: " + std::to_string(increments)}});
  std::vector<testing::Grain> grains;
  for (int i = 0; i < balls; ++i) grains.push_back({{0.1 * i, 0, 0}, {i == 0 ? 1.0 : 0.0, 0, 0}});
  testing::write_grains(dir, {"ball"}, grains);
  solve(dir);
  const formats::State end = checkpoint(dir);
  std::vector<double> v;
  Eigen::Vector3d momentum = Eigen::Vector3d::Zero();
  double energy = 0;
  for (int i = 0; i < balls; ++i) {
    v.push_back(end.bodies.velocity[i][0]);
    momentum += vec(end.bodies.velocity[i]);
    energy += vec(end.bodies.velocity[i]).squaredNorm();
    EXPECT_LT(vec(end.bodies.angular_velocity[i]).norm(), 1e-12);  // central impacts: no spin
  }
  *momentum_error = (momentum - Eigen::Vector3d::UnitX()).norm();
  *energy_error = std::abs(energy - 1);  // per unit ½ m
  return v;
}

TEST(Cradle, TwoBallsExchangeVelocities) {
  double momentum_error, energy_error;
  const std::vector<double> v = cradle_velocities(2, 50, &momentum_error, &energy_error);
  EXPECT_NEAR(v[0], 0, 1e-12);
  EXPECT_NEAR(v[1], 1, 1e-12);
  EXPECT_LT(energy_error, 1e-12);
}

// Balls at rest touching are resting contacts, not collisions (docs/theory.md, deviation 2):
// the first strike makes the next face approach, and that face collides in the next sweep of
// the same step. The row resolves as a sequence of two-ball collisions: the textbook answer,
// only the last ball leaves. (ETM on the whole row as one collision spreads the impulse
// instead; tests/solver/test_energy_tracking.cpp and docs/validation.md give both.)
TEST(Cradle, FiveBallsConserveAndConvergeInAlpha) {
  std::vector<std::vector<double>> by_alpha;
  for (int alpha : {10, 100}) {
    double momentum_error, energy_error;
    by_alpha.push_back(cradle_velocities(5, alpha, &momentum_error, &energy_error));
    EXPECT_LT(momentum_error, 1e-9) << alpha;
    EXPECT_LT(energy_error, 1e-9) << alpha;
    std::printf("α = %d:", alpha);
    for (double v : by_alpha.back()) std::printf(" %.4f", v);
    std::printf("\n");
  }
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_NEAR(by_alpha[0][i], by_alpha[1][i], 0.01) << i;
    EXPECT_NEAR(by_alpha[1][i], i == 4 ? 1 : 0, 1e-9) << i;
  }
}

// ---- Case 8: a ball launched sliding rolls without slip at 5 u0 / 7 from 2 u0 / (7 μ g) on ----

TEST(SphereRolls, SlidesThenRollsAtFiveSevenths) {
  TempDir dir;
  const double u0 = 2, mu = 0.3, g = 9.81, r = 0.05;
  testing::write_validation_case(dir, "sphere_rolls");
  testing::write_grains(dir, {"ball"}, {{{0, 0, r}, {u0, 0, 0}}});
  solve(dir);
  // The first frame whose contact point no longer slips.
  double rolling_from = -1;
  for (int f = 0; f <= 150; ++f) {
    const formats::State frame = formats::read_state(testing::frame_file(dir, f));
    const double slip = frame.bodies.velocity[0][0] - r * frame.bodies.angular_velocity[0][1];
    if (std::abs(slip) < 1e-3 * u0) {
      rolling_from = frame.time;
      break;
    }
  }
  const double expected = 2 * u0 / (7 * mu * g);
  EXPECT_NEAR(rolling_from, expected, 0.05 * expected);
  const formats::State end = checkpoint(dir);
  EXPECT_NEAR(end.bodies.velocity[0][0], 5 * u0 / 7, 0.02 * 5 * u0 / 7);
  EXPECT_NEAR(r * end.bodies.angular_velocity[0][1], end.bodies.velocity[0][0], 1e-3 * u0);
  EXPECT_NEAR(end.bodies.position[0][2], r, 1e-6);
  std::printf("rolls from t = %.4f s (2 u0 / 7 μ g = %.4f s) at %.5f m/s (5 u0 / 7 = %.5f)\n", rolling_from, expected,
              end.bodies.velocity[0][0], 5 * u0 / 7);
}

}  // namespace
}  // namespace scree
