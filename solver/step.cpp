#include "solver/step.h"

#include <optional>

#include "solver/exact_sum.h"
#include "solver/let_go.h"
#include "solver/ranks/rank_share.h"
#include "solver/schemes.h"

namespace scree::solver {

std::string_view phase_name(Phase phase) {
  switch (phase) {
    case Phase::forces: return "gravity and damping";
    case Phase::contact_search: return "contact search";
    case Phase::collisions: return "collisions (ETM)";
    case Phase::resting_setup: return "resting points";
    case Phase::velocity_passes: return "velocity passes";
    case Phase::correction_passes: return "correction passes";
    case Phase::resting_books: return "resting books";
    case Phase::motion: return "motion";
    case Phase::ranks: return "sharing among ranks";
  }
  return "?";
}

namespace {

// The kinetic and potential energy of the world's grains, with `share` of every rank's.
double kinetic(const World& world, const RankShare* share) {
  return share ? share->total(kinetic_energy_part(world, &share->owned)) : kinetic_energy(world);
}
double potential(const World& world, const Vec3& gravity, const RankShare* share) {
  return share ? share->total(potential_energy_part(world, gravity, &share->owned)) : potential_energy(world, gravity);
}

}  // namespace

KineticEnergies apply_external_forces(World& world, const StepSettings& settings, const RankShare* share) {
  const double dt = settings.time_step;
  const std::size_t n = world.grain_count();
  const double kinetic_start = kinetic(world, share);
  for (std::size_t i = 0; i < n; ++i) world.bodies[i].velocity += settings.gravity * dt;
  const double kinetic_kicked = kinetic(world, share);
  const double keep = 1 - settings.global_damping * dt;
  for (std::size_t i = 0; i < n; ++i) {
    world.bodies[i].velocity *= keep;
    world.bodies[i].angular_velocity *= keep;
  }
  world.energy.damping += kinetic_kicked - kinetic(world, share);
  return {kinetic_start, kinetic_kicked};
}

std::vector<RigidBody> no_corrections(const World& world) {
  std::vector<RigidBody> corrections = world.bodies;
  for (RigidBody& b : corrections) b.velocity = b.angular_velocity = Vec3::Zero();
  return corrections;
}

void move_bodies(std::vector<RigidBody>& bodies, const std::vector<RigidBody>& corrections, double dt) {
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    bodies[i].position += (bodies[i].velocity + corrections[i].velocity) * dt;
    bodies[i].orientation = rotate(bodies[i].orientation, bodies[i].angular_velocity + corrections[i].angular_velocity, dt);
  }
}

void integrate_positions(World& world, const std::vector<RigidBody>& corrections, const StepSettings& settings,
                         const KineticEnergies& kinetic, StepReport& report, const RankShare* share) {
  const double dt = settings.time_step;
  const std::size_t n = world.grain_count();
  const double kinetic_start = kinetic.before, kinetic_kicked = kinetic.after_gravity;
  // Symplectic Euler: positions move with the new velocities (seed 000 eqs. 40–43), and the
  // corrections; what the corrections lift is booked with resting contact.
  const double potential_start = potential(world, settings.gravity, share);
  ExactSum lifted;  // exactly, as the sums over grains that ranks share (docs/parallel.md)
  for (std::size_t i = 0; i < n; ++i)
    if (!share || share->owned[i]) lifted -= settings.gravity.dot(corrections[i].velocity) * dt / world.bodies[i].inverse_mass;
  const double corrected = share ? share->total(lifted) : lifted.value();
  move_bodies(world.bodies, corrections, dt);
  world.energy.resting -= corrected;
  for (Wall& w : world.walls) w.place(world.time + dt);
  world.energy.integration +=
      (kinetic_kicked - kinetic_start) + potential(world, settings.gravity, share) - potential_start - corrected;
  report.courant = share ? share->ranks.max(courant_number(world, dt)) : courant_number(world, dt);
  world.time += dt;
  ++world.step;
}

StepReport advance(World& world, const StepSettings& settings, RankShare* share) {
  StepReport report;
  report.wall_impulse.assign(world.walls.size(), Vec3::Zero());
  std::optional<PhaseTimer> timer(std::in_place, report.times, Phase::forces);
  const KineticEnergies kinetic = apply_external_forces(world, settings, share);
  std::vector<RigidBody> corrections = no_corrections(world);
  timer.reset();
  contact_scheme(settings.scheme).solve(world, settings, corrections, report, share);
  timer.emplace(report.times, Phase::motion);
  integrate_positions(world, corrections, settings, kinetic, report, share);
  timer.reset();
  // Let go before a hand-over, whose copies of the grains are a rank's peak of memory
  // (docs/parallel.md, "Memory").
  let_go(corrections);
  if (share) {
    const PhaseTimer handing(report.times, Phase::ranks);
    share->keep_up(world, report.times.work(Phase::contact_search));
  }
  return report;
}

}  // namespace scree::solver
