#pragma once
// A progress line for long runs, on a terminal only: "scree-shape: marching 45 % (3.2 M of
// 7.1 M points, 1.1 M/s, 4 s left)", redrawn at most five times a second and erased when
// done. When stderr is not a terminal (a batch job, a log file) it prints nothing.
#include <chrono>
#include <cstddef>
#include <string>

namespace scree::cli {

// The text of the line (without the tool's name), for `done` of `total` after `seconds`.
std::string progress_text(const std::string& what, std::size_t done, std::size_t total, double seconds,
                          const std::string& unit);

class ProgressLine {
 public:
  ProgressLine(std::string tool, std::string what, std::string unit);
  ~ProgressLine();
  void update(std::size_t done, std::size_t total);
  void finish();  // erases the line (before other output); the destructor calls it too

 private:
  std::string tool_, what_, unit_;
  bool terminal_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace scree::cli
