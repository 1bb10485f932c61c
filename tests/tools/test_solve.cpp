// scree-solve end to end: a case file and an initial state in, frames, log and checkpoint
// out; bad inputs give one error line and no output (restarts: test_solve_restart.cpp).
#include <gtest/gtest.h>

#include <sched.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>

#include "tools/solve_case.h"

namespace scree {
namespace {

using testing::frame_file;
using testing::largest;
using testing::read_text;
using testing::TempDir;

// The sphere_bounce case with `from` replaced by `to`, in `dir`, with one ball per position.
void prepare(const TempDir& dir, const std::string& name, const std::vector<formats::Vec3>& positions,
             const std::string& from = "", const std::string& to = "", const std::string& template_name = "ball",
             double vertical_speed = 0) {
  testing::write_validation_case(dir, name, from.empty() ? std::vector<testing::CaseEdit>{} : std::vector<testing::CaseEdit>{{from, to}});
  std::vector<testing::Grain> grains;
  for (const formats::Vec3& p : positions) grains.push_back({p, {0, 0, vertical_speed}});
  testing::write_grains(dir, {template_name}, grains);
}

// The ball (dropped from 0.5 m) rebounds to e² of its 0.45 m drop above the contact level:
// with e = 0.5, its centre rises to 0.05 + 0.25 × 0.45 m.
double height_after_first_bounce(const formats::CsvTable& log) { return testing::rebound_apexes(log, 0.5, 0.05).at(0); }
constexpr double bounce_height = 0.05 + 0.25 * 0.45;

TEST(Solve, SphereBounceWritesFramesLogAndCheckpoint) {
  TempDir dir;
  prepare(dir, "sphere_bounce", {{0, 0, 0.5}});
  const auto run = testing::run_tool(dir, "scree-solve", (dir / "case.yaml").string());
  ASSERT_EQ(run.status, 0) << run.err;
  for (int f = 0; f <= 8; ++f) {
    const formats::State frame = formats::read_state(frame_file(dir, f));
    EXPECT_EQ(frame.kind, formats::StateKind::frame);
    EXPECT_NEAR(frame.time, 0.1 * f, 1e-9);
    EXPECT_GT(frame.bodies.position[0][2], 0.05 - 1e-9);  // never below the floor
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "out" / "frame_000009.h5"));
  const formats::State end = formats::read_state(dir / "out" / "checkpoint.h5");
  EXPECT_EQ(end.kind, formats::StateKind::checkpoint);
  EXPECT_EQ(end.step, 8000);

