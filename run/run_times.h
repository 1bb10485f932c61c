#pragma once
// Where a run's wall time went: the solver's phases (solver/phase_times.h), the output
// (frames, log, checkpoints) and the rest, summed over the run's steps. scree-solve prints
// the table at the end of a run (docs/tools.md, scree-solve).
#include <cstdint>
#include <string>

#include "solver/phase_times.h"

namespace scree::run {

struct RunTimes {
  solver::PhaseTimes phases;
  double output = 0;       // s, frames, log rows and checkpoints written
  double stepping = 0;     // s, the whole loop of steps, output included
  std::int64_t steps = 0;  // steps taken
};

// The table: a line a phase, then output and what no phase holds ("other"), each with its
// seconds, its share of the stepping and its milliseconds a step; a run of no steps gives a
// line saying so.
std::string times_table(const RunTimes& times);

}  // namespace scree::run
