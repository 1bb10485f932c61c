#pragma once
// A run of scree-solve: the World built from a case file and a state (initial state or
// checkpoint), advanced to the case's duration with frames, the CSV log and checkpoints
// written as docs/formats.md specifies. Includes OpenVDB only in the .cpp (avatars).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "formats/case.h"
#include "formats/state.h"
#include "run/run_times.h"
#include "solver/ranks/rank_share.h"
#include "solver/step.h"
#include "solver/world.h"

namespace scree::run {

struct Simulation {
  formats::Case setup;
  solver::World world;
  solver::StepSettings settings;
  std::vector<std::string> template_names;  // the state's /templates, written back in frames
  std::string run;  // written into every frame and checkpoint (formats::State::run)
  std::optional<formats::Georeference> georeference;  // the terrain's, into every frame and checkpoint
  std::int64_t next_frame_index = 0;
  double next_frame_time = 0, next_log_time = 0, next_checkpoint_time = 0;
  double initial_energy = 0;  // K + V at the start of the run (a checkpoint carries it on)
  std::vector<solver::Vec3> wall_impulse;  // on each wall from the grains since the start, N·s
  RunTimes times;  // where this process's stepping went (not carried by checkpoints)
  // When the run is shared among MPI ranks (load_simulation_across_ranks), this rank's place:
  // its world holds its region's grains and halo.
  std::shared_ptr<solver::RankShare> share;
};

// Throws FileError (the case file) when the case's parallel.ranks grid has other than `ranks`
// regions: a grid asked for is carried out or refused, on one rank too.
void check_rank_count(const formats::Case& setup, int ranks);

// Builds the world: one grain shape per case template (avatars read once, shared by every
// grain of that template), grains from the state, walls, and the contact-law table. A state
// template names a case template by its name or by its avatar path (relative to the case
// file's folder). Throws FileError for a missing or bad avatar, a state template the case
// does not have, grains that overlap by more than 5 % of the thinner one's half-width (a
// state or a frame; a checkpoint continues its run as the run left it), and a
// time step above the Courant limit (unless the case allows it).
Simulation load_simulation(const formats::Case& setup, const formats::State& state);

// The same run shared among `ranks` (docs/parallel.md, "Starting"), no rank holding the whole
// state: each rank reads a slice of `in`'s rows, the regions are cut (the case's parallel.ranks
// grid over the grains' box, or bisection of the grains and their contacts, `auto`), and each
// rank's world becomes its region's grains and halo, with the checkpoint's contacts of its own
// grains. A bad row, a duplicate id, grains inside each other are refused on every rank with
// the FileError one process gives (the first such row any rank met).
Simulation load_simulation_across_ranks(const formats::Case& setup, const formats::StateReader& in, const solver::Ranks& ranks);

// Advances to the case's duration: a frame at every frame interval (frame_NNNNNN.h5, the
// first one at the start unless restarting), a log row at every log interval, checkpoints
// at their interval and always at the end (checkpoint.h5). `progress(time, duration)` is
// called after every step. When `stop_requested()` says so after a step (a signal), the run
// writes checkpoint.h5 there and returns false: a restart from it continues bit for bit.
// The wall time of its steps goes to sim.times.
bool run_simulation(Simulation& sim, bool restarting, const std::function<void(double, double)>& progress = {},
                    const std::function<bool()>& stop_requested = {});

// The world as a state file holds it: a frame, a checkpoint (with the solver's books and
// contact cache) or an initial state; when the run is shared among ranks, this rank's own
// grains and their contacts (write_state_across_ranks() writes the whole).
formats::State snapshot(const Simulation& sim, formats::StateKind kind);

// Advances to the case's duration and writes nothing: an assembly settling before its run.
void advance_quietly(Simulation& sim, const std::function<void(double, double)>& progress = {});

// The log's columns (docs/formats.md, "log.csv of scree-solve"), with three columns of
// cumulative impulse per wall of the case.
std::vector<std::string> log_column_names(const formats::Case& setup);

}  // namespace scree::run
