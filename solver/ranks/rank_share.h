#pragma once
// A world's place among the ranks that share a run (docs/parallel.md, "The step across ranks"):
// the regions, which of the world's grains this rank owns, and the halo it shares with its
// neighbours; the grains handed over again as they travel. A step given one (step.h) shares
// its work among the ranks, each rank's world holding its own grains and its halo, and ends
// with the bits one process's step gives.
#include <vector>

#include "solver/contacts/contact_finding.h"
#include "solver/exact_sum.h"
#include "solver/ranks/collisions_across_ranks.h"
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
  // Regions cut anew by bisection (grains weighed by bisection_weights()) when a rank owns
  // more than `recut_above` times the share of the weight its region was cut for, as an
  // avalanche's mass travels and its contacts form; 0: never (a grid the case asked for).
  double recut_above = 0;
  int recuts = 0;  // so far
  int steps = 0;   // kept up after so far
  // Whether the ranks' shares follow their paces (each rank on cores of its own, not
  // Ranks::share_cores): a region's share of the weight in proportion to its rank's speed,
  // `search_pace` by rank (the same on every rank: the seconds of contact search a unit of
  // weight took it, the mean of the last step's and the pace before; 0 until known; a run's
  // first step is not counted: its search builds every cache from nothing), as
  // LAMMPS weighs particles by time, and a big island's strips by StripPace. The first paces
  // known cut the regions at once; later ones only when the grains are handed over anyway:
  // re-cut at every change of the paces, a hand-over nearly every step stood at the ranks'
  // peaks of memory (docs/parallel.md, "Shares by pace"; docs/benchmarks.md, "Regions by pace
  // at the hand-overs").
  bool paced = false;
  std::vector<double> search_pace;
  std::vector<std::int64_t> cut_shares;  // by rank: the shares the regions were last cut for (empty: even)
  bool cut_by_paces = false;             // whether the regions have been cut for known paces yet
  StripPace strip_pace;  // how fast this rank solves its strips of big islands (resting_across_ranks.h)
  // How fast this rank resolves collisions (collisions_across_ranks.h); `timed` as `paced`, the
  // islands handed by their expected increments alone where not.
  CollisionPace collision_pace;

  // Every rank calls it: each rank's world (any grains, `owned` saying which it hands on, each
  // grain owned by one rank) becomes its region's grains and halo.
  void hand_over(World& world);
  // After a step whose contact search took this rank `search_seconds` of work: hands the
  // grains over again when one has moved half the skin since the last hand-over, or when a
  // rank's region holds too much more than its share of the weight (`recut_above`), cutting
  // the regions anew then, and at a hand-over where the ranks' paces have changed their
  // shares; and at once for the first paces known. Returns whether it handed over.
  bool keep_up(World& world, double search_seconds = 0);
  // By rank, its share of the weight: in proportion to its speed (1 / search_pace, the fastest
  // 2^20) where `paced` and every pace is known, else even.
  std::vector<std::int64_t> search_shares() const;
  // Whether every rank's search pace is known (and the shares follow them).
  bool paces_known() const;

  // The sum of every rank's `partial` (its owned grains' terms), the same bits as one sum of
  // all the terms.
  double total(ExactSum partial) const;
  // This rank's part of a contact search (contact_finding.h).
  SearchShare search() const { return {regions, ranks.rank(), owned}; }
};

// What each grain of `world` weighs for the bisection (`owned`: those it holds; null: all):
// two for the grain, and one for each contact it is body A of in the resting store (the
// bodies and walls it rested on last step), the work a grain brings to the search and the
// solve (docs/parallel.md, "Decomposition").
std::vector<std::int64_t> bisection_weights(const World& world, const std::vector<char>* owned = nullptr);

}  // namespace scree::solver
