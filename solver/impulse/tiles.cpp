#include "solver/impulse/tiles.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

namespace scree::solver {

std::uint32_t Tiling::first(int phase) const {
  std::uint32_t sum = 0;
  for (int f = 0; f < phase; ++f) sum += per_phase[std::size_t(f)];
  return sum;
}

double largest_reach(double largest_radius, double margin) { return 2 * largest_radius + margin; }

double farthest_touching(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& unit_bodies,
                         const std::vector<bool>& is_static, const std::vector<RigidBody>& posed) {
  double reach = 0;
  for (const auto& [a, b] : unit_bodies)
    if (!is_static[b]) reach = std::max(reach, (posed[a].position - posed[b].position).head<2>().cwiseAbs().maxCoeff());
  return reach;
}

double tile_width(double farthest, double largest_reach) { return (farthest > 0 ? farthest : largest_reach) * (1 + 1e-9); }

std::array<std::int64_t, 2> unit_cell(std::uint32_t a, std::uint32_t b, const std::vector<bool>& is_static,
                                      const std::vector<RigidBody>& posed, double width) {
  // Monotone in the place, so two grains a width apart or less lie in one cell or next ones.
  auto cell = [&](std::uint32_t body, int axis) { return std::int64_t(std::floor(posed[body].position[axis] / width)); };
  std::array<std::int64_t, 2> c{cell(a, 0), cell(a, 1)};
  if (!is_static[b]) c = {std::min(c[0], cell(b, 0)), std::min(c[1], cell(b, 1))};
  return c;
}

int phase_of(const std::array<std::int64_t, 2>& c) { return int((c[0] & 1) * 2 + (c[1] & 1)); }

Tiling tile_units(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& unit_bodies, const std::vector<bool>& is_static,
                  const std::vector<RigidBody>& posed, double width) {
  std::vector<std::array<std::int64_t, 2>> unit_cell;
  unit_cell.reserve(unit_bodies.size());
  for (const auto& [a, b] : unit_bodies) unit_cell.push_back(solver::unit_cell(a, b, is_static, posed, width));
  // The cells that hold units, phase by phase, then by column and row: the tiles.
  std::vector<std::uint32_t> by_cell(unit_bodies.size());
  std::iota(by_cell.begin(), by_cell.end(), 0u);
  auto key = [&](std::uint32_t u) { return std::tuple(phase_of(unit_cell[u]), unit_cell[u][0], unit_cell[u][1]); };
  std::sort(by_cell.begin(), by_cell.end(), [&](std::uint32_t x, std::uint32_t y) { return key(x) < key(y); });
  Tiling t;
  t.tile.resize(unit_bodies.size());
  for (std::size_t k = 0; k < by_cell.size(); ++k) {
    const std::uint32_t u = by_cell[k];
    if (k == 0 || unit_cell[u] != unit_cell[by_cell[k - 1]]) {
      t.cell.push_back(unit_cell[u]);
      ++t.per_phase[std::size_t(phase_of(unit_cell[u]))];
    }
    t.tile[u] = std::uint32_t(t.cell.size() - 1);
  }
  return t;
}

}  // namespace scree::solver
