#include "pack/release_area.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "formats/error.h"
#include "terrain/height_grid.h"

namespace scree::pack {

namespace {

std::vector<Eigen::Vector2d> read_polygon(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw formats::FileError(file, "cannot open the polygon");
  std::vector<Eigen::Vector2d> corners;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::replace(line.begin(), line.end(), ',', ' ');
    std::istringstream words(line);
    double x = 0, y = 0;
    std::string extra;
    if (!(words >> std::ws) || words.eof()) continue;
    if (!(words >> x >> y) || (words >> extra))
      throw formats::FileError(file, "line " + std::to_string(number) + ": expects 'x y' (map coordinates)");
    corners.emplace_back(x, y);
  }
  if (corners.size() >= 2 && corners.front() == corners.back()) corners.pop_back();  // closed rings repeat the first corner
  if (corners.size() < 3) throw formats::FileError(file, "a polygon needs at least three corners");
  return corners;
}

bool inside_polygon(const std::vector<Eigen::Vector2d>& c, double x, double y) {
  bool in = false;
  for (std::size_t i = 0, j = c.size() - 1; i < c.size(); j = i++)
    if ((c[i].y() > y) != (c[j].y() > y) && x < c[j].x() + (y - c[j].y()) * (c[i].x() - c[j].x()) / (c[i].y() - c[j].y()))
      in = !in;
  return in;
}

}  // namespace

std::unique_ptr<ReleaseRegion> release_area(const std::filesystem::path& file, AreaKind kind, std::optional<double> thickness,
                                            const formats::Terrain& terrain, std::shared_ptr<const geometry::TerrainField> ground) {
  const double ox = terrain.origin_offset[0], oy = terrain.origin_offset[1];
  Eigen::Vector2d low(INFINITY, INFINITY), high(-INFINITY, -INFINITY);
  std::function<double(double, double)> depth;
  std::string description;
  if (kind == AreaKind::polygon) {
    if (!thickness) throw std::invalid_argument("a polygon release area needs a thickness");
    std::vector<Eigen::Vector2d> corners = read_polygon(file);
    for (auto& c : corners) {
      c -= Eigen::Vector2d(ox, oy);
      low = low.cwiseMin(c), high = high.cwiseMax(c);
    }
    const double t = *thickness;
    depth = [corners, t](double x, double y) { return inside_polygon(corners, x, y) ? t : 0.0; };
    description = "polygon of " + std::to_string(corners.size()) + " corners";
  } else {
    if (kind == AreaKind::mask && !thickness) throw std::invalid_argument("a raster mask release area needs a thickness");
    terrain::HeightGrid grid = terrain::read_raster(file);
    if (grid.geographic) throw formats::FileError(file, "a release area in degrees: give it in the terrain's metric system");
    // The raster's cells along the axes: node (i, j) at x0 + i dx, y0 + j dy.
    const double x0 = grid.x[0], y0 = grid.y[0], dx = grid.x[grid.index(1, 0)] - x0, dy = grid.y[grid.index(0, 1)] - y0;
    if (grid.y[grid.index(1, 0)] != y0 || grid.x[grid.index(0, 1)] != x0)
      throw formats::FileError(file, "a release raster must have its cells along the map's axes");
    std::vector<double> values(grid.size(), 0.0);
    std::size_t cells = 0;
    for (std::size_t k = 0; k < grid.size(); ++k) {
      const double v = grid.z[k];
      if (std::isnan(v) || v == 0) continue;
      values[k] = kind == AreaKind::mask ? *thickness : std::abs(v);
      ++cells;
      const Eigen::Vector2d c(grid.x[k] - ox, grid.y[k] - oy);
      low = low.cwiseMin(c - 0.5 * Eigen::Vector2d(std::abs(dx), std::abs(dy)));
      high = high.cwiseMax(c + 0.5 * Eigen::Vector2d(std::abs(dx), std::abs(dy)));
    }
    if (cells == 0) throw formats::FileError(file, "no cell of the release area has a value");
    const std::size_t nx = grid.nx, ny = grid.ny;
    depth = [=, values = std::move(values)](double x, double y) {
      const double i = std::round((x + ox - x0) / dx), j = std::round((y + oy - y0) / dy);
      if (!(i >= 0 && j >= 0 && i < double(nx) && j < double(ny))) return 0.0;
      return values[std::size_t(j) * nx + std::size_t(i)];
    };
    description = (kind == AreaKind::mask ? "mask of " : "thickness raster of ") + std::to_string(cells) + " cells";
  }
  try {
    return terrain_region(std::move(ground), depth, low, high, file.filename().string() + ": " + description);
  } catch (const std::invalid_argument& e) {
    throw formats::FileError(file, "the release area does not lie over the terrain");
  }
}

}  // namespace scree::pack