  // The log: energy books close, and the first rebound speed is e times the impact speed
  // (the sphere falls 0.45 m: impact at sqrt(2 g 0.45)).
  const formats::CsvTable log = formats::read_csv_log(dir / "out" / "log.csv");
  ASSERT_EQ(log.rows.size(), 801u);
  EXPECT_LT(largest(log, "energy_error"), 1e-9 * log.rows[0][log.column("potential")]);
  EXPECT_NEAR(height_after_first_bounce(log), bounce_height, 0.01 * 0.25 * 0.45);
}

// With `step: auto` every step keeps the Courant number within the limit, frames fall on
// their times exactly, and the ball still rebounds with e.
TEST(Solve, AutomaticStepKeepsTheCourantLimitAndLandsOnFrames) {
  TempDir dir;
  prepare(dir, "sphere_bounce", {{0, 0, 0.5}}, "  step: 1.0e-4", "  step: auto\n  max_step: 1.0e-3\n  courant_limit: 0.02");
  const auto run = testing::run_tool(dir, "scree-solve", (dir / "case.yaml").string());
  ASSERT_EQ(run.status, 0) << run.err;
  for (int f = 0; f <= 8; ++f) EXPECT_NEAR(formats::read_state(frame_file(dir, f)).time, 0.1 * f, 1e-12);
  const formats::CsvTable log = formats::read_csv_log(dir / "out" / "log.csv");
  ASSERT_EQ(log.rows.size(), 801u);
  // After a bounce the Courant number is that of the rebound speed, e times the impact's.
  EXPECT_LE(largest(log, "courant"), 0.02);
  EXPECT_GT(largest(log, "courant"), 0.5 * 0.02);  // it did limit the step
  EXPECT_NEAR(height_after_first_bounce(log), bounce_height, 0.01 * 0.25 * 0.45);
}

// A ball at rest on the floor, far below the Courant limit: automatic steps are the largest
// allowed wherever it divides the output intervals, 4 to a 1 ms log interval, 800 in 0.2 s
// (round-off in the output times once split the last step of most intervals: 992).
TEST(Solve, AutomaticStepAtTheLimitTakesNoStepMoreThanTheIntervalsNeed) {
  TempDir dir;
  prepare(dir, "sphere_bounce", {{0, 0, 0.05}}, "  step: 1.0e-4\n  duration: 0.8",
          "  step: auto\n  max_step: 2.5e-4\n  duration: 0.2");
  const auto run = testing::run_tool(dir, "scree-solve", (dir / "case.yaml").string());
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(formats::read_state(dir / "out" / "checkpoint.h5").step, 800);
  const formats::CsvTable log = formats::read_csv_log(dir / "out" / "log.csv");
  ASSERT_EQ(log.rows.size(), 201u);
  for (std::size_t k = 0; k < log.rows.size(); ++k) {
    EXPECT_EQ(log.rows[k][log.column("step")], 4.0 * double(k));
    EXPECT_NEAR(log.rows[k][log.column("time")], 1e-3 * double(k), 1e-12);
  }
}

// scree-solve over 0.2 s of a stack of three balls and one ball beside it, resting on the floor.
testing::ToolRun run_resting_stack(const TempDir& dir) {
  prepare(dir, "sphere_bounce", {{0, 0, 0.05}, {0, 0, 0.15}, {0, 0, 0.25}, {0.3, 0, 0.05}}, "  duration: 0.8",
          "  duration: 0.2");
  return testing::run_tool(dir, "scree-solve", (dir / "case.yaml").string());
}

// The resting stack: the floor's impulse column grows by the weight of all four balls every
// second, and energy stays put.
TEST(Solve, WallImpulseCarriesTheWeightOfARestingStack) {
  TempDir dir;
  const auto run = run_resting_stack(dir);
  ASSERT_EQ(run.status, 0) << run.err;
  const formats::CsvTable log = formats::read_csv_log(dir / "out" / "log.csv");
  const auto& first = log.rows[50];
  const auto& last = log.rows.back();
  const double weight = 4 * 7850 * 4.0 / 3.0 * M_PI * 0.05 * 0.05 * 0.05 * 9.81;
  const std::size_t z = log.column("impulse_floor_z"), t = log.column("time");
  EXPECT_NEAR((last[z] - first[z]) / (last[t] - first[t]), -weight, 1e-6 * weight);
  EXPECT_EQ(last[log.column("impulse_floor_x")], 0);
  EXPECT_LT(last[log.column("kinetic")], 1e-12 * weight);
}

// At the end of a run scree-solve says where the stepping's wall time went, phase by phase:
// the resting stack's steps search contacts and run velocity and correction passes, and the
// rows (the output and "other" with the phases) add up to the total.
TEST(Solve, SaysWhereTheTimeWent) {
  TempDir dir;
  const auto run = run_resting_stack(dir);
  ASSERT_EQ(run.status, 0) << run.err;
  const std::string head = "scree-solve: where the time went, 2000 steps in ";
  const std::size_t at = run.out.find(head);
  ASSERT_NE(at, std::string::npos) << run.out;
  const double total = std::stod(run.out.substr(at + head.size()));
  std::map<std::string, double> seconds;
  std::istringstream rows(run.out.substr(run.out.find('\n', at) + 1));
  for (std::string row; std::getline(rows, row) && row.rfind("  ", 0) == 0;) {  // "  NAME (to 20)  SECONDS s ..."
    const std::string name = row.substr(2, 20);
    seconds[name.substr(0, name.find_last_not_of(' ') + 1)] = std::stod(row.substr(22));
  }
  const std::vector<std::string> names{"gravity and damping", "contact search",    "collisions (ETM)",
                                       "resting points",      "velocity passes",   "correction passes",
                                       "resting books",       "motion",            "output",
                                       "other"};
  ASSERT_EQ(seconds.size(), names.size()) << run.out;
  double sum = 0;
  for (const std::string& name : names) {
    ASSERT_TRUE(seconds.count(name)) << name << "\n" << run.out;
    EXPECT_GE(seconds[name], 0) << name;
    sum += seconds[name];
  }
  EXPECT_NEAR(sum, total, 0.0005 * double(names.size()) + 1e-9) << run.out;  // rows rounded to 1 ms
  EXPECT_GT(seconds["contact search"], 0) << run.out;
  EXPECT_GT(seconds["velocity passes"], 0) << run.out;
  EXPECT_GT(seconds["contact search"] + seconds["velocity passes"], seconds["other"]) << run.out;
}

// scheme.impulse.resting_conjugate: false runs plain Gauss–Seidel passes, which the log's
// passes column shows on a column of ten balls set down touching (the conjugate directions
// take fewer, docs/validation.md "Warm starting"); both carry its weight. Without the coarse
// step, which would settle both in a few passes.
TEST(Solve, RestingConjugateFalseRunsPlainGaussSeidel) {
  constexpr int balls = 10;
  const double weight = balls * 7850 * 4.0 / 3.0 * M_PI * 0.05 * 0.05 * 0.05 * 9.81;
  std::vector<formats::Vec3> column;
  for (int k = 0; k < balls; ++k) column.push_back({0, 0, 0.05 + 0.1 * k});
  double passes[2];
  for (bool conjugate : {true, false}) {
    TempDir dir;
    prepare(dir, "sphere_bounce", column, "  type: impulse",
            conjugate ? "  type: impulse\n  impulse: {resting_coarse_every: 0}"
                      : "  type: impulse\n  impulse: {resting_conjugate: false, resting_coarse_every: 0}");
    const auto run = testing::run_tool(dir, "scree-solve", (dir / "case.yaml").string());
    ASSERT_EQ(run.status, 0) << run.err;
    const formats::CsvTable log = formats::read_csv_log(dir / "out" / "log.csv");
    passes[conjugate] = 0;
    for (const auto& row : log.rows) passes[conjugate] += row[log.column("passes")];
    const std::size_t z = log.column("impulse_floor_z"), t = log.column("time");
    const auto &first = log.rows[log.rows.size() / 2], &last = log.rows.back();
    EXPECT_NEAR((last[z] - first[z]) / (last[t] - first[t]), -weight, 1e-3 * weight) << conjugate;
  }
  EXPECT_GT(passes[false], passes[true]);  // 856 against 803 over the logged steps
}

struct BadRun {
  const char* name;
  std::vector<formats::Vec3> grains;
  const char* from;
  const char* to;
  const char* template_name;
  const char* restart;  // a file in the case folder, or ""
  std::vector<std::string> message;
  double vertical_speed = 0;
};

void PrintTo(const BadRun& b, std::ostream* os) { *os << b.name; }

class SolveBadInput : public ::testing::TestWithParam<BadRun> {};

TEST_P(SolveBadInput, OneErrorLineAndNoOutput) {
  const BadRun& bad = GetParam();
  TempDir dir;
  prepare(dir, "sphere_bounce", bad.grains, bad.from, bad.to, bad.template_name, bad.vertical_speed);
  std::string args = (dir / "case.yaml").string();
  if (*bad.restart) args += std::string(" --restart ") + (dir / bad.restart).string();
  const auto run = testing::run_tool(dir, "scree-solve", args);
  EXPECT_EQ(run.status, 1) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  EXPECT_EQ(run.err.rfind("scree-solve: error: ", 0), 0u) << run.err;
  for (const std::string& part : bad.message) EXPECT_NE(run.err.find(part), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

INSTANTIATE_TEST_SUITE_P(
    Solve, SolveBadInput,
    ::testing::Values(
        BadRun{"MissingAvatar", {{0, 0, 0.5}}, "    sphere: 0.05", "    file: avatars/ball.vdb", "ball", "",
               {"avatars/ball.vdb"}},
        BadRun{"UnknownStateTemplate", {{0, 0, 0.5}}, "", "", "pebble", "", {"state.h5", "template 'pebble'"}},
        BadRun{"OverlappingGrains", {{0, 0, 0.5}, {0, 0, 0.55}}, "", "", "ball", "",
               {"state.h5", "grain 1 starts", "inside grain 2"}},
        BadRun{"GrainInsideWall", {{0, 0, 0.01}}, "", "", "ball", "", {"state.h5", "inside wall 'floor'"}},
        // 200 m/s × 1e-4 s over a 5 cm radius: Courant number 0.4.
        BadRun{"StepAboveCourantLimit", {{0, 0, 0.5}}, "", "", "ball", "",
               {"case.yaml", "Courant number", "allow_above_courant_limit"}, -200},
        BadRun{"RestartFromAState", {{0, 0, 0.5}}, "", "", "ball", "state.h5", {"state.h5", "not a checkpoint"}},
        BadRun{"MissingTerrain", {{0, 0, 0.5}}, "initial_state: state.h5",
               "initial_state: state.h5\nterrain: {file: ground.vdb, material: steel}", "ball", "", {"ground.vdb"}},
        BadRun{"NotATerrain", {{0, 0, 0.5}}, "initial_state: state.h5",
               "initial_state: state.h5\nterrain: {file: state.h5, material: steel}", "ball", "", {"state.h5"}}),
    [](const auto& info) { return std::string(info.param.name); });

// A checkpoint whose resting-contact cache names bodies the case does not have.
struct BadCache {
  const char* name;
  std::uint64_t body_a, body_b;  // 0: leave as written
  const char* message;
};
void PrintTo(const BadCache& b, std::ostream* os) { *os << b.name; }

class SolveBadContactCache : public ::testing::TestWithParam<BadCache> {};

TEST_P(SolveBadContactCache, OneErrorLineAndNoOutput) {
  TempDir dir;
  prepare(dir, "sphere_bounce", {{0, 0, 0.05}, {0, 0, 0.15}}, "  duration: 0.8", "  duration: 0.01");
  ASSERT_EQ(testing::run_tool(dir, "scree-solve", (dir / "case.yaml").string()).status, 0);
  formats::State checkpoint = formats::read_state(dir / "out" / "checkpoint.h5");
  ASSERT_GT(checkpoint.solver->contacts.size(), 0u);
  auto& contacts = checkpoint.solver->contacts;
  // The floor's contacts are the ones whose body_b is a wall id (above 2⁶³).
  const std::size_t k = std::find_if(contacts.body_b.begin(), contacts.body_b.end(),
                                     [](std::uint64_t id) { return id > (std::uint64_t(1) << 63); }) - contacts.body_b.begin();
  ASSERT_LT(k, contacts.size());
  if (GetParam().body_a) contacts.body_a[k] = GetParam().body_a;
  if (GetParam().body_b) contacts.body_b[k] = GetParam().body_b;
  formats::write_state(dir / "bad.h5", checkpoint);
  std::filesystem::remove_all(dir / "out");
  const auto run = testing::run_tool(dir, "scree-solve", (dir / "case.yaml").string() + " --restart " + (dir / "bad.h5").string());
  EXPECT_EQ(run.status, 1) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  EXPECT_EQ(run.err.rfind("scree-solve: error: " + (dir / "bad.h5").string() + ": /solver/contacts names ", 0), 0u) << run.err;
  EXPECT_NE(run.err.find(GetParam().message), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

INSTANTIATE_TEST_SUITE_P(
    Solve, SolveBadContactCache,
    ::testing::Values(BadCache{"UnknownGrain", 7, 0, "body 7, which is not a grain"},
                      BadCache{"UnknownWall", 0, formats::wall_id(3), "wall 3, but the case has 1 wall"},
                      BadCache{"PlaneOfAPlaneWall", 0, formats::wall_id(0, 2), "plane 2 of wall 0, which has 1"},
                      BadCache{"TerrainTheCaseLacks", 0, formats::terrain_id, "the terrain, but the case has none"}),
    [](const auto& info) { return std::string(info.param.name); });

// A run says how it uses the cores; waiting threads sleep unless OMP_WAIT_POLICY says
// otherwise (docs/tools.md, "Threads").
TEST(Solve, SaysItsThreadsAndWaitsPassivelyUnlessTold) {
  TempDir dir;
  prepare(dir, "sphere_bounce", {{0, 0, 0.5}}, "  duration: 0.8", "  duration: 0.01");
  auto first_line = [&](const std::string& environment) {
    const std::string command = "env -u OMP_WAIT_POLICY " + environment + " " + std::string(SCREE_BIN_DIR) +
                                "/scree-solve " + (dir / "case.yaml").string() + " > " + (dir / "stdout").string();
    EXPECT_EQ(std::system(command.c_str()), 0);
    const std::string out = read_text(dir / "stdout");
    return out.substr(0, out.find('\n'));
  };
  EXPECT_EQ(first_line("OMP_NUM_THREADS=2"), "scree-solve: 1 grain, 2 threads (OMP_NUM_THREADS), waiting passive (OMP_WAIT_POLICY)");
  EXPECT_EQ(first_line("OMP_NUM_THREADS=1 OMP_WAIT_POLICY=active"),
            "scree-solve: 1 grain, 1 thread (OMP_NUM_THREADS), waiting active (OMP_WAIT_POLICY)");
  // Bound threads keep every processor the run was allowed: running itself again for the
  // waiting policy, the tool had been left the first place's processor alone.
  cpu_set_t allowed;
  ASSERT_EQ(sched_getaffinity(0, sizeof allowed, &allowed), 0);
  const int processors = CPU_COUNT(&allowed);
  EXPECT_EQ(first_line("OMP_NUM_THREADS=2 OMP_PROC_BIND=true OMP_PLACES=threads"),
            "scree-solve: 1 grain, 2 threads (OMP_NUM_THREADS), waiting passive (OMP_WAIT_POLICY), bound to " +
                std::to_string(processors) + (processors == 1 ? " place" : " places") + " (OMP_PROC_BIND)");
}

TEST(Solve, StepAboveCourantLimitRunsWhenAllowed) {
  TempDir dir;
  prepare(dir, "sphere_bounce", {{0, 0, 0.5}}, "  duration: 0.8", "  duration: 0.1\n  allow_above_courant_limit: true",
          "ball", -200);
  const auto run = testing::run_tool(dir, "scree-solve", (dir / "case.yaml").string());
  EXPECT_EQ(run.status, 0) << run.err;
}

}  // namespace
}  // namespace scree
