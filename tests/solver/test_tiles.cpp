// A big resting island cut into tiles (solver/impulse/tiles.h): the tiles of one phase move
// disjoint grains, whatever the places, and a unit's cell depends on its own bodies alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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
Heap random_heap(std::uint32_t grains, const Vec3& box, double radius, unsigned seed, const Vec3& corner = Vec3::Zero()) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> unit_interval(0, 1);
  Heap h;
  h.bodies.resize(grains + 1);
  for (std::uint32_t g = 0; g < grains; ++g)
    h.bodies[g].position = corner + Vec3(unit_interval(random), unit_interval(random), unit_interval(random)).cwiseProduct(box);
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
    // Across the origin in the third heap: cells of negative columns and rows.
    const Vec3 corner = seed == 3 ? Vec3(-20, -15, 0) : Vec3::Zero();
    const Heap h = random_heap(3000, Vec3(40, 30, 8), 1.0, seed, corner);
    const Tiling t = tile_units(h.units, h.is_static, h.bodies, 2.0);
    const auto used = check_phases_share_no_grain(t, h.units, h.is_static);
    // Cells two radii wide: about 20 × 15 of them, ~75 tiles a phase, every one with units.
    for (std::size_t count : used) EXPECT_GT(count, 50u);
    EXPECT_EQ(used[0] + used[1] + used[2] + used[3], std::size_t(t.count()));
  }
}

// What a rank needs (docs/parallel.md): the cell of a unit is the same whichever other units
// are cut with it, and in whatever order.
TEST(Tiles, AUnitsCellDependsOnItsOwnBodiesAlone) {
  const Heap h = random_heap(1500, Vec3(30, 20, 6), 1.0, 4);
  const double width = 2.001;
  const Tiling whole = tile_units(h.units, h.is_static, h.bodies, width);
  std::mt19937 random(5);
  Units some;
  std::vector<std::size_t> picked;
  for (std::size_t u = 0; u < h.units.size(); ++u)
    if (random() % 3 == 0) picked.push_back(u);
  std::shuffle(picked.begin(), picked.end(), random);
  for (std::size_t u : picked) some.push_back(h.units[u]);
  const Tiling part = tile_units(some, h.is_static, h.bodies, width);
  ASSERT_GT(some.size(), 500u);
  for (std::size_t k = 0; k < picked.size(); ++k)
    EXPECT_EQ(part.cell[part.tile[k]], whole.cell[whole.tile[picked[k]]]) << "unit " << picked[k];
  // And the cell is the one below both grains, on the grid from the origin.
  for (std::size_t u = 0; u < h.units.size(); u += 37) {
    const auto [a, b] = h.units[u];
    const Vec3 low = h.is_static[b] ? h.bodies[a].position : Vec3(h.bodies[a].position.cwiseMin(h.bodies[b].position));
    EXPECT_EQ(whole.cell[whole.tile[u]][0], std::int64_t(std::floor(low.x() / width)));
    EXPECT_EQ(whole.cell[whole.tile[u]][1], std::int64_t(std::floor(low.y() / width)));
  }
}

// Cells as wide as the farthest touching pair lies apart in x or y (a static B's place counts
// for nothing), or as wide as two grains can touch when none do.
TEST(Tiles, CellsAreAsWideAsTheFarthestTouchingPair) {
  Heap h = random_heap(800, Vec3(30, 30, 4), 1.0, 7);
  h.bodies.back().position = Vec3(1000, 1000, 0);  // the floor's
  double farthest = 0;
  for (const auto& [a, b] : h.units)
    if (!h.is_static[b]) farthest = std::max(farthest, (h.bodies[a].position - h.bodies[b].position).head<2>().cwiseAbs().maxCoeff());
  ASSERT_GT(farthest, 1.5);
  ASSERT_LT(farthest, 2.0);
  EXPECT_EQ(farthest_touching(h.units, h.is_static, h.bodies), farthest);
  EXPECT_EQ(tile_width(farthest_touching(h.units, h.is_static, h.bodies), 5.0), farthest * (1 + 1e-9));
  Units on_the_floor;
  for (const auto& unit : h.units)
    if (h.is_static[unit.second]) on_the_floor.push_back(unit);
  ASSERT_FALSE(on_the_floor.empty());
  EXPECT_EQ(farthest_touching(on_the_floor, h.is_static, h.bodies), 0.0);
  EXPECT_EQ(tile_width(farthest_touching(on_the_floor, h.is_static, h.bodies), 5.0), 5.0 * (1 + 1e-9));
  EXPECT_EQ(largest_reach(1.0, 1e-3), 2.001);
}

// A row of grains along x (no extent across y) and grains on the floor alone.
TEST(Tiles, ARowAndALayerOnTheFloorAreCut) {
  Heap row;
  const std::uint32_t grains = 200;
  row.bodies.resize(grains);
  row.is_static.assign(grains, false);
  for (std::uint32_t g = 0; g < grains; ++g) row.bodies[g].position = Vec3(1.9 * g, 0, 1);
  for (std::uint32_t g = 1; g < grains; ++g) row.units.push_back({g, g - 1});
  const Tiling along = tile_units(row.units, row.is_static, row.bodies, 2.0);
  const auto row_used = check_phases_share_no_grain(along, row.units, row.is_static);
  EXPECT_EQ(row_used[0] + row_used[2], std::size_t(along.count()));  // one row of cells
  EXPECT_EQ(along.count(), 189u);  // units' lower grains from x = 0 to 376.2, cells 2 wide

  Heap layer;  // 20 × 25 grains 1.5 apart, each on the floor (body 500) alone
  layer.bodies.resize(501);
  layer.is_static.assign(501, false);
  layer.is_static[500] = true;
  for (std::uint32_t g = 0; g < 500; ++g) {
    layer.bodies[g].position = Vec3(1.5 * (g % 20), 1.5 * (g / 20), 0.2);
    layer.units.push_back({g, 500});
  }
  const Tiling t = tile_units(layer.units, layer.is_static, layer.bodies, 2.0);
  const auto used = check_phases_share_no_grain(t, layer.units, layer.is_static);
  EXPECT_EQ(t.count(), 15u * 19u);  // 28.5 × 36 m: 15 columns and 19 rows of cells 2 wide
  EXPECT_GT(used[0], 50u);
}

}  // namespace
}  // namespace scree::solver
