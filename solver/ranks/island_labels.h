#pragma once
// Islands across ranks (docs/parallel.md, "The step across ranks", collisions): each grain's
// island named by the least id joined to it, found by label propagation over the halo —
// each rank joins what it knows, then tells the ranks it shares grains with the labels of
// those grains, until no label falls anywhere — never by gathering the contact graph on one
// rank (seed 000's rank-0 gather, why its code stops scaling at 8 ranks).
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "solver/ranks/communicator.h"
#include "solver/ranks/share_grains.h"

namespace scree::solver {

// Every rank calls it, with the ids of the grains it holds (`ids`, as its world's) and the
// pairs of them it knows to be joined (`links`, by index: the contacts it found); `halo` as
// share_grains() laid it out. Returns, by held grain, the least id of all the grains joined
// to it through any rank's links: the same label for the same island on every rank that
// holds one of its grains. Takes as many rounds of exchange as an island crosses regions, and
// one more to see that nothing changed.
std::vector<std::uint64_t> island_labels(std::span<const std::uint64_t> ids,
                                         const std::vector<std::pair<std::uint32_t, std::uint32_t>>& links,
                                         const Halo& halo, const Ranks& ranks);

}  // namespace scree::solver
