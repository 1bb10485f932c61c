// scree-solve under mpirun (docs/parallel.md): the blocks_tumble case (blocks on the terrain,
// against a wall and each other; collisions and resting contact) gives the frames, log and
// checkpoint of one process to the last bit on 2 and 3 ranks, with regions by bisection and
// on a grid; a checkpoint of 3 ranks continues on 1 and one of 1 on 2 as the run it
// interrupted; a grid of other than the ranks' number is refused with one line; a bad state,
// which each rank reads a slice of, is refused with the line one process gives.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <fstream>
#include <functional>
#include <sstream>

#include "tools/same_run.h"

namespace scree {
namespace {

using testing::prepare_blocks;
using testing::TempDir;

// scree-solve `args` on `ranks` MPI ranks of one thread each (mpirun --oversubscribe: CI has
// two cores).
testing::ToolRun solve_on(const TempDir& dir, int ranks, const std::string& args) {
  const std::string command = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1 " +
                              std::string(SCREE_MPIEXEC) + " --oversubscribe -np " + std::to_string(ranks) + " " +
                              std::string(SCREE_BIN_DIR) + "/scree-solve " + args + " >" + (dir / "stdout").string() +
                              " 2>" + (dir / "stderr").string();
  const int raw = std::system(command.c_str());
  testing::ToolRun r{WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, testing::read_text(dir / "stdout"), testing::read_text(dir / "stderr")};
  std::filesystem::remove(dir / "stdout");
  std::filesystem::remove(dir / "stderr");
  return r;
}

void edit(const TempDir& dir, const std::string& from, const std::string& to) {
  std::string text = testing::read_text(dir / "case.yaml");
  const auto at = text.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  text.replace(at, from.size(), to);
  std::ofstream(dir / "case.yaml") << text;
}

TEST(SolveRanks, BlocksOnTwoAndThreeRanksRunAsOnOne) {
  TempDir one, two, three;
  for (const TempDir* dir : {&one, &two, &three}) prepare_blocks(*dir, {{"duration: 1.2", "duration: 0.6"}});
  edit(three, "initial_state:", "parallel: {ranks: [3, 1, 1]}\ninitial_state:");
  testing::solve(one);
  const testing::ToolRun on_two = solve_on(two, 2, (two / "case.yaml").string());
  ASSERT_EQ(on_two.status, 0) << on_two.err;
  EXPECT_EQ(on_two.out.substr(0, on_two.out.find('\n')),
            "scree-solve: 8 grains, 2 MPI ranks × 1 thread (OMP_NUM_THREADS), waiting passive (OMP_WAIT_POLICY)");
  const testing::ToolRun on_three = solve_on(three, 3, (three / "case.yaml").string());
  ASSERT_EQ(on_three.status, 0) << on_three.err;
  EXPECT_GE(testing::expect_same_run(one, two), 7u);
  EXPECT_GE(testing::expect_same_run(one, three), 7u);
}

TEST(SolveRanks, ACheckpointContinuesOnAnotherNumberOfRanks) {
  TempDir whole, three_then_one, one_then_two;
  for (const TempDir* dir : {&whole, &three_then_one, &one_then_two}) prepare_blocks(*dir, {{"duration: 1.2", "duration: 0.8"}});
  testing::solve(whole);
  for (const TempDir* dir : {&three_then_one, &one_then_two}) edit(*dir, "duration: 0.8", "duration: 0.4");
  ASSERT_EQ(solve_on(three_then_one, 3, (three_then_one / "case.yaml").string()).status, 0);
  testing::solve(one_then_two);
  for (const TempDir* dir : {&three_then_one, &one_then_two}) {
    edit(*dir, "duration: 0.4", "duration: 0.8");
    std::filesystem::copy_file(*dir / "out" / "checkpoint.h5", *dir / "restart.h5");
  }
  const auto on_one = testing::run_tool(three_then_one, "scree-solve", testing::in_dir(three_then_one, "DIR/case.yaml --restart DIR/restart.h5"));
  ASSERT_EQ(on_one.status, 0) << on_one.err;
  const auto on_two = solve_on(one_then_two, 2, testing::in_dir(one_then_two, "DIR/case.yaml --restart DIR/restart.h5"));
  ASSERT_EQ(on_two.status, 0) << on_two.err;
  EXPECT_GE(testing::expect_same_run(whole, three_then_one), 8u);
  EXPECT_GE(testing::expect_same_run(whole, one_then_two), 8u);
}

TEST(SolveRanks, AGridOfOtherThanTheRanksIsRefused) {
  TempDir dir;
  prepare_blocks(dir, {{"initial_state:", "parallel: {ranks: [2, 1, 1]}\ninitial_state:"}});
  const testing::ToolRun r = solve_on(dir, 3, (dir / "case.yaml").string());
  // One line from rank 0 (mpirun adds its own about the ranks' exit).
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.err.substr(0, r.err.find('\n')), "scree-solve: error: " + (dir / "case.yaml").string() +
                                                    ": parallel.ranks [2, 1, 1] makes 2 regions, but 3 ranks run");
  std::size_t lines = 0;
  for (std::size_t at = 0; (at = r.err.find("scree-solve", at)) != std::string::npos; at += 11) ++lines;
  EXPECT_EQ(lines, 1u) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
  // On one rank too: a grid is carried out or refused.
  const testing::ToolRun alone = testing::run_tool(dir, "scree-solve", (dir / "case.yaml").string());
  testing::expect_refusal(dir, alone, "scree-solve", 1, "parallel.ranks [2, 1, 1] makes 2 regions, but 1 rank runs", dir / "out");
}

// Row `row` of the state's /bodies/id set to the id of row `like`: a file no writer makes.
void give_id_of_row(const std::filesystem::path& file, hsize_t row, hsize_t like) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  const hid_t set = H5Dopen2(f, "/bodies/id", H5P_DEFAULT);
  std::vector<std::uint64_t> ids(8);
  ASSERT_GE(H5Dread(set, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, ids.data()), 0);
  ids[row] = ids[like];
  ASSERT_GE(H5Dwrite(set, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, ids.data()), 0);
  H5Dclose(set);
  H5Fclose(f);
}

