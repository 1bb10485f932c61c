// scree-solve under mpirun (docs/parallel.md): the blocks_tumble case (blocks on the terrain,
// against a wall and each other; collisions and resting contact) gives the frames, log and
// checkpoint of one process to the last bit on 2 and 3 ranks, with regions by bisection and
// on a grid; a checkpoint of 3 ranks continues on 1 and one of 1 on 2 as the run it
// interrupted; a grid of other than the ranks' number is refused with one line.
#include <gtest/gtest.h>

#include <fstream>
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

}  // namespace
}  // namespace scree
