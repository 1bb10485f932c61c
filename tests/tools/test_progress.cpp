// The progress line's text: percentage, counts, rate and time left.
#include <gtest/gtest.h>

#include "tools/cli/progress.h"

namespace {

using scree::cli::progress_text;

TEST(ProgressLine, SaysHowFarHowFastAndHowLong) {
  EXPECT_EQ(progress_text("marching", 3'200'000, 7'100'000, 2.0, "points"),
            "marching 45 % (3.2 M of 7.1 M points, 1.6 M/s, 3 s left)");
  EXPECT_EQ(progress_text("marching", 500, 1000, 0.0, "points"), "marching 50 % (500 of 1.0 k points)");
  // An estimate that falls short is never shown as more than 100 %.
  EXPECT_EQ(progress_text("marching", 1200, 1000, 1.0, "points"),
            "marching 100 % (1.2 k of 1.2 k points, 1.2 k/s, 0 s left)");
}

TEST(ProgressLine, TheSolverSaysStepSimulatedTimeRateAndTimeLeft) {
  // 600 steps to 0.7 of 1.4 s in 10 s: another 10 s to go.
  EXPECT_EQ(scree::cli::stepping_text(600, 0.7, 1.4, 0, 0, 10.0), "step 600, t = 0.7 of 1.4 s (50 %), 60 steps/s, 10 s left");
  // A restart at step 500, t = 0.6 s: the rate and the time left count from there.
  EXPECT_EQ(scree::cli::stepping_text(600, 0.7, 1.4, 500, 0.6, 10.0), "step 600, t = 0.7 of 1.4 s (50 %), 10 steps/s, 70 s left");
  EXPECT_EQ(scree::cli::stepping_text(0, 0, 1.4, 0, 0, 0.0), "step 0, t = 0 of 1.4 s (0 %)");
}

}  // namespace
