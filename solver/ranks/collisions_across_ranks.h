#pragma once
// A sweep's collisions when ranks share the grains (docs/parallel.md, "The step across ranks",
// collisions): the colliding contacts' islands named by label propagation over the halo
// (island_labels.h), never by gathering the contact graph; each island resolved by the rank
// that owns its least id, from the contacts and posed bodies the ranks that found them send
// it, in the order one process takes them, or in place where that rank found all its
// contacts itself; the bodies' new velocities sent back, on to their owners, and from them to
// every rank that holds them.
#include <span>
#include <vector>

#include "solver/contacts/contact_finding.h"
#include "solver/impulse/collision_islands.h"
#include "solver/ranks/communicator.h"
#include "solver/ranks/share_grains.h"

namespace scree::solver {

// How fast this rank resolves collisions: the seconds an energy-tracking increment took it, the
// mean of its last sweep's and the pace before (0 until known); the islands every rank resolved
// so far, by size, and their increments (the same on every rank); and the islands it handed to
// other ranks in its last sweep. An island's time follows its increments (0.18 µs each), known
// only once it is resolved: they grow with its size and vary fivefold between islands of one
// size, following no rank from sweep to sweep, so a rank's load is the increments its islands'
// sizes take on the mean at its pace an increment (docs/parallel.md, "Collisions by pace").
// Not `timed` (ranks that share cores, whose time measures their turns on the cores rather than
// their speed: Ranks::share_cores), every rank's pace is taken alike: islands are handed by
// their expected increments alone, from the first sweep on.
struct CollisionPace {
  double seconds_an_increment = 0;
  IslandIncrements islands;
  std::size_t islands_handed = 0;
  bool timed = true;
};

// Every rank calls it with the colliding contacts it found (its part of the search,
// SearchShare, in the order found) on `posed` (its world's bodies where the sweep poses them,
// the halo's as their owners' bit for bit), `owned` and `halo` as share_grains() left them.
// Afterwards the colliding grains' velocities in `posed` are what one process resolving all
// the contacts gives, on every rank that holds them; returns every rank's totals, on every rank.
// With `pace` (every rank's, each its own), a rank expected to take longer than the mean over
// its islands' contacts, at its pace (alike where not timed), hands islands whose every contact it found to ranks expected to
// finish sooner, and this rank's pace is kept up; the bits are the same.
CollisionTotals resolve_collisions_across_ranks(const World& world, std::vector<RigidBody>& posed,
                                                std::span<const Contact> colliding, const std::vector<bool>& is_static,
                                                const std::vector<char>& owned, const Halo& halo, const Ranks& ranks,
                                                const EnergyTrackingSettings& settings, CollisionPace* pace = nullptr);

}  // namespace scree::solver
