#include "tools/cli/progress.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

namespace scree::cli {

namespace {
std::string count_text(double n) {
  char buffer[32];
  if (n >= 1e6) std::snprintf(buffer, sizeof buffer, "%.1f M", n / 1e6);
  else if (n >= 1e3) std::snprintf(buffer, sizeof buffer, "%.1f k", n / 1e3);
  else std::snprintf(buffer, sizeof buffer, "%.0f", n);
  return buffer;
}
}  // namespace

std::string progress_text(const std::string& what, std::size_t done, std::size_t total, double seconds,
                          const std::string& unit) {
  total = std::max(total, done);
  const double fraction = total ? double(done) / double(total) : 1;
  const double rate = seconds > 0 ? double(done) / seconds : 0;
  char percent[16];
  std::snprintf(percent, sizeof percent, "%.0f %%", 100 * fraction);
  std::string text = what + " " + percent + " (" + count_text(double(done)) + " of " +
                     count_text(double(total)) + " " + unit;
  if (rate > 0) {
    text += ", " + count_text(rate) + "/s";
    text += ", " + std::to_string(long(std::ceil(double(total - done) / rate))) + " s left";
  }
  return text + ")";
}

ProgressLine::ProgressLine(std::string tool, std::string what, std::string unit)
    : tool_(std::move(tool)), what_(std::move(what)), unit_(std::move(unit)), terminal_(isatty(2)),
      start_(std::chrono::steady_clock::now()), last_(start_) {}

ProgressLine::~ProgressLine() { finish(); }

void ProgressLine::finish() {
  if (drawn_) std::cerr << "\r\033[K" << std::flush;
  drawn_ = false;
}

void ProgressLine::update(std::size_t done, std::size_t total) {
  if (!terminal_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(200)) return;
  last_ = now;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  std::cerr << "\r\033[K" << tool_ << ": " << progress_text(what_, done, total, seconds, unit_) << std::flush;
  drawn_ = true;
}

}  // namespace scree::cli
