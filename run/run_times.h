#pragma once
// Where a run's wall time went: the solver's phases (solver/phase_times.h), the output
// (frames, log, checkpoints) and the rest, summed over the run's steps. scree-solve prints
// the table at the end of a run (docs/tools.md, scree-solve).
#include <cstdint>
#include <string>

#include "solver/phase_times.h"
#include "solver/ranks/communicator.h"

namespace scree::run {

struct RunTimes {
  solver::PhaseTimes phases;
  double output = 0;       // s, frames, log rows and checkpoints written
  double stepping = 0;     // s, the whole loop of steps, output included
  // s of the output and of the whole loop spent in calls that meet other ranks
  // (solver::seconds_with_other_ranks), as the phases' own are kept (PhaseTimes::with_others)
  double output_with_others = 0, stepping_with_others = 0;
  std::int64_t steps = 0;  // steps taken
};

// The table: a line a phase, then output and what no phase holds ("other"), each with its
// seconds, its share of the stepping and its milliseconds a step; a run of no steps gives a
// line saying so.
std::string times_table(const RunTimes& times);

// The table of this rank's times on several ranks, each line with the least and the most over
// the ranks of its work (its seconds less those in calls that meet other ranks, where a rank
// waits for the slowest it meets), then a line for those calls: as LAMMPS prints its sections'
// spread over MPI tasks, a phase whose most is far over its least is unevenly shared. Every
// rank calls it; one rank alone gets times_table(times).
std::string times_table(const RunTimes& times, const solver::Ranks& ranks);

}  // namespace scree::run
