#pragma once
// One time step of the world, as named phases in the order Jolt Physics' PhysicsSystem::Update
// runs its jobs (docs/architecture.md, "The step"; seed 000 §3.4, §4.1, Fig. 5):
//   1. external forces  gravity, then global damping, act on the velocities;
//   2. contacts         the case's contact scheme (solver/schemes.h) finds the contacts where
//                       the bodies are going and changes the velocities, and the position
//                       corrections of this step, so that the step ends with every contact
//                       apart or resting (the impulse scheme: solver/impulse/predict_correct.h);
//   3. integration      positions and orientations advance with the new velocities plus the
//                       corrections (symplectic Euler);
//   4. books            the energy the phases put in or took out; walls moved; time counted.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "formats/case.h"
#include "solver/impulse/energy_tracking.h"
#include "solver/phase_times.h"
#include "solver/rigid_body.h"
#include "solver/world.h"

namespace scree::solver {

struct RankShare;  // solver/ranks/rank_share.h

// The impulse scheme's settings (the case's scheme.impulse).
struct ImpulseSettings {
  EnergyTrackingSettings collisions;
  int boundary_iterations = 10;  // predict–correct sweeps
  // Contacts approaching slower than this are resting (corrected, not collided); below
  // zero: three steps of gravity, 3 |g| Δt.
  double resting_speed = -1;
  // Resting contact's projected Gauss–Seidel (solver/impulse/resting_contact.h): a point met
  // again starts from β times its last step's impulse (seed 002), and the passes stop when no
  // point's relative velocity changes by more than `resting_tolerance` |g| Δt, or after
  // `resting_passes_per_layer` × (L + 10) passes for an island L contacts deep, at most
  // `resting_passes`.
  double warm_start = 1;
  double resting_tolerance = 1e-4;
  int resting_passes = 300;
  int resting_passes_per_layer = 1;
  // Passes accelerated along conjugate directions (the default), or plain projected
  // Gauss–Seidel (docs/validation.md, "Warm starting").
  bool resting_conjugate = true;
  // After every this many passes, and after the last if its budget ran out, an island at
  // least three layers deep takes a coarse step (solver/impulse/coarse_step.h); 0: never.
  int resting_coarse_every = 5;
};

struct StepSettings {
  double time_step = 1e-3;
  Vec3 gravity{0, 0, -9.81};
  double global_damping = 0;  // ξ, 1/s
  formats::SchemeType scheme = formats::SchemeType::impulse;
  ImpulseSettings impulse;
};

struct StepReport {
  std::size_t contacts = 0;       // contact points found in the last sweep
  std::size_t islands = 0;        // islands resolved, all sweeps
  std::int64_t increments = 0;    // ETM impulses applied
  int sweeps = 0;                 // predict–correct sweeps used
  int passes = 0;                 // the most resting-contact passes an island took in a sweep
  double stored_peak = 0;         // largest energy stored in one island, J
  double courant = 0;             // max over grains of the distance moved / smallest half-extent
  std::vector<Vec3> wall_impulse; // impulse on each wall during the step (from the grains), N·s
  PhaseTimes times;               // wall time by phase (phase_times.h)
};

// Phase 1: gravity, then global damping (seed 000 eqs. 47–48), on every grain; the damping's
// loss goes to the books. Returns the grains' kinetic energy before and after gravity (with
// `share`, of every rank's grains).
struct KineticEnergies {
  double before, after_gravity;
};
KineticEnergies apply_external_forces(World& world, const StepSettings& settings, const RankShare* share = nullptr);

// Position corrections for a step: one per body, with its mass and inertia and no motion; a
// scheme gives them velocities that act in this step only (resting contact's push out).
std::vector<RigidBody> no_corrections(const World& world);

// Moves every body by its velocity plus its correction over dt (positions, then orientations).
void move_bodies(std::vector<RigidBody>& bodies, const std::vector<RigidBody>& corrections, double dt);

// Phases 3 and 4: the world's bodies move with their velocities and corrections; the walls
// to where they are at the step's end; the books take what gravity's kick and the corrections
// added; time and step advance.
void integrate_positions(World& world, const std::vector<RigidBody>& corrections, const StepSettings& settings,
                         const KineticEnergies& kinetic, StepReport& report, const RankShare* share = nullptr);

// One time step: the phases above, in order. With `share`, this rank's part of a step the
// ranks take together (docs/parallel.md): its world holds its own grains and its halo, every
// rank's books and report come out the same, and the grains are handed over again as they
// travel (RankShare::keep_up).
StepReport advance(World& world, const StepSettings& settings, RankShare* share = nullptr);

}  // namespace scree::solver
