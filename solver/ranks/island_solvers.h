#pragma once
// Which rank solves each resting island of a sweep (docs/parallel.md, "Islands by their
// work"): a big one (shared_island_points or more) every rank together, each its strips
// (tile_share.h); a smaller one a rank alone, the one that owns its least id, unless that rank
// would solve more than its share of the islands' expected work: then some of its islands go to
// the ranks that would solve the least. In a flow whose grains rest in islands of tens to
// hundreds of points, owners alone put 1.7 times the mean work on the busiest of 16 ranks at a
// sweep, and every rank waited for it (docs/benchmarks.md, "Small islands by their work").
// Which rank solves an island changes no bit of its solve.
#include <cstdint>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "solver/impulse/resting_contact.h"
#include "solver/ranks/communicator.h"
#include "solver/ranks/island_labels.h"

namespace scree::solver {

// The work an island of `points` support points is expected to take, in point-passes: its
// points times the passes a point of such an island took on the dc7 dense flow (9 in islands
// under 8 points, 22 under 32, 28–32 above). Whole numbers, so that every rank balances alike
// to the bit.
std::uint64_t expected_island_work(std::uint64_t points);

// An island that may be handed on: its label, its expected work, the rank that would solve it.
struct MovableIsland {
  std::uint64_t label, work;
  int rank;
};

// By rank, `load`: the expected work of the islands it would solve (the movable ones among
// them). Each rank's movable islands, the largest first (ties by label), go to the rank that
// holds the least work then (ties: the lower rank) while the giver holds more than half the
// island over the mean and the taker would hold less than half of it over the mean. Returns
// (label, rank) for each island handed on, in that order; the same on every rank given the same
// loads and islands in any order.
std::vector<std::pair<std::uint64_t, int>> balance_islands(std::vector<std::uint64_t> load, std::vector<MovableIsland> islands);

// An island smaller than this stays with its owner: most islands of a flow are a rock or two
// on the ground (6000 a sweep of the dc7 dense flow, 240 of them of 16 points or more), and
// listing them all to every rank would cost more than their work.
constexpr std::uint64_t movable_island_points = 16;

struct IslandSolvers {
  std::set<std::uint64_t> big;                   // by label id
  std::unordered_map<std::uint64_t, int> moved;  // by label id: a smaller island's solver, where not its owner
  int of(const IslandLabel& label) const {
    const auto at = moved.find(label.id);
    return at == moved.end() ? int(label.owner) : at->second;
  }
};

// Every rank calls it with the resting contacts it built and the islands' labels of the grains
// it holds: each rank counts its faces' points by island, each island's owner adds them up, and
// the owners tell every rank their big and movable islands and the expected work of the rest
// (in one gather); every rank then balances alike (balance_islands). The same on every rank.
IslandSolvers island_solvers(const RestingContacts& resting, const std::vector<IslandLabel>& labels, const Ranks& ranks);

}  // namespace scree::solver
