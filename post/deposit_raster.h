#pragma once
// The deposit seen from above: a regular grid of vertical columns over the grains, each with
// the grains' solid thickness along it (the volume of grain per unit area) and the highest
// and lowest grain surface on it. Runout, spread, area, heights and the deposit map are read
// off it. Light header: Eigen only.
#include <array>
#include <cstddef>
#include <vector>

#include "post/grain_columns.h"

namespace scree::post {

struct ColumnGrid {
  double x0 = 0, y0 = 0;  // centre of column (0, 0), world m
  double spacing = 0;     // m
  std::size_t nx = 0, ny = 0;

  double x(std::size_t i) const { return x0 + spacing * double(i); }
  double y(std::size_t j) const { return y0 + spacing * double(j); }
  std::size_t size() const { return nx * ny; }
};

// The columns at `spacing` over every grain's reach, their centres at `align` + spacing ·
// (i + ½, j + ½) so that a map's cells of a whole number of spacings hold whole columns.
ColumnGrid columns_over(const std::vector<PlacedGrain>& grains, double spacing, const std::array<double, 2>& align = {0, 0});

struct DepositRaster {
  ColumnGrid grid;
  std::vector<float> thickness;  // solid, m; column (i, j) at j · nx + i
  std::vector<float> top, bottom;  // m; NaN where no grain is
  bool covered(std::size_t k) const { return thickness[k] > 0; }
};

// Each column's chords through every grain, summed (overlapping grains count twice), each
// grain's scaled so that its columns hold its volume (see the .cpp for why).
DepositRaster rasterize_deposit(const std::vector<PlacedGrain>& grains, const ColumnGrid& grid);

}  // namespace scree::post
