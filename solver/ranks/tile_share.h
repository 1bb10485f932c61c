#pragma once
// A big resting island's tiles shared by ranks (docs/parallel.md, "A big island across
// ranks"): every rank holds the island whole and builds the same schedule; each solves a strip
// of every phase's tiles (the tiles of a phase share no grain, tiles.h) and, after the phase,
// sends the bodies its tiles touched to the ranks whose tiles touch them too, solving the tiles
// of the next phase that need none of them while they travel. So every unit
// reads the velocities one process would give it, on any number of ranks, and the passes
// cost each rank its strip rather than the island.
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "solver/impulse/coarse_step.h"
#include "solver/ranks/communicator.h"
#include "solver/rigid_body.h"

namespace scree::solver {

// Where a phase's tiles, in order, are cut into one strip a rank (`ranks` of them), given
// each tile's points: rank r's strip is tiles cut[r] .. cut[r + 1] (of `tile_points`), cut
// where the points before it pass r / ranks of the phase's. The same cut whoever asks: the
// strips TileShare solves, and where ranks send the points of a tile.
std::vector<std::uint32_t> cut_strips(std::span<const std::uint64_t> tile_points, int ranks);

class TileShare {
 public:
  // An island's schedule: tiles phase_start[f] .. phase_start[f + 1] make phase f, units
  // tile_start[t] .. tile_start[t + 1] tile t, points unit_start[u] .. unit_start[u + 1] unit u,
  // whose bodies are unit_bodies[u] (A a grain; B a grain or a static body, `is_static` by
  // body). Each phase's tiles are cut into one run a rank, in order, of about equal points.
  TileShare(const Ranks& ranks, std::span<const std::uint32_t> phase_start, std::span<const std::uint32_t> tile_start,
            std::span<const std::uint32_t> unit_start,
            const std::vector<std::pair<std::uint32_t, std::uint32_t>>& unit_bodies, const std::vector<bool>& is_static);

  const Ranks& ranks() const { return ranks_; }
  // This rank's tiles of phase f, tiles(f) of them: tile(f, k), k < tiles(f), one run of the
  // phase's tiles in another order: those that read no body the other ranks' tiles of phase
  // f − 1 move come first (k < ready(f); all of phase 0's), so that they go on while the
  // bodies of f − 1 travel (start_phase()).
  std::uint32_t tiles(std::size_t phase) const { return std::uint32_t(order_[phase].size()); }
  std::uint32_t ready(std::size_t phase) const { return ready_[phase]; }
  std::uint32_t tile(std::size_t phase, std::uint32_t k) const { return order_[phase][k]; }
  bool solves(std::uint32_t tile) const;
  // Whether a unit of this rank's tiles moves `body` (this rank then holds its velocities as
  // one process would), and whether this rank is the least such (it reports the body).
  bool holds(std::uint32_t body) const;
  bool keeps(std::uint32_t body) const;

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
  std::size_t words_;                 // of a body's mask of ranks
  std::vector<std::uint64_t> needs_;  // by body: the ranks whose tiles move it
  std::vector<std::vector<std::uint32_t>> order_;  // by phase: this rank's tiles, the ready first
  std::vector<std::uint32_t> ready_;               // by phase
  std::vector<char> solves_;          // by tile
  std::vector<Route> routes_;         // by phase
  mutable UnderWay under_way_;        // the exchange of the phase last started, until finished
};

}  // namespace scree::solver
