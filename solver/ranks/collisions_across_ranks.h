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

// Every rank calls it with the colliding contacts it found (its part of the search,
// SearchShare, in the order found) on `posed` (its world's bodies where the sweep poses them,
// the halo's as their owners' bit for bit), `owned` and `halo` as share_grains() left them.
// Afterwards the colliding grains' velocities in `posed` are what one process resolving all
// the contacts gives, on every rank that holds them; returns every rank's totals, on every rank.
CollisionTotals resolve_collisions_across_ranks(const World& world, std::vector<RigidBody>& posed,
                                                std::span<const Contact> colliding, const std::vector<bool>& is_static,
                                                const std::vector<char>& owned, const Halo& halo, const Ranks& ranks,
                                                const EnergyTrackingSettings& settings);

}  // namespace scree::solver
