#pragma once
// Grains handed to the ranks that are to hold them (docs/parallel.md, "The step across
// ranks"): each grain to its owner, the rank whose region holds its centroid, and to the
// ranks whose regions come within the halo of it, with the resting impulses of the support
// points it is body A of (so that a grain that changes hands is warm started as before);
// between hand-overs, the halo's state refreshed from the owners.
#include <cstdint>
#include <vector>

#include "solver/ranks/communicator.h"
#include "solver/ranks/decomposition.h"
#include "solver/world.h"

namespace scree::solver {

// Which grains a rank sends to and takes from each rank it shares grains with, as
// share_grains() laid them out: its own grains that lie in the other's halo, and the other's
// that lie in its own, both by index in id order (each side lists the same grains).
struct Halo {
  std::vector<int> partners;                     // ascending
  std::vector<std::vector<std::uint32_t>> send;  // by partner: own grains it holds too
  std::vector<std::vector<std::uint32_t>> take;  // by partner: its grains held here
};

// Every rank calls it, with `owned` saying which of its world's grains it owns now (the rest
// is its halo, which their owners send again): afterwards its world holds the grains it owns
// and those within `halo` of its region, in id order (World::replace_grains), and `owned`
// says which are its own. What a grain is sent with: its state, and the resting impulses of
// its owner's world where it is A whose B is a grain the receiver holds, or a wall or the
// terrain. Ranks exchange with those whose regions lie within `halo` of theirs (a step moves
// a grain far less than that), or, when a grain on any rank must go further (the first
// share, regions cut anew), every rank with every other. Returns the halo laid out.
Halo share_grains(World& world, std::vector<char>& owned, const Decomposition& regions, double halo, const Ranks& ranks);

// Each rank's own grains' state in `bodies` (by body, as the world's) sent to the ranks that
// hold them, and the halo's written from what their owners sent: where a sweep poses the
// bodies, their velocities and their corrections (docs/parallel.md, "The step across ranks").
void refresh_halo(std::vector<RigidBody>& bodies, const Halo& halo, const Ranks& ranks);

}  // namespace scree::solver
