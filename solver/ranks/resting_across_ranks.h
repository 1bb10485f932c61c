#pragma once
// A sweep's resting contact when ranks share the grains (docs/parallel.md, "The step across
// ranks", resting contact): the resting faces' islands named by label propagation over the
// halo (island_labels.h), each island solved by the rank that owns its least id (a big one by
// every rank, each its strips of the island's tiles: tile_share.h), from the faces, points and
// bodies the ranks that found them send it and the last impulses (the warm start) their
// grains' owners send it, by the same rest() as one process and in its order;
// then the bodies' velocities and corrections sent back, on to their owners and the halo, and
// each point's impulse to the owner of its grain A, whose store keeps it.
#include <vector>

#include "solver/impulse/resting_contact.h"
#include "solver/ranks/communicator.h"
#include "solver/ranks/share_grains.h"

namespace scree::solver {

// Every rank calls it with the resting contacts it built of its part of the search (faces in
// the order found, each with its points, not in solve order), which it lets go once they are
// parts for the islands' solvers, before the solve's peak of memory; `impulses` its store (whose
// entries of grains it owns are the ones that count), `bodies` on its world's posed bodies and
// corrections (the halo's as their owners' bit for bit; it lets their inverse inertias go once
// the parts are made, as the islands' solvers make their own), `owned` and `halo` as
// share_grains() left them. Afterwards every held grain's velocities and corrections, and the owned grains'
// impulses, are what one process's rest() over all the faces gives; returns every rank's
// totals, on every rank.
RestingTotals rest_across_ranks(const World& world, const std::vector<bool>& is_static, RestingImpulses& impulses,
                                RestingContacts&& resting, RestingBodies& bodies, const std::vector<char>& owned,
                                const Halo& halo, const Ranks& ranks, RestingSettings settings, PhaseTimes& times);

}  // namespace scree::solver
