#pragma once
// A big resting island's tiles shared by ranks (docs/parallel.md, "A big island across
// ranks"): each rank solves a strip of every phase's tiles (the tiles of a phase share no
// grain, tiles.h) and holds only those tiles' units and grains; after a phase it sends the
// bodies its tiles touched to the other ranks whose tiles touch them too, solving the tiles of
// the next phase that need none of them while they travel. So every unit reads the velocities
// one process would give it, on any number of ranks, and the passes cost each rank its strip
// rather than the island.
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "solver/impulse/coarse_step.h"
#include "solver/ranks/communicator.h"
#include "solver/rigid_body.h"

namespace scree::solver {

// Where a phase's tiles, in order, are cut into one strip a rank, given each tile's work
// and each rank's share of it (`shares`, in any units, all positive): rank r's strip is tiles
// cut[r] .. cut[r + 1] (of `tile_work`), cut at the tile's edge nearest to where the shares of
// the ranks before r end (a tile goes to the strip that holds its middle; giving the earlier
// strip every tile the mark falls in left rank 0 the most work): strips across x (tiles lie by
// column), so that a rank's tiles are neighbours.
std::vector<std::uint32_t> cut_strips(std::span<const std::uint64_t> tile_work, std::span<const double> shares);
// Even shares among `ranks`.
std::vector<std::uint32_t> cut_strips(std::span<const std::uint64_t> tile_work, int ranks);

// By body: the other ranks whose tiles move it, each with the phases it does so in (bit f:
// phase f), ascending by rank: body b's are list[start[b] .. start[b + 1]).
struct BodySharers {
  struct Sharer {
    std::int32_t rank;
    std::uint32_t phases;
  };
  std::vector<std::uint32_t> start;
  std::vector<Sharer> list;
};

class TileShare {
 public:
  // This rank's strips of an island's phases: tiles phase_start[f] .. phase_start[f + 1] of
  // phase f (the same count of phases on every rank), units tile_start[t] .. tile_start[t + 1]
  // tile t, whose bodies are unit_bodies[u] (A a grain; B a grain or a static body, `is_static`
  // by body; bodies numbered in the order of their ids on every rank), and the other ranks
  // that move the same bodies (`sharers`).
  TileShare(const Ranks& ranks, std::span<const std::uint32_t> phase_start, std::span<const std::uint32_t> tile_start,
            const std::vector<std::pair<std::uint32_t, std::uint32_t>>& unit_bodies, const std::vector<bool>& is_static,
            const BodySharers& sharers);

  const Ranks& ranks() const { return ranks_; }
  // This rank's tiles of phase f, tiles(f) of them: tile(f, k), k < tiles(f), in another
  // order: those that read no body the other ranks' tiles of phase f − 1 move come first
  // (k < ready(f); all of phase 0's), so that they go on while the bodies of f − 1 travel
  // (start_phase()).
  std::uint32_t tiles(std::size_t phase) const { return std::uint32_t(order_[phase].size()); }
  std::uint32_t ready(std::size_t phase) const { return ready_[phase]; }
  std::uint32_t tile(std::size_t phase, std::uint32_t k) const { return order_[phase][k]; }
  // Whether this rank is the least whose tiles move `body` (it reports the body).
  bool keeps(std::uint32_t body) const { return keeps_[body] != 0; }

  // After phase f, on every rank: starts sending what this rank's tiles of f may have changed
  // of their bodies (velocities in `bodies`, the pass that moved them in `moved`) to the ranks
  // that hold them, and receiving the same from the others, which finish_phase() takes in:
  // before this rank's first tile of phase f + 1 that reads them (tile(f + 1, ready(f + 1))),
  // and before anything else reads the bodies after the last phase. With `impulses`, the
  // coarse step's group impulses of the grains that have them (`place` by body,
  // CoarseLayers::none for none; slots a grain) travel too, as they add up unit by unit in
  // schedule order. One phase's bodies under way at a time.
  void start_phase(std::size_t phase, const std::vector<RigidBody>& bodies, const std::vector<int>& moved,
                   std::vector<GroupImpulse>* impulses = nullptr, const std::vector<std::uint32_t>* place = nullptr) const;
  void finish_phase(std::vector<RigidBody>& bodies, std::vector<int>& moved) const;
  bool under_way() const { return under_way_.exchange.under_way(); }
  // Whether start_phase(f) starts an exchange: this rank shares a body of phase f's tiles.
  bool exchanges_after(std::size_t phase) const { return !routes_[phase].partners.empty(); }

 private:
  struct Route {
    std::vector<int> partners;                     // ascending
    std::vector<std::vector<std::uint32_t>> send;  // by partner, the order both sides list
    std::vector<std::vector<std::uint32_t>> take;
  };
  // A phase's bodies travelling, and what comes with them.
  struct UnderWay {
    Ranks::Exchange exchange;
    std::size_t phase = 0;
    std::vector<GroupImpulse>* impulses = nullptr;
    const std::vector<std::uint32_t>* place = nullptr;
  };
  const Ranks& ranks_;
  std::vector<std::vector<std::uint32_t>> order_;  // by phase: this rank's tiles, the ready first
  std::vector<std::uint32_t> ready_;               // by phase
  std::vector<char> keeps_;                        // by body
  std::vector<Route> routes_;         // by phase
  mutable UnderWay under_way_;        // the exchange of the phase last started, until finished
};

}  // namespace scree::solver
