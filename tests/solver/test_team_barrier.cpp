// The resting solve's barrier (solver/team_barrier.h): what a thread wrote before arriving is
// seen by every thread after it passes, phase after phase, also with more threads than cores
// (then threads sleep rather than spin); the waits that slept, and the crowding judged from
// them (CrowdWatch).
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
// like: the others' waits end in sleep.
TEST(TeamBarrier, AThreadLateToEveryMeetingSendsTheOthersToSleep) {
  TeamBarrier barrier(2);
  constexpr int phases = 40;
#pragma omp parallel num_threads(2)
  for (int phase = 0; phase < phases; ++phase) {
    if (omp_get_thread_num() == 1) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    barrier.arrive_and_wait();
  }
  EXPECT_GE(barrier.waits(), std::uint64_t(phases));
  EXPECT_GT(2 * barrier.sleeps(), barrier.waits());
}

// Crowding is judged over windows of 256 waits or more, whatever the teams: a team whose waits
// mostly slept says nothing alone, a window of which more than three quarters slept says
// crowded, and each window starts afresh.
TEST(CrowdWatch, AWindowOfWaitsMostlyAsleepIsCrowdingAndAFewTeamsAreNot) {
  CrowdWatch watch;
  EXPECT_FALSE(watch.add(60, 50));    // a moment's hold-up: most of a small team's waits slept
  EXPECT_FALSE(watch.add(150, 2));    // teams on cores of their own
  EXPECT_FALSE(watch.add(100, 3));    // the window closes: 55 of 310 slept
  EXPECT_FALSE(watch.add(200, 198));  // another process on the other core ...
  EXPECT_TRUE(watch.add(100, 99));    // ... for a window: 297 of 300
  EXPECT_FALSE(watch.add(256, 192));  // a new window: three quarters are not enough
  EXPECT_TRUE(watch.add(256, 193));
}

}  // namespace
}  // namespace scree::solver
