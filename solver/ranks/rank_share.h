#pragma once
// A world's place among the ranks that share a run (docs/parallel.md, "The step across ranks"):
// the regions, which of the world's grains this rank owns, and the halo it shares with its
// neighbours; the grains handed over again as they travel. A step given one (step.h) shares
// its work among the ranks, each rank's world holding its own grains and its halo, and ends
// with the bits one process's step gives.
#include <vector>

#include "solver/contacts/contact_finding.h"
#include "solver/exact_sum.h"
#include "solver/ranks/communicator.h"
#include "solver/ranks/decomposition.h"
#include "solver/ranks/resting_across_ranks.h"
#include "solver/ranks/share_grains.h"
#include "solver/world.h"

namespace scree::solver {

struct RankShare {
  Ranks ranks;
  Decomposition regions;
  // How far two grains' centroids can lie apart when they touch (tiles.h, largest_reach()),
  // and how far a grain may move between hand-overs before it goes again (twice what a grain
  // may move, as two may move towards each other): the halo is reach + skin deep, so that the
  // rank that searches a pair (SearchShare) holds both grains, and the owner of a grain holds
  // every grain it touches.
  double reach = 0, skin = 0;
  std::vector<char> owned;  // by grain of the world
  Halo halo;
  std::vector<Vec3> handed_at;  // by grain: its centroid at the last hand-over
  int hand_overs = 0;           // so far
  // Regions cut anew by bisection (grains weighed by bisection_weights()) when the rank owning
  // the most weight owns more than `recut_above` times the mean, as an avalanche's mass
  // travels and its contacts form; 0: never (a grid the case asked for).
  double recut_above = 0;
  int recuts = 0;  // so far
  StripPace strip_pace;  // how fast this rank solves its strips of big islands (resting_across_ranks.h)

  // Every rank calls it: each rank's world (any grains, `owned` saying which it hands on, each
  // grain owned by one rank) becomes its region's grains and halo.
  void hand_over(World& world);
  // After a step: cuts the regions anew when they hold too uneven shares of the grains
  // (`recut_above`), and hands the grains over again then or when one has moved half the skin
  // since the last hand-over. Returns whether it did.
  bool keep_up(World& world);

  // The sum of every rank's `partial` (its owned grains' terms), the same bits as one sum of
  // all the terms.
  double total(ExactSum partial) const;
  // This rank's part of a contact search (contact_finding.h).
  SearchShare search() const { return {regions, ranks.rank(), owned}; }
};

// What each grain of `world` weighs for the bisection (`owned`: those it holds; null: all):
// one for the grain, and one for each contact it is body A of in the resting store (the
// bodies and walls it rested on last step), the work a grain brings to the search and the
// solve (docs/parallel.md, "Decomposition").
std::vector<std::int64_t> bisection_weights(const World& world, const std::vector<char>* owned = nullptr);

}  // namespace scree::solver
