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

struct PhaseTimes {
  std::array<double, phase_count> seconds{};

  double& operator[](Phase phase) { return seconds[std::size_t(phase)]; }
  double operator[](Phase phase) const { return seconds[std::size_t(phase)]; }
  PhaseTimes& operator+=(const PhaseTimes& other) {
    for (std::size_t k = 0; k < phase_count; ++k) seconds[k] += other.seconds[k];
    return *this;
  }
};

// Adds the wall time from its making to its end to one phase of `times`.
class PhaseTimer {
 public:
  PhaseTimer(PhaseTimes& times, Phase phase) : into_(times[phase]), start_(std::chrono::steady_clock::now()) {}
  ~PhaseTimer() { into_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;

 private:
  double& into_;
  std::chrono::steady_clock::time_point start_;
};

// Adds to one phase of `times` the wall time from its making to its end less what the phases
// timed within it took meanwhile: the work between phases that are timed themselves.
class PhaseRemainder {
 public:
  PhaseRemainder(PhaseTimes& times, Phase phase) : times_(times), phase_(phase), before_(total()), start_(std::chrono::steady_clock::now()) {}
  ~PhaseRemainder() {
    const double inside = total() - before_;
    times_[phase_] += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() - inside;
  }
  PhaseRemainder(const PhaseRemainder&) = delete;
  PhaseRemainder& operator=(const PhaseRemainder&) = delete;

 private:
  double total() const {
    double sum = 0;
    for (double seconds : times_.seconds) sum += seconds;
    return sum;
  }
  PhaseTimes& times_;
  Phase phase_;
  double before_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace scree::solver
