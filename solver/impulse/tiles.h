#pragma once
// A big resting island cut into tiles (docs/theory.md, "The resting solve"): the units (the
// points of one pair of bodies) go to cells of a grid across x and y, whose cells are no
// narrower than any two touching grains' centroids lie apart. Cells of one parity in both
// directions (a phase) move disjoint grains, so the threads share a phase's tiles without a
// meeting between them: four meetings a pass, where a pass shared colour by colour met ~26
// times (docs/benchmarks.md, "The eighteenth pass"). The cut depends on the bodies' places
// alone, never on the number of threads.
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "solver/rigid_body.h"

namespace scree::solver {

// Each unit's tile, tiles numbered phase by phase: phase f holds tiles
// first(f) .. first(f) + per_phase[f].
struct Tiling {
  static constexpr int phases = 4;
  std::vector<std::uint32_t> tile;  // by unit
  std::array<std::uint32_t, phases> per_phase{};
  std::uint32_t first(int phase) const;
  std::uint32_t count() const { return first(phases); }
};

// The tiles of units between bodies A (a grain) and B (`unit_bodies`), at the bodies' places
// `posed` (`is_static` by body: a static B has no place and joins A's cell). A unit goes to
// the cell of its grains' lower column and lower row, so its grains lie in that cell and the
// three after it in x and y; two cells of one phase lie two or more apart in x or y and so
// share no grain.
Tiling tile_units(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& unit_bodies, const std::vector<bool>& is_static,
                  const std::vector<RigidBody>& posed);

}  // namespace scree::solver
