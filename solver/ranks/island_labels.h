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

// An island's name: its least id, and the rank that owns that grain (which resolves the
// island: every rank that holds part of it can send the part there, neighbour or not).
struct IslandLabel {
  std::uint64_t id;
  std::int64_t owner;
  bool operator==(const IslandLabel&) const = default;
};

// Every rank calls it, with the ids of the grains it holds (`ids`, as its world's) and the
// pairs of them it knows to be joined (`links`, by index: the contacts it found); `halo` as
// share_grains() laid it out (which also says who owns the grains it holds of others).
// Returns, by held grain, its island's label, made of the least id of all the grains joined
// to it through any rank's links: the same label for the same island on every rank that
// holds one of its grains. Takes as many rounds of exchange as an island crosses regions, and
// one more to see that nothing changed.
std::vector<IslandLabel> island_labels(std::span<const std::uint64_t> ids,
                                       const std::vector<std::pair<std::uint32_t, std::uint32_t>>& links, const Halo& halo,
                                       const Ranks& ranks);

}  // namespace scree::solver
