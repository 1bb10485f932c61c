#pragma once
// From a DEM file to a terrain (.vdb), as scree-terrain does it: read (raster, x-y-z points
// or a mesh), crop, fill or mask missing heights, project degrees to metres, move to a local
// origin, and build the narrow-band level set. Includes OpenVDB (through formats/terrain.h).
#include <array>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "formats/terrain.h"
#include "terrain/terrain_surface.h"

namespace scree::terrain {

enum class MissingHeights { fill, mask };

struct TerrainOptions {
  double voxel_size = 0;  // m; 0: the source's cell size
  double band = 3;        // voxels either side of the ground, ≥ 1
  std::optional<std::array<double, 4>> crop;  // x_min, y_min, x_max, y_max in the source's coordinates
  std::optional<std::array<double, 3>> origin;  // local origin in projected map coordinates; none: automatic
  MissingHeights missing = MissingHeights::fill;
  std::string projection = "utm";  // for sources in degrees: "utm", a CRS GDAL knows, or "refuse"
  char up = 'z';                   // meshes: the axis that points up, 'y' or 'z'
  // Rasters: a raster on the same grid whose absolute values are taken off the heights (a
  // landslide's failure depth: the ground it slid on); its missing cells take nothing off.
  std::optional<std::filesystem::path> lower_by;
  std::function<void(std::size_t done, std::size_t total)> progress;
};

struct TerrainReport {
  std::string source;  // what was read: "raster, 231 × 261 nodes", ...
  double cell_size = 0;
  double voxel_size = 0, band = 0;  // of the level set: m, voxels
  std::size_t filled = 0, masked = 0;  // nodes without a height
  std::array<double, 3> lower{}, upper{};  // the ground's box in map coordinates, m
  std::size_t active_voxels = 0, bytes = 0;
  std::array<std::size_t, 3> dense_dims{};  // the dense grid over the ground's box and band
  std::size_t dense_bytes = 0;
  std::string notes;
};

// The source as triangles in map coordinates (metres), two per cell of a grid, through its
// nodes; fills report.source, cell_size, filled, masked and notes. The same errors as
// build_terrain.
TerrainSurface read_ground(const std::filesystem::path& input, const TerrainOptions& options, TerrainReport& report,
                           std::string& crs_wkt);

// FileError naming `input` for unreadable or unusable input; std::invalid_argument for bad
// options (crop window outside the data, voxel size ≤ 0).
formats::Terrain build_terrain(const std::filesystem::path& input, const TerrainOptions& options, TerrainReport& report);

// The report as the tool prints it, a few lines.
std::string describe(const std::filesystem::path& output, const TerrainReport& report);

}  // namespace scree::terrain
