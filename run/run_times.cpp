#include "run/run_times.h"

#include <algorithm>
#include <cstdio>
#include <span>
#include <vector>

namespace scree::run {

namespace {

// Seconds by row (the phases, output, other, then the calls that meet other ranks), and of
// each row's seconds those in such calls.
struct Rows {
  std::vector<double> seconds, with_others;
};
Rows rows_of(const RunTimes& times) {
  Rows rows{{times.phases.seconds.begin(), times.phases.seconds.end()},
            {times.phases.with_others.begin(), times.phases.with_others.end()}};
  double timed = times.output, timed_with_others = times.output_with_others;
  for (std::size_t k = 0; k < solver::phase_count; ++k) timed += rows.seconds[k], timed_with_others += rows.with_others[k];
  rows.seconds.push_back(times.output);
  rows.with_others.push_back(times.output_with_others);
  // Copies of the bodies between sweeps and the like; never below 0 from the clocks' round-off.
  rows.seconds.push_back(std::max(times.stepping - timed, 0.0));
  rows.with_others.push_back(std::max(times.stepping_with_others - timed_with_others, 0.0));
  rows.seconds.push_back(times.stepping_with_others);
  rows.with_others.push_back(times.stepping_with_others);
  return rows;
}

// Each row's work: its seconds less those in calls that meet other ranks.
std::vector<double> work_of(const Rows& rows) {
  std::vector<double> work(rows.seconds.size());
  for (std::size_t k = 0; k + 1 < work.size(); ++k) work[k] = std::max(rows.seconds[k] - rows.with_others[k], 0.0);
  work.back() = rows.seconds.back();  // the calls' own row: their seconds
  return work;
}

// The table of rows_of(times), each row with the least and most over the ranks of its work
// (work_of) when given.
std::string table_of(const RunTimes& times, const std::vector<double>* least, const std::vector<double>* most) {
  if (times.steps == 0) return "no steps taken\n";
  const std::vector<double> rows = rows_of(times).seconds;
  std::string table;
  char line[160];
  std::snprintf(line, sizeof line, "%lld steps in %.3f s of wall time%s:\n", static_cast<long long>(times.steps),
                times.stepping, least ? " (after each row: its work, less its MPI calls, least - most over the ranks)" : "");
  table += line;
  auto row = [&](std::string_view name, std::size_t k) {
    const double seconds = rows[k], share = times.stepping > 0 ? 100 * seconds / times.stepping : 0;
    const int length = std::snprintf(line, sizeof line, "  %-20.*s %10.3f s %6.1f %% %10.3f ms a step", int(name.size()),
                                     name.data(), seconds, share, 1000 * seconds / double(times.steps));
    if (least) std::snprintf(line + length, sizeof line - std::size_t(length), "   %9.3f - %.3f s", (*least)[k], (*most)[k]);
    table += line;
    table += '\n';
  };
  for (std::size_t k = 0; k < solver::phase_count; ++k) {
    const auto phase = solver::Phase(k);
    if (phase == solver::Phase::ranks && !least) continue;  // one process shares nothing
    row(solver::phase_name(phase), k);
  }
  row("output", solver::phase_count);
  row("other", solver::phase_count + 1);
  if (least) {
    row("in MPI calls", solver::phase_count + 2);
    table += "  (in MPI calls: within the rows above; a rank waits there for the slowest rank it meets)\n";
  }
  return table;
}

}  // namespace

std::string times_table(const RunTimes& times) { return table_of(times, nullptr, nullptr); }

std::string times_table(const RunTimes& times, const solver::Ranks& ranks) {
  if (ranks.size() == 1) return times_table(times);
  std::vector<double> least = work_of(rows_of(times)), most = least;
  ranks.min(std::span<double>(least));
  ranks.max(std::span<double>(most));
  return table_of(times, &least, &most);
}

}  // namespace scree::run
