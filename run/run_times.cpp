#include "run/run_times.h"

#include <cstdio>

namespace scree::run {

std::string times_table(const RunTimes& times) {
  if (times.steps == 0) return "no steps taken\n";
  std::string table;
  char line[128];
  std::snprintf(line, sizeof line, "%lld steps in %.3f s of wall time:\n", static_cast<long long>(times.steps),
                times.stepping);
  table += line;
  auto row = [&](std::string_view name, double seconds) {
    const double share = times.stepping > 0 ? 100 * seconds / times.stepping : 0;
    std::snprintf(line, sizeof line, "  %-20.*s %10.3f s %6.1f %% %10.3f ms a step\n", int(name.size()), name.data(),
                  seconds, share, 1000 * seconds / double(times.steps));
    table += line;
  };
  double timed = times.output;
  for (std::size_t k = 0; k < solver::phase_count; ++k) {
    const auto phase = solver::Phase(k);
    if (phase == solver::Phase::ranks && times.phases[phase] == 0) continue;  // one process shares nothing
    row(solver::phase_name(phase), times.phases[phase]);
    timed += times.phases[phase];
  }
  row("output", times.output);
  // Copies of the bodies between sweeps and the like; never below 0 from the clocks' round-off.
  row("other", times.stepping > timed ? times.stepping - timed : 0.0);
  return table;
}

}  // namespace scree::run
