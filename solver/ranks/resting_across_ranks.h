#pragma once
// A sweep's resting contact when ranks share the grains (docs/parallel.md, "The step across
// ranks", resting contact): the resting faces' islands named by label propagation over the
// halo (island_labels.h), each island solved by the rank that owns its least id or the rank
// it is handed to (island_solvers.h; a big one by every rank, each its strips of the island's
// tiles: tile_share.h), from the faces, points and
// bodies the ranks that found them send it and the last impulses (the warm start) their
// grains' owners send it, by the same rest() as one process and in its order;
// then the bodies' velocities and corrections sent back, on to their owners and the halo, and
// each point's impulse to the owner of its grain A, whose store keeps it.
#include <vector>

#include "solver/impulse/resting_contact.h"
#include "solver/ranks/communicator.h"
#include "solver/ranks/share_grains.h"

namespace scree::solver {

// How fast this rank has lately solved its strips of big islands (tile_share.h): the seconds
// its strips' passes took (their work, less the calls that meet other ranks) a unit of its
// strips' work, the mean of the last sweep's and the pace before; 0 until known. Kept from
// sweep to sweep (RankShare), it is gathered with the tiles' work and the next sweep's strips
// are cut in proportion to every rank's speed: the ranks of a machine that slows one of them
// for a second get strips that take them alike (docs/parallel.md, "A big island across
// ranks"). The smaller islands a rank solves after the strips are no part of it: counted in,
// they made a rank that solves many of them look slow and its strips thin (shares 0.5–1.6 of
// the mean on sixteen ranks of the dc7 dense flow, replayed; docs/benchmarks.md, "Strips paced
// by the strips alone").
struct StripPace {
  double seconds_per_work = 0;
  double last_seconds = 0;  // what the last sweep's strips' passes took
};

// Every rank calls it with the resting contacts it built of its part of the search (faces in
// the order found, each with its points, not in solve order), which it lets go once they are
// parts for the islands' solvers, before the solve's peak of memory; `impulses` its store (whose
// entries of grains it owns are the ones that count), `bodies` on its world's posed bodies and
// corrections (the halo's as their owners' bit for bit; it lets their inverse inertias go once
// the parts are made, as the islands' solvers make their own), `owned` and `halo` as
// share_grains() left them. Afterwards every held grain's velocities and corrections, and the owned grains'
// impulses, are what one process's rest() over all the faces gives; returns every rank's
// totals, on every rank. With `pace`, the strips are cut by the ranks' paces and this rank's
// is kept up; without, evenly by their work.
RestingTotals rest_across_ranks(const World& world, const std::vector<bool>& is_static, RestingImpulses& impulses,
                                RestingContacts&& resting, RestingBodies& bodies, const std::vector<char>& owned,
                                const Halo& halo, const Ranks& ranks, RestingSettings settings, PhaseTimes& times,
                                StripPace* pace = nullptr);

}  // namespace scree::solver