// On three ranks each reads a slice of the rows (3, 3 and 2 of the eight blocks): what makes
// the state bad lies across the slices, and every rank refuses it with the line one process
// gives, naming the same first row, grain or contact.
TEST(SolveRanks, ABadStateIsRefusedWithTheLineOfOneProcess) {
  struct Bad {
    std::string what;
    std::function<void(const TempDir&)> spoil;
    std::string restart;  // the state file's name when it is a checkpoint to restart from
    std::string reason;
  };
  const std::vector<Bad> bad{
      {"an id on two rows of different slices", [](const TempDir& dir) { give_id_of_row(dir / "state.h5", 6, 1); }, "",
       "body 6: duplicate id 2"},
      {"grains inside each other, found by different ranks",
       [](const TempDir& dir) {
         formats::State s = formats::read_state(dir / "state.h5");
         s.bodies.position[7] = s.bodies.position[0];
         s.bodies.position[5] = s.bodies.position[2];
         s.bodies.position[5][0] += 0.01;
         formats::write_state(dir / "state.h5", s);
       },
       "", "grain 1 starts"},
      {"a checkpoint's contact naming a grain that is not there",
       [](const TempDir& dir) {
         testing::solve(dir);
         formats::State s = formats::read_state(dir / "out" / "checkpoint.h5");
         ASSERT_GE(s.solver->contacts.size(), 6u);
         s.solver->contacts.body_b[s.solver->contacts.size() * 2 / 3] = 999;
         formats::write_state(dir / "restart.h5", s);
         std::filesystem::remove_all(dir / "out");
       },
       "restart.h5", "/solver/contacts names body 999, which is not a grain"},
  };
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.what);
    TempDir one, three;
    for (const TempDir* dir : {&one, &three}) {
      prepare_blocks(*dir, {{"duration: 1.2", "duration: 0.6"}});
      b.spoil(*dir);
    }
    auto args = [&](const TempDir& dir) {
      return (dir / "case.yaml").string() + (b.restart.empty() ? "" : " --restart " + (dir / b.restart).string());
    };
    const testing::ToolRun alone = testing::run_tool(one, "scree-solve", args(one));
    const testing::ToolRun shared = solve_on(three, 3, args(three));
    ASSERT_EQ(alone.status, 1) << alone.err;
    EXPECT_EQ(shared.status, 1) << shared.err;
    const std::string line = alone.err.substr(0, alone.err.find('\n'));
    EXPECT_NE(line.find(b.reason), std::string::npos) << line;
    std::string expected = line;
    const std::string dir_one = one.path().string(), dir_three = three.path().string();
    for (std::size_t at = 0; (at = expected.find(dir_one, at)) != std::string::npos; at += dir_three.size())
      expected.replace(at, dir_one.size(), dir_three);
    EXPECT_EQ(shared.err.substr(0, shared.err.find('\n')), expected);
    EXPECT_FALSE(std::filesystem::exists(three / "out"));
  }
}

}  // namespace
}  // namespace scree
