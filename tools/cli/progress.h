#pragma once
// A progress line for long runs, on a terminal only: "scree-shape: marching 45 % (3.2 M of
// 7.1 M points, 1.1 M/s, 4 s left)", redrawn at most five times a second and erased when
// done. When stderr is not a terminal (a batch job, a log file) it prints nothing.
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

namespace scree::cli {

// The text of the line (without the tool's name), for `done` of `total` after `seconds`.
std::string progress_text(const std::string& what, std::size_t done, std::size_t total, double seconds,
                          const std::string& unit);

// The solver's line: "step 812, t = 0.63 of 1.4 s (45 %), 85 steps/s, 12 s left"; the rate
// and the time left count from `first_step` and `first_time` (where a restart began).
std::string stepping_text(std::size_t step, double time, double duration, std::size_t first_step, double first_time,
                          double seconds);

class ProgressLine {
 public:
  ProgressLine(std::string tool, std::string what, std::string unit);
  ~ProgressLine();
  void update(std::size_t done, std::size_t total);
  // A line of the caller's making, from the seconds since the start; called only when due.
  void update(const std::function<std::string(double seconds)>& text);
  void finish();  // erases the line (before other output); the destructor calls it too

 private:
  bool due();  // on a terminal, and 200 ms since the last drawing
  void draw(const std::string& text);
  std::string tool_, what_, unit_;
  bool terminal_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace scree::cli
