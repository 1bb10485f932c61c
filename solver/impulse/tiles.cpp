#include "solver/impulse/tiles.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace scree::solver {

std::uint32_t Tiling::first(int phase) const {
  std::uint32_t sum = 0;
  for (int f = 0; f < phase; ++f) sum += per_phase[std::size_t(f)];
  return sum;
}

Tiling tile_units(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& unit_bodies, const std::vector<bool>& is_static,
                  const std::vector<RigidBody>& posed) {
  // A side of the grid at most: 64 × 64 cells hold the islands of ~10⁴ grains a cell or more
  // apiece; wider islands get wider cells, which stay correct.
  constexpr int most_cells = 64;
  Eigen::Vector2d low = Eigen::Vector2d::Constant(std::numeric_limits<double>::infinity()), high = -low;
  double reach = 0;  // the farthest two touching grains' centroids lie apart in x or in y
  for (const auto& [a, b] : unit_bodies) {
    const Eigen::Vector2d at = posed[a].position.head<2>();
    low = low.cwiseMin(at);
    high = high.cwiseMax(at);
    if (is_static[b]) continue;
    const Eigen::Vector2d other = posed[b].position.head<2>();
    low = low.cwiseMin(other);
    high = high.cwiseMax(other);
    reach = std::max(reach, (at - other).cwiseAbs().maxCoeff());
  }
  // Cells wider than the reach by far more than round-off, so that two grains a reach apart
  // never land two cells apart.
  const double width = reach * (1 + 1e-9);
  std::array<int, 2> cells{};
  Eigen::Vector2d size;
  for (int axis = 0; axis < 2; ++axis) {
    const double extent = high[axis] - low[axis];
    cells[axis] = reach > 0 ? int(std::clamp(std::floor(extent / width), 1.0, double(most_cells))) : most_cells;
    size[axis] = extent > 0 ? extent / cells[axis] : 1;
  }
  // Monotone in the place, so two grains a reach apart or less lie in one cell or next ones.
  auto cell = [&](std::uint32_t body, int axis) {
    return std::min(cells[axis] - 1, int(std::floor((posed[body].position[axis] - low[axis]) / size[axis])));
  };
  // Cell (i, j) is tile (i / 2) × rows + j / 2 of phase 2 (i mod 2) + j mod 2.
  Tiling t;
  std::array<std::uint32_t, Tiling::phases> rows{};
  for (int f = 0; f < Tiling::phases; ++f) {
    rows[std::size_t(f)] = std::uint32_t((cells[1] + 1 - f % 2) / 2);
    t.per_phase[std::size_t(f)] = std::uint32_t((cells[0] + 1 - f / 2) / 2) * rows[std::size_t(f)];
  }
  std::array<std::uint32_t, Tiling::phases> first{};
  for (int f = 0; f < Tiling::phases; ++f) first[std::size_t(f)] = t.first(f);
  t.tile.reserve(unit_bodies.size());
  for (const auto& [a, b] : unit_bodies) {
    int i = cell(a, 0), j = cell(a, 1);
    if (!is_static[b]) {
      i = std::min(i, cell(b, 0));
      j = std::min(j, cell(b, 1));
    }
    const std::size_t f = std::size_t((i % 2) * 2 + j % 2);
    t.tile.push_back(first[f] + std::uint32_t(i / 2) * rows[f] + std::uint32_t(j / 2));
  }
  return t;
}

}  // namespace scree::solver
