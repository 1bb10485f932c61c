#include "terrain/build_terrain.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include <Eigen/Geometry>

#include "formats/error.h"
#include "formats/mesh_file.h"
#include "terrain/terrain_level_set.h"

namespace scree::terrain {

namespace {

using Eigen::Vector3d;

std::string lower_extension(const std::filesystem::path& file) {
  std::string ext = file.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext;
}

bool is_mesh(const std::filesystem::path& file) {
  const std::string ext = lower_extension(file);
  return ext == ".stl" || ext == ".obj";
}

bool is_point_list(const std::filesystem::path& file) {
  const std::string ext = lower_extension(file);
  return ext == ".txt" || ext == ".xyz" || ext == ".csv" || ext == ".dat";
}

// The spacing of a structured grid: the shorter of its two node spacings, at its middle.
// Takes |depth| off the heights where the depth raster has a value; FileError naming it when
// it is not on the grid's nodes (a tenth of a cell allowed).
std::string lower_by(HeightGrid& grid, const std::filesystem::path& file) {
  const HeightGrid depth = read_raster(file);
  const double tolerance = 0.1 * std::abs(grid.nx > 1 ? grid.x[1] - grid.x[0] : grid.y[grid.nx] - grid.y[0]);
  bool same = depth.nx == grid.nx && depth.ny == grid.ny;
  for (std::size_t k = 0; same && k < grid.size(); k += std::max<std::size_t>(1, grid.size() / 1000))
    same = std::abs(depth.x[k] - grid.x[k]) <= tolerance && std::abs(depth.y[k] - grid.y[k]) <= tolerance;
  same = same && std::abs(depth.x.back() - grid.x.back()) <= tolerance && std::abs(depth.y.back() - grid.y.back()) <= tolerance;
  if (!same)
    throw formats::FileError(file, "not on the DEM's grid (" + std::to_string(depth.nx) + " × " + std::to_string(depth.ny) +
                                       " cells from (" + std::to_string(depth.x[0]) + ", " + std::to_string(depth.y[0]) +
                                       "), the DEM " + std::to_string(grid.nx) + " × " + std::to_string(grid.ny) + " from (" +
                                       std::to_string(grid.x[0]) + ", " + std::to_string(grid.y[0]) + "))");
  std::size_t lowered = 0;
  double deepest = 0;
  for (std::size_t k = 0; k < grid.size(); ++k) {
    if (!std::isfinite(depth.z[k]) || depth.z[k] == 0) continue;
    grid.z[k] -= std::abs(depth.z[k]);
    ++lowered;
    deepest = std::max(deepest, std::abs(depth.z[k]));
  }
  std::ostringstream note;
  note.precision(4);
  note << "lowered by " << file.filename().string() << " in " << lowered << " cells, up to " << deepest << " m; ";
  return note.str();
}

double grid_spacing(const HeightGrid& g) {
  const std::size_t i = g.nx / 2 - (g.nx / 2 + 1 >= g.nx), j = g.ny / 2 - (g.ny / 2 + 1 >= g.ny);
  const std::size_t k = g.index(i, j);
  const double along_x = std::hypot(g.x[g.index(i + 1, j)] - g.x[k], g.y[g.index(i + 1, j)] - g.y[k]);
  const double along_y = std::hypot(g.x[g.index(i, j + 1)] - g.x[k], g.y[g.index(i, j + 1)] - g.y[k]);
  return std::min(along_x, along_y);
}

}  // namespace

TerrainSurface read_ground(const std::filesystem::path& input, const TerrainOptions& options, TerrainReport& report,
                           std::string& crs_wkt) {
  if (is_mesh(input)) {
    formats::TriangleMesh mesh = formats::read_mesh(input);
    std::vector<Vector3d> vertices;
    for (const auto& v : mesh.vertices)
      vertices.push_back(options.up == 'y' ? Vector3d(v[0], -v[2], v[1]) : Vector3d(v[0], v[1], v[2]));
    std::vector<TerrainSurface::Triangle> triangles;
    double edges = 0;
    for (const auto& t : mesh.triangles) {
      bool inside = true;
      for (std::uint32_t v : t)
        if (options.crop) {
          const auto& c = *options.crop;
          inside = inside && vertices[v].x() >= c[0] && vertices[v].y() >= c[1] && vertices[v].x() <= c[2] &&
                   vertices[v].y() <= c[3];
        }
      if (!inside) continue;
      triangles.push_back(t);
      for (int e = 0; e < 3; ++e) edges += (vertices[t[e]] - vertices[t[(e + 1) % 3]]).head<2>().norm();
    }
    if (triangles.empty()) throw std::invalid_argument("crop window holds no triangle of the mesh");
    // A ground seen with the wrong axis up is a wall: most of its area faces sideways.
    double area = 0, upward = 0;
    for (const auto& t : triangles) {
      const Vector3d n = (vertices[t[1]] - vertices[t[0]]).cross(vertices[t[2]] - vertices[t[0]]);
      area += n.norm();
      upward += std::abs(n.z());
    }
    if (!(upward > 0.5 * area)) {
      char why[160];
      std::snprintf(why, sizeof why, "not a ground with %c up: its triangles face sideways (mean |n_%c| %.2f)%s",
                    options.up, options.up, upward / area, options.up == 'z' ? "; is y up? (--up y)" : "");
      throw formats::FileError(input, why);
    }
    report.source = "mesh, " + std::to_string(triangles.size()) + " triangles";
    report.cell_size = edges / double(3 * triangles.size());
    return TerrainSurface(std::move(vertices), std::move(triangles));
  }
  HeightGrid grid = is_point_list(input) ? read_point_grid(input) : read_raster(input);
  report.source = std::string(is_point_list(input) ? "x-y-z points" : "raster") + ", " + std::to_string(grid.nx) +
                  " × " + std::to_string(grid.ny) + " nodes";
  if (options.lower_by) {
    if (is_point_list(input)) throw std::invalid_argument("--lower-by works on rasters only");
    report.notes += lower_by(grid, *options.lower_by);
  }
  if (options.crop) {
    const auto& c = *options.crop;
    crop(grid, c[0], c[1], c[2], c[3]);
  }
  if (grid.missing() == grid.size()) throw formats::FileError(input, "no height anywhere (every cell is NODATA)");
  if (options.missing == MissingHeights::fill)
    report.filled = fill_missing(grid);
  else
    report.masked = grid.missing();
  if (grid.geographic) {
    if (options.projection == "refuse")
      throw formats::FileError(input, "coordinates are longitude and latitude in degrees; project them to metres "
                                      "(--project utm, or --project EPSG:<code>)");
    project(grid, options.projection);
  }
  report.notes += grid.notes;
  report.cell_size = grid_spacing(grid);
  crs_wkt = grid.crs_wkt;
  try {
    return TerrainSurface::from_grid(grid);
  } catch (const std::invalid_argument& e) {
    throw formats::FileError(input, e.what());
  }
}

formats::Terrain build_terrain(const std::filesystem::path& input, const TerrainOptions& options, TerrainReport& report) {
  if (options.voxel_size < 0 || !std::isfinite(options.voxel_size))
    throw std::invalid_argument("voxel size must be positive");
  if (!(options.band >= 1)) throw std::invalid_argument("band must be at least 1 voxel");
  formats::Terrain terrain;
  TerrainSurface map = read_ground(input, options, report, terrain.crs_wkt);
  const double h = options.voxel_size > 0 ? options.voxel_size : report.cell_size;
  if (!(h > 0)) throw formats::FileError(input, "the cells have no extent");
  for (int a = 0; a < 3; ++a) report.lower[a] = map.lower()[a], report.upper[a] = map.upper()[a];
  report.voxel_size = h;
  report.band = options.band;

  // Local coordinates: the map minus the origin (by default the ground's lower x-y corner in
  // whole metres, heights kept); the level set's grid points line up with a source node.
  const Vector3d origin = options.origin ? Vector3d((*options.origin)[0], (*options.origin)[1], (*options.origin)[2])
                                         : Vector3d(std::floor(map.lower().x()), std::floor(map.lower().y()), 0);
  std::vector<Vector3d> local = map.vertices();
  for (Vector3d& v : local) v -= origin;
  const TerrainSurface ground(std::move(local), map.triangles());
  TerrainGrid grid;
  grid.voxel_size = h;
  grid.band = options.band;
  grid.alignment = ground.vertices()[ground.triangles()[0][0]];
  grid.alignment.z() = 0;
  grid.progress = options.progress;
  terrain.phi = terrain_level_set(ground, grid);
  terrain.origin_offset = {origin.x(), origin.y(), origin.z()};
  std::ostringstream provenance;
  provenance << "scree-terrain: " << input.filename().string() << " (" << report.source << "), voxel " << h << " m, band "
             << options.band << " voxels" << (report.notes.empty() ? "" : "; " + report.notes);
  terrain.provenance = provenance.str();

  report.active_voxels = terrain.phi->activeVoxelCount();
  report.bytes = terrain.phi->memUsage();
  std::size_t dense = 1;
  for (int a = 0; a < 3; ++a) {
    report.dense_dims[a] = std::size_t(std::ceil((report.upper[a] - report.lower[a]) / h + 2 * options.band)) + 1;
    dense *= report.dense_dims[a];
  }
  report.dense_bytes = dense * sizeof(float);
  return terrain;
}

std::string describe(const std::filesystem::path& output, const TerrainReport& r) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(1);
  s << output.string() << ": terrain from " << r.source << ", cells of " << r.cell_size << " m";
  if (r.filled) s << ", " << r.filled << " heights filled";
  if (r.masked) s << ", " << r.masked << " heights missing (masked)";
  s << "\n  extent      x " << r.lower[0] << " to " << r.upper[0] << ", y " << r.lower[1] << " to " << r.upper[1]
    << ", z " << r.lower[2] << " to " << r.upper[2] << " m\n";
  s.precision(3);
  s << "  level set   voxel " << r.voxel_size << " m, band " << r.band << " voxels: " << r.active_voxels << " active voxels, "
    << double(r.bytes) / 1e6 << " MB\n";
  s << "  dense grid  " << r.dense_dims[0] << " × " << r.dense_dims[1] << " × " << r.dense_dims[2] << " voxels would take "
    << double(r.dense_bytes) / 1e6 << " MB: the level set takes " << 100.0 * double(r.bytes) / double(r.dense_bytes)
    << " % of it\n";
  if (!r.notes.empty()) s << "  notes       " << r.notes.substr(0, r.notes.size() - 2) << "\n";
  return s.str();
}

}  // namespace scree::terrain
