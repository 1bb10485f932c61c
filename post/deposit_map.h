#pragma once
// The deposit on a DEM's own grid: solid thickness per cell of the source raster, in its
// coordinate system, for a GeoTIFF a GIS opens over the DEM. Light header: no GDAL.
#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "formats/terrain.h"
#include "post/deposit_raster.h"
#include "terrain/raster_grid.h"

namespace scree::post {

// FileError naming `dem` unless it is the terrain's source: a raster in the terrain's
// coordinate system (or in degrees, projected to it), over the terrain, with heights that
// agree with the terrain's ground (median difference within two voxels).
void check_dem_matches_terrain(const std::filesystem::path& dem, const formats::Terrain& terrain,
                               const std::filesystem::path& terrain_file);

// Where the deposit's columns line up with the DEM's cells: for a DEM in the terrain's own
// system with square cells along the axes, its cell size and a cell corner in simulation
// coordinates; otherwise cell 0 (no alignment).
struct MapAlignment {
  double cell = 0;
  std::array<double, 2> corner{0, 0};
};
MapAlignment alignment_with(const terrain::RasterGrid& dem, const std::string& terrain_crs,
                            const std::array<double, 3>& origin_offset);

struct DepositMap {
  std::vector<float> thickness;  // m of solid per cell, row by row as the DEM's
  double volume_on_map = 0, volume_off_map = 0;  // m³: the columns inside and outside the DEM
};

// Every column's volume into the DEM cell under its centre, over the cell's area (measured in
// the terrain's metric system).
DepositMap map_deposit(const DepositRaster& deposit, const terrain::RasterGrid& dem, const std::string& terrain_crs,
                       const std::array<double, 3>& origin_offset);

}  // namespace scree::post
