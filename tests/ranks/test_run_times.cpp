// The table of where a run's time went, on several ranks (run/run_times.h), run by ctest
// under mpirun on 1, 2, 3 and 4 ranks: each row shows rank 0's seconds, then the least and the
// most over the ranks of its work (its seconds less those in calls that meet other ranks).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "run/run_times.h"

namespace scree::run {
namespace {

// Rank r searched 1 + r seconds, 0.5 of them meeting other ranks; the run took 10 s.
RunTimes times_of_rank(int r) {
  RunTimes times;
  times.steps = 4;
  times.stepping = 10;
  times.phases[solver::Phase::contact_search] = 1 + r;
  times.phases.with_others[std::size_t(solver::Phase::contact_search)] = 0.5;
  times.stepping_with_others = 0.5;
  return times;
}

TEST(RunTimes, EachRowShowsTheLeastAndTheMostWorkOverTheRanks) {
  const solver::Ranks ranks = solver::Ranks::world();
  const std::string table = times_table(times_of_rank(ranks.rank()), ranks);
  const std::size_t search = table.find("  contact search ");
  ASSERT_NE(search, std::string::npos) << table;
  const std::string row = table.substr(search, table.find('\n', search) - search);
  if (ranks.size() == 1) {
    EXPECT_EQ(table, times_table(times_of_rank(0)));  // one rank alone: the one process's table
    return;
  }
  char spread[64];
  std::snprintf(spread, sizeof spread, "0.500 - %.3f s", ranks.size() - 0.5);  // work 0.5 + r
  EXPECT_NE(row.find(spread), std::string::npos) << row;
  char own[32];
  std::snprintf(own, sizeof own, "%10.3f s ", 1.0 + ranks.rank());  // this rank's own seconds (rank 0's printed)
  EXPECT_NE(row.find(own), std::string::npos) << row;
  EXPECT_NE(table.find("  in MPI calls              0.500 s "), std::string::npos) << table;
  EXPECT_NE(table.find("  sharing among ranks "), std::string::npos) << table;
}

}  // namespace
}  // namespace scree::run
