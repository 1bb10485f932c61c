#pragma once
// A big resting island cut into tiles (docs/theory.md, "The resting solve"): the units (the
// points of one pair of bodies) go to the cells of a grid across x and y, the same for every
// island of a step, whose cells are wider than any two grains that can touch lie apart. Cells
// of one parity in both directions (a phase) move disjoint grains, so the threads share a
// phase's tiles without a meeting between them: four meetings a pass, where a pass shared
// colour by colour met ~26 times (docs/benchmarks.md, "The eighteenth pass"). A unit's cell
// depends on its own bodies' places alone, never on the other units or the number of threads,
// so a rank holding some of an island's units cuts them as one holding all (docs/parallel.md).
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "solver/rigid_body.h"

namespace scree::solver {

// Each unit's tile, tiles numbered phase by phase: phase f holds tiles
// first(f) .. first(f) + per_phase[f], within a phase by their cells' columns, then rows.
struct Tiling {
  static constexpr int phases = 4;
  std::vector<std::uint32_t> tile;  // by unit
  std::array<std::uint32_t, phases> per_phase{};
  std::vector<std::array<std::int64_t, 2>> cell;  // by tile: its column and row
  std::uint32_t first(int phase) const;
  std::uint32_t count() const { return first(phases); }
};

// The farthest two grains' centroids can lie apart when they touch: the sum of the two
// largest bounding radii (`largest_radius` twice) and the contact search's `margin`.
double largest_reach(double largest_radius, double margin);

// How far apart in x or y the centroids of the farthest touching grains of units between
// bodies A (a grain) and B (`unit_bodies`) lie at the places `posed`; 0 where no two grains
// touch. A maximum, so that ranks holding some of the units each measure theirs and take the
// largest (docs/parallel.md).
double farthest_touching(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& unit_bodies,
                         const std::vector<bool>& is_static, const std::vector<RigidBody>& posed);

// The width of the tiles' cells: wider than the farthest touching grains' centroids lie apart
// in x or y (`farthest`), by far more than round-off, so that two grains that far apart never
// land two cells apart; `largest_reach` where no two grains touch. As wide as that and no
// wider: on the 1000- and 4000-grain heaps, cells as wide as `largest_reach` made the passes
// 7–13 % slower (docs/benchmarks.md, "Issue 28: the first pass").
double tile_width(double farthest, double largest_reach);

// The cell of the unit between bodies A (a grain) and B on the grid of cells `width` wide: its
// grains' lower column and lower row (a static B, which has no place, leaves A's), and the
// phase of a cell (the parities of its column and row).
std::array<std::int64_t, 2> unit_cell(std::uint32_t a, std::uint32_t b, const std::vector<bool>& is_static,
                                      const std::vector<RigidBody>& posed, double width);
int phase_of(const std::array<std::int64_t, 2>& cell);

// The tiles of units between bodies A (a grain) and B (`unit_bodies`), at the bodies' places
// `posed` (`is_static` by body: a static B has no place and joins A's cell), on the grid of
// cells `width` wide from the origin. A unit goes to the cell of its grains' lower column and
// lower row, so its grains lie in that cell and the three after it in x and y; two cells of
// one phase lie two or more apart in x or y and so share no grain.
Tiling tile_units(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& unit_bodies, const std::vector<bool>& is_static,
                  const std::vector<RigidBody>& posed, double width);

}  // namespace scree::solver
