// A big resting island cut into tiles (solver/impulse/tiles.h): the tiles of one phase move
// disjoint grains, whatever the places.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "solver/impulse/tiles.h"

namespace scree::solver {
namespace {

using Units = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

// The number of tiles of each phase that hold units, after checking that every unit's tile is
// among its phase's and that no grain is moved by two tiles of one phase.
std::array<std::size_t, Tiling::phases> check_phases_share_no_grain(const Tiling& t, const Units& units,
                                                                    const std::vector<bool>& is_static) {
  EXPECT_EQ(t.tile.size(), units.size());
  std::array<std::map<std::uint32_t, std::uint32_t>, Tiling::phases> tile_of;  // by phase: grain → tile
  std::array<std::set<std::uint32_t>, Tiling::phases> used;
  for (std::size_t u = 0; u < units.size(); ++u) {
    const std::uint32_t tile = t.tile[u];
    int phase = 0;
    while (phase + 1 < Tiling::phases && tile >= t.first(phase + 1)) ++phase;
    EXPECT_LT(tile, t.count());
    used[std::size_t(phase)].insert(tile);
    for (std::uint32_t body : {units[u].first, units[u].second}) {
      if (is_static[body]) continue;
      const auto [at, fresh] = tile_of[std::size_t(phase)].emplace(body, tile);
      EXPECT_EQ(at->second, tile) << "grain " << body << " in two tiles of phase " << phase;
    }
  }
  return {used[0].size(), used[1].size(), used[2].size(), used[3].size()};
}

// Grains of radius `radius` at random places in a box, each touching pair a unit (A the one of
// a random side) and the grains near the floor (z < radius) a unit with the floor, body N.
struct Heap {
  std::vector<RigidBody> bodies;
  std::vector<bool> is_static;
  Units units;
};
Heap random_heap(std::uint32_t grains, const Vec3& box, double radius, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> unit_interval(0, 1);
  Heap h;
  h.bodies.resize(grains + 1);
  for (std::uint32_t g = 0; g < grains; ++g)
    h.bodies[g].position = Vec3(unit_interval(random), unit_interval(random), unit_interval(random)).cwiseProduct(box);
  h.is_static.assign(grains + 1, false);
  h.is_static[grains] = true;
  for (std::uint32_t g = 0; g < grains; ++g) {
    if (h.bodies[g].position.z() < radius) h.units.push_back({g, grains});
    for (std::uint32_t k = g + 1; k < grains; ++k)
      if ((h.bodies[g].position - h.bodies[k].position).norm() < 2 * radius)
        h.units.push_back(unit_interval(random) < 0.5 ? std::pair{g, k} : std::pair{k, g});
  }
  return h;
}

TEST(Tiles, TheTilesOfAPhaseShareNoGrain) {
  for (unsigned seed = 1; seed <= 3; ++seed) {
    const Heap h = random_heap(3000, Vec3(40, 30, 8), 1.0, seed);
    const Tiling t = tile_units(h.units, h.is_static, h.bodies);
    const auto used = check_phases_share_no_grain(t, h.units, h.is_static);
    // Cells two radii wide: about 20 × 15 of them, ~75 tiles a phase, nearly all with units.
    for (std::size_t count : used) EXPECT_GT(count, 50u);
  }
}

// The farthest pair sets the cells' width, and a B beyond all the A's still lands in a cell
// of the grid.
TEST(Tiles, AWideContactWidensTheCells) {
  Heap h = random_heap(800, Vec3(30, 30, 4), 1.0, 7);
  h.bodies.back().position = Vec3(1000, 1000, 0);  // the static floor's place counts for nothing
  // Two more grains 5 apart in x and y, beyond the others.
  const std::uint32_t far_a = std::uint32_t(h.bodies.size()), far_b = far_a + 1;
  h.bodies.resize(h.bodies.size() + 2);
  h.bodies[far_a].position = Vec3(32, 32, 1);
  h.bodies[far_b].position = Vec3(37, 37, 1);
  h.is_static.resize(h.bodies.size(), false);
  h.units.push_back({far_a, far_b});
  const Tiling t = tile_units(h.units, h.is_static, h.bodies);
  check_phases_share_no_grain(t, h.units, h.is_static);
  // ~37 wide over a reach of 5: 7 cells a side, 16 tiles in phase 0.
  EXPECT_EQ(t.per_phase[0], 16u);
  EXPECT_EQ(t.count(), 49u);
}

// A row of grains along x (no extent across y) and grains on the floor alone (no reach).
TEST(Tiles, ARowAndALayerOnTheFloorAreCut) {
  Heap row;
  const std::uint32_t grains = 200;
  row.bodies.resize(grains);
  row.is_static.assign(grains, false);
  for (std::uint32_t g = 0; g < grains; ++g) row.bodies[g].position = Vec3(1.9 * g, 0, 1);
  for (std::uint32_t g = 1; g < grains; ++g) row.units.push_back({g, g - 1});
  const Tiling along = tile_units(row.units, row.is_static, row.bodies);
  const auto row_used = check_phases_share_no_grain(along, row.units, row.is_static);
  EXPECT_EQ(row_used[0] + row_used[2], std::size_t(along.count()));  // one row of cells
  EXPECT_GT(along.count(), 60u);

  Heap layer;  // 20 × 25 grains 1.5 apart, each on the floor (body 500) alone
  layer.bodies.resize(501);
  layer.is_static.assign(501, false);
  layer.is_static[500] = true;
  for (std::uint32_t g = 0; g < 500; ++g) {
    layer.bodies[g].position = Vec3(1.5 * (g % 20), 1.5 * (g / 20), 0.2);
    layer.units.push_back({g, 500});
  }
  const Tiling t = tile_units(layer.units, layer.is_static, layer.bodies);
  const auto used = check_phases_share_no_grain(t, layer.units, layer.is_static);
  EXPECT_EQ(t.count(), 64u * 64u);
  EXPECT_GT(used[0], 50u);
}

}  // namespace
}  // namespace scree::solver
