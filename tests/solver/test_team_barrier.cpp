// The resting solve's barrier (solver/team_barrier.h): what a thread wrote before arriving is
// seen by every thread after it passes, phase after phase, also with more threads than cores
// (then threads sleep rather than spin).
#include <gtest/gtest.h>
#include <omp.h>

#include <chrono>
#include <thread>
#include <vector>

#include "solver/team_barrier.h"

namespace scree::solver {
namespace {

TEST(TeamBarrier, EveryThreadSeesWhatAllWroteBeforeIt) {
  for (int threads : {2, 3, 8}) {
    TeamBarrier barrier(threads);
    std::vector<int> written(std::size_t(threads), -1);
    int mismatches = 0, team = 0;
#pragma omp parallel num_threads(threads) reduction(+ : mismatches)
    {
#pragma omp single
      team = omp_get_num_threads();
      const std::size_t me = std::size_t(omp_get_thread_num());
      for (int phase = 0; phase < 2000; ++phase) {
        written[me] = phase;
        barrier.arrive_and_wait();
        for (int w : written) mismatches += w != phase;
        barrier.arrive_and_wait();  // nobody writes the next phase before all have read
      }
    }
    ASSERT_EQ(team, threads);
    EXPECT_EQ(mismatches, 0) << threads << " threads";
  }
}

// A thread that comes a millisecond late to every barrier is what a thread off its core looks
// like: the others sleep at most waits and the team reports itself crowded; a few sleeps
// (16 or fewer) are not enough to say so.
TEST(TeamBarrier, ATeamWaitingMostlyAsleepIsCrowded) {
  for (int phases : {8, 200}) {
    TeamBarrier barrier(2);
#pragma omp parallel num_threads(2)
    for (int phase = 0; phase < phases; ++phase) {
      if (omp_get_thread_num() == 1) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      barrier.arrive_and_wait();
    }
    EXPECT_EQ(barrier.crowded(), phases > 16) << phases << " phases";
  }
}

}  // namespace
}  // namespace scree::solver
