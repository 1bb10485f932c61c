#include "post/deposit_raster.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace scree::post {

ColumnGrid columns_over(const std::vector<PlacedGrain>& grains, double spacing, const std::array<double, 2>& align) {
  ColumnGrid g;
  g.spacing = spacing;
  if (grains.empty()) return g;
  double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
  for (const PlacedGrain& grain : grains)
    for (int a = 0; a < 2; ++a) {
      lo[a] = std::min(lo[a], grain.position[a] - grain.reach());
      hi[a] = std::max(hi[a], grain.position[a] + grain.reach());
    }
  const double first_i = std::floor((lo[0] - align[0]) / spacing), first_j = std::floor((lo[1] - align[1]) / spacing);
  g.x0 = align[0] + spacing * (first_i + 0.5);
  g.y0 = align[1] + spacing * (first_j + 0.5);
  g.nx = std::size_t(std::ceil((hi[0] - align[0]) / spacing) - first_i);
  g.ny = std::size_t(std::ceil((hi[1] - align[1]) / spacing) - first_j);
  return g;
}

DepositRaster rasterize_deposit(const std::vector<PlacedGrain>& grains, const ColumnGrid& grid) {
  DepositRaster r;
  r.grid = grid;
  r.thickness.assign(grid.size(), 0.f);
  r.top.assign(grid.size(), std::numeric_limits<float>::quiet_NaN());
  r.bottom = r.top;
  if (grid.size() == 0) return r;
  // Rows in blocks, each block with the grains over it: threads fill disjoint blocks.
  constexpr std::size_t rows_per_block = 8;
  const std::size_t blocks = (grid.ny + rows_per_block - 1) / rows_per_block;
  std::vector<std::vector<std::size_t>> over(blocks);
  const double h = grid.spacing;
  auto clamp_index = [](double v, std::size_t n) { return std::size_t(std::clamp(v, 0.0, double(n) - 1)); };
  auto columns_of = [&](const PlacedGrain& grain, std::size_t& i0, std::size_t& i1, std::size_t& j0, std::size_t& j1) {
    const double reach = grain.reach();
    i0 = clamp_index(std::floor((grain.position.x() - reach - grid.x0) / h), grid.nx);
    i1 = clamp_index(std::ceil((grain.position.x() + reach - grid.x0) / h), grid.nx);
    j0 = clamp_index(std::floor((grain.position.y() - reach - grid.y0) / h), grid.ny);
    j1 = clamp_index(std::ceil((grain.position.y() + reach - grid.y0) / h), grid.ny);
  };
  for (std::size_t g = 0; g < grains.size(); ++g) {
    std::size_t i0, i1, j0, j1;
    columns_of(grains[g], i0, i1, j0, j1);
    for (std::size_t b = j0 / rows_per_block; b <= j1 / rows_per_block; ++b) over[b].push_back(g);
  }
  // Each grain's columns are scaled to carry its volume exactly: the trilinear level set's
  // zero lies a little inside a convex surface (about h²/4R: 1 % of volume at 7 voxels per
  // radius), and a deposit map should hold the grains' volume. A grain that no column centre
  // meets lands whole in the column of its centroid.
  std::vector<double> factor(grains.size(), 0.0);
#pragma omp parallel for schedule(dynamic, 16)
  for (std::size_t g = 0; g < grains.size(); ++g) {
    std::size_t i0, i1, j0, j1;
    columns_of(grains[g], i0, i1, j0, j1);
    double length = 0;
    for (std::size_t j = j0; j <= j1; ++j)
      for (std::size_t i = i0; i <= i1; ++i) length += vertical_chord(grains[g], grid.x(i), grid.y(j)).length;
    factor[g] = length > 0 ? grains[g].volume() / (length * h * h) : 0;
  }
  auto add = [&](std::size_t k, double thickness, double top, double bottom) {
    r.thickness[k] += float(thickness);
    r.top[k] = std::isnan(r.top[k]) ? float(top) : std::max(r.top[k], float(top));
    r.bottom[k] = std::isnan(r.bottom[k]) ? float(bottom) : std::min(r.bottom[k], float(bottom));
  };
#pragma omp parallel for schedule(dynamic)
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::size_t row_end = std::min(grid.ny, (b + 1) * rows_per_block);
    for (const std::size_t g : over[b]) {
      const PlacedGrain& grain = grains[g];
      std::size_t i0, i1, j0, j1;
      columns_of(grain, i0, i1, j0, j1);
      if (factor[g] == 0) {
        const std::size_t i = clamp_index(std::round((grain.position.x() - grid.x0) / h), grid.nx);
        const std::size_t j = clamp_index(std::round((grain.position.y() - grid.y0) / h), grid.ny);
        const double thickness = grain.volume() / (h * h);
        if (j >= b * rows_per_block && j < row_end)
          add(j * grid.nx + i, thickness, grain.position.z() + 0.5 * thickness, grain.position.z() - 0.5 * thickness);
        continue;
      }
      for (std::size_t j = std::max(j0, b * rows_per_block); j <= std::min(j1, row_end - 1); ++j)
        for (std::size_t i = i0; i <= i1; ++i) {
          const Chord c = vertical_chord(grain, grid.x(i), grid.y(j));
          if (c.hit()) add(j * grid.nx + i, factor[g] * c.length, c.top, c.bottom);
        }
    }
  }
  return r;
}

}  // namespace scree::post
