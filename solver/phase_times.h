#pragma once
// Where a step's wall time goes, phase by phase (Jolt's named phases; LAMMPS prints such a
// breakdown after every run): scree-solve prints the sums at the end of a run (docs/tools.md,
// scree-solve), and bench/heaps reads them to tell the resting passes, whose count may grow
// with a heap's depth, from the rest of a step (docs/benchmarks.md). Timers only: no result
// depends on them. Each phase is timed on the thread that leads it, around its parallel
// loops, so the sums are wall time, not CPU time.
#include <array>
#include <chrono>
#include <cstddef>
#include <string_view>

namespace scree::solver {

enum class Phase {
  forces,             // gravity and damping
  contact_search,     // broad and narrow phase: contacts, support faces and points
  collisions,         // the energy tracking method on contacts that approach fast
  resting_setup,      // resting points built and warm started, islands, schedules
  velocity_passes,    // the resting solve's passes on the velocities, with coarse steps
  correction_passes,  // its passes on the position corrections
  resting_books,      // the resting impulses' work and wall impulses booked, the store merged
  motion,             // bodies moved, walls placed, the step's books closed
  ranks,              // shared among ranks: resting islands sent and answered, grains handed over
};
constexpr std::size_t phase_count = std::size_t(Phase::ranks) + 1;

// What the log and the end of a run call each phase.
std::string_view phase_name(Phase phase);

// The wall seconds this process has spent so far in calls that meet other ranks, waiting
// there for the slowest it meets: Ranks (solver/ranks/communicator.h) adds to it, and each
// phase's timer counts the part of its phase so spent (PhaseTimes::with_others), which tells
// a phase's work from its waits on several ranks. One count a process: MPI is called by the
// thread that started it alone.
inline double seconds_with_other_ranks = 0;

struct PhaseTimes {
  std::array<double, phase_count> seconds{};
  std::array<double, phase_count> with_others{};  // of `seconds`, in calls that meet other ranks

  double& operator[](Phase phase) { return seconds[std::size_t(phase)]; }
  double operator[](Phase phase) const { return seconds[std::size_t(phase)]; }
  // A phase's seconds less its calls that meet other ranks.
  double work(Phase phase) const { return seconds[std::size_t(phase)] - with_others[std::size_t(phase)]; }
  PhaseTimes& operator+=(const PhaseTimes& other) {
    for (std::size_t k = 0; k < phase_count; ++k) seconds[k] += other.seconds[k], with_others[k] += other.with_others[k];
    return *this;
  }
};

// Adds the wall time from its making to its end to one phase of `times`.
class PhaseTimer {
 public:
  PhaseTimer(PhaseTimes& times, Phase phase)
      : into_(times[phase]), with_others_(times.with_others[std::size_t(phase)]), met_(seconds_with_other_ranks),
        start_(std::chrono::steady_clock::now()) {}
  ~PhaseTimer() {
    into_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    with_others_ += seconds_with_other_ranks - met_;
  }
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;

 private:
  double &into_, &with_others_;
  double met_;
  std::chrono::steady_clock::time_point start_;
};

// Adds to one phase of `times` the wall time from its making to its end less what the phases
// timed within it took meanwhile: the work between phases that are timed themselves.
class PhaseRemainder {
 public:
  PhaseRemainder(PhaseTimes& times, Phase phase)
      : times_(times), phase_(phase), before_(total(times.seconds)), before_with_others_(total(times.with_others)),
        met_(seconds_with_other_ranks), start_(std::chrono::steady_clock::now()) {}
  ~PhaseRemainder() {
    const double inside = total(times_.seconds) - before_, inside_with_others = total(times_.with_others) - before_with_others_;
    times_[phase_] += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() - inside;
    times_.with_others[std::size_t(phase_)] += seconds_with_other_ranks - met_ - inside_with_others;
  }
  PhaseRemainder(const PhaseRemainder&) = delete;
  PhaseRemainder& operator=(const PhaseRemainder&) = delete;

 private:
  static double total(const std::array<double, phase_count>& seconds) {
    double sum = 0;
    for (double s : seconds) sum += s;
    return sum;
  }
  PhaseTimes& times_;
  Phase phase_;
  double before_, before_with_others_, met_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace scree::solver
