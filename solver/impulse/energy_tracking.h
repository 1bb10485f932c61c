#pragma once
// Collision resolution by the energy tracking method (seed 003), as seed 000 modifies it, for
// the contacts of one island. Each round: compression raises the most negative normal
// velocities (by mass-weighted normal velocity, seed 000 §4.3; contacts within β of the
// extreme act together) in increments of 1/α of the contact's approach speed, storing the
// work of the normal impulses; restitution keeps e² of the stored energy (Stronge); release
// gives the rest back, largest store first, along fixed directions so that it is exact.
// Rounds repeat while a contact approaches; after `max_rounds` restitution is set to zero.
// Energies are booked from the velocities actually reached, ½ (u_before + u_after)·P, so the
// books close to round-off whatever order the increments of a group take.
#include <cstdint>
#include <span>
#include <vector>

#include "solver/rigid_body.h"

namespace scree::solver {

struct EnergyTrackingSettings {
  int increments = 50;            // α
  double group_tolerance = 0.03;  // β
  int max_rounds = 300;
};

struct Collision {
  std::uint32_t a, b;  // indices into the bodies; either may be static, not both
  Vec3 point;          // world
  Vec3 normal;         // unit, from B towards A
  double friction;     // μ
  double restitution;  // Stronge's energetic coefficient e
};

// Stored energy at the end of one round's compression and after its restitution.
struct RoundEnergy {
  double compressed, restituted;
};

struct CollisionBooks {
  double stored_peak = 0;        // largest total stored energy at the end of a compression, J
  double restitution_loss = 0;   // (1 − e²) of the stored energy, J
  double friction_loss = 0;      // minus the work of the tangential impulses, J
  int rounds = 0;
  std::int64_t increments = 0;   // impulses applied
  bool restitution_dropped = false;  // max_rounds reached: finished with e = 0
  std::vector<RoundEnergy> phases;  // one per round
  std::vector<Vec3> impulses;    // total impulse on A per collision, N·s
};

// Resolves the collisions together, changing the velocities of their bodies.
CollisionBooks resolve_collisions(std::vector<RigidBody>& bodies, std::span<const Collision> collisions,
                                  const EnergyTrackingSettings& settings);

}  // namespace scree::solver
