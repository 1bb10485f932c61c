#include "terrain/height_grid.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "formats/error.h"

namespace scree::terrain {

std::size_t HeightGrid::missing() const {
  return std::size_t(std::count_if(z.begin(), z.end(), [](double h) { return !std::isfinite(h); }));
}

HeightGrid read_point_grid(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw formats::FileError(file, "cannot open");
  struct Point {
    double x, y, z;
    int line;
  };
  std::vector<Point> points;
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    if (const auto hash = text.find('#'); hash != std::string::npos) text.erase(hash);
    std::replace(text.begin(), text.end(), ',', ' ');
    std::istringstream fields(text);
    Point p{0, 0, 0, line};
    std::string extra;
    if (!(fields >> p.x)) {
      if (text.find_first_not_of(" \t\r") == std::string::npos) continue;  // blank
      throw formats::FileError(file, "expected 'x y z', got '" + text + "'", line);
    }
    if (!(fields >> p.y >> p.z) || (fields >> extra))
      throw formats::FileError(file, "expected 'x y z', got '" + text + "'", line);
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
      throw formats::FileError(file, "coordinate is not finite", line);
    points.push_back(p);
  }
  if (points.empty()) throw formats::FileError(file, "no points");
  // The distinct x and y values index the grid.
  std::map<double, std::size_t> column, row;
  for (const Point& p : points) column[p.x], row[p.y];
  if (column.size() < 2 || row.size() < 2)
    throw formats::FileError(file, "the points do not span a grid (" + std::to_string(column.size()) + " distinct x, " +
                                       std::to_string(row.size()) + " distinct y)");
  std::size_t k = 0;
  for (auto& [x, i] : column) i = k++;
  k = 0;
  for (auto& [y, j] : row) j = k++;
  HeightGrid g;
  g.nx = column.size();
  g.ny = row.size();
  g.x.resize(g.size());
  g.y.resize(g.size());
  g.z.assign(g.size(), NAN);
  for (const auto& [x, i] : column)
    for (const auto& [y, j] : row) g.x[g.index(i, j)] = x, g.y[g.index(i, j)] = y;
  for (const Point& p : points) {
    double& z = g.z[g.index(column[p.x], row[p.y])];
    if (!std::isnan(z)) throw formats::FileError(file, "a second height for the same x and y", p.line);
    z = p.z;
  }
  if (const std::size_t missing = g.missing(); missing > 0) {
    const std::size_t at = std::size_t(std::find_if(g.z.begin(), g.z.end(), [](double z) { return std::isnan(z); }) - g.z.begin());
    std::ostringstream s;
    s.precision(10);
    s << points.size() << " points do not fill a grid of " << g.nx << " x by " << g.ny << " y values: " << missing
      << " missing, the first at (" << g.x[at] << ", " << g.y[at] << ")";
    throw formats::FileError(file, s.str());
  }
  return g;
}

void crop(HeightGrid& g, double x_min, double y_min, double x_max, double y_max) {
  if (!(x_min < x_max && y_min < y_max)) throw std::invalid_argument("crop window: the minimum must be below the maximum");
  // The index box of the nodes inside (a projected grid is cropped to the box of those).
  std::size_t i0 = g.nx, i1 = 0, j0 = g.ny, j1 = 0;
  for (std::size_t j = 0; j < g.ny; ++j)
    for (std::size_t i = 0; i < g.nx; ++i) {
      const std::size_t k = g.index(i, j);
      if (g.x[k] < x_min || g.x[k] > x_max || g.y[k] < y_min || g.y[k] > y_max) continue;
      i0 = std::min(i0, i), i1 = std::max(i1, i), j0 = std::min(j0, j), j1 = std::max(j1, j);
    }
  if (i0 > i1 || j0 > j1 || i1 - i0 < 1 || j1 - j0 < 1)
    throw std::invalid_argument("crop window holds fewer than 2 x 2 nodes of the grid");
  HeightGrid c;
  c.nx = i1 - i0 + 1;
  c.ny = j1 - j0 + 1;
  for (std::size_t j = j0; j <= j1; ++j)
    for (std::size_t i = i0; i <= i1; ++i) {
      const std::size_t k = g.index(i, j);
      c.x.push_back(g.x[k]);
      c.y.push_back(g.y[k]);
      c.z.push_back(g.z[k]);
    }
  c.crs_wkt = std::move(g.crs_wkt);
  c.geographic = g.geographic;
  c.notes = std::move(g.notes);
  g = std::move(c);
}

std::size_t fill_missing(HeightGrid& g) {
  const std::size_t missing = g.missing();
  if (missing == g.size()) throw std::invalid_argument("no node has a height (all NODATA)");
  std::size_t filled = 0;
  while (filled < missing) {
    // One ring: every missing node next to data gets the mean of its neighbours with data.
    std::vector<std::pair<std::size_t, double>> ring;
    for (std::size_t j = 0; j < g.ny; ++j)
      for (std::size_t i = 0; i < g.nx; ++i) {
        if (std::isfinite(g.z[g.index(i, j)])) continue;
        double sum = 0;
        int n = 0;
        for (int dj = -1; dj <= 1; ++dj)
          for (int di = -1; di <= 1; ++di) {
            const std::ptrdiff_t ni = std::ptrdiff_t(i) + di, nj = std::ptrdiff_t(j) + dj;
            if (ni < 0 || nj < 0 || ni >= std::ptrdiff_t(g.nx) || nj >= std::ptrdiff_t(g.ny)) continue;
            const double z = g.z[g.index(std::size_t(ni), std::size_t(nj))];
            if (std::isfinite(z)) sum += z, ++n;
          }
        if (n > 0) ring.emplace_back(g.index(i, j), sum / n);
      }
    for (const auto& [k, z] : ring) g.z[k] = z;
    filled += ring.size();
  }
  return filled;
}

}  // namespace scree::terrain
