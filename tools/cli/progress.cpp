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

std::string stepping_text(std::size_t step, double time, double duration, std::size_t first_step, double first_time,
                          double seconds) {
  char text[160];
  const double fraction = duration > 0 ? std::clamp(time / duration, 0.0, 1.0) : 1;
  int used = std::snprintf(text, sizeof text, "step %zu, t = %.4g of %.4g s (%.0f %%)", step, time, duration, 100 * fraction);
  if (seconds > 0 && step > first_step && time > first_time) {
    const double left = seconds * (duration - time) / (time - first_time);
    std::snprintf(text + used, sizeof text - std::size_t(used), ", %s steps/s, %.0f s left",
                  count_text(double(step - first_step) / seconds).c_str(), std::max(std::round(left), 0.0));
  }
  return text;
}

ProgressLine::ProgressLine(std::string tool, std::string what, std::string unit)
    : tool_(std::move(tool)), what_(std::move(what)), unit_(std::move(unit)), terminal_(isatty(2)),
      start_(std::chrono::steady_clock::now()), last_(start_) {}

ProgressLine::~ProgressLine() { finish(); }

void ProgressLine::finish() {
  if (drawn_) std::cerr << "\r\033[K" << std::flush;
  drawn_ = false;
}

bool ProgressLine::due() {
  if (!terminal_) return false;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(200)) return false;
  last_ = now;
  return true;
}

void ProgressLine::draw(const std::string& text) {
  std::cerr << "\r\033[K" << tool_ << ": " << text << std::flush;
  drawn_ = true;
}

void ProgressLine::update(std::size_t done, std::size_t total) {
  if (due()) draw(progress_text(what_, done, total, std::chrono::duration<double>(last_ - start_).count(), unit_));
}

void ProgressLine::update(const std::function<std::string(double)>& text) {
  if (due()) draw(text(std::chrono::duration<double>(last_ - start_).count()));
}

}  // namespace scree::cli
