#pragma once
// Terrain (.vdb) as the solver reads it, without OpenVDB; formats/terrain.h has the OpenVDB
// side. Light header.
#include <array>
#include <filesystem>
#include <string>

#include "formats/vdb_grid.h"

namespace scree::formats {

// What a terrain file holds besides its level set.
struct TerrainGeoreference {
  std::string crs_wkt;  // coordinate reference system of the source (may be empty)
  // Source (georeferenced) coordinates = simulation coordinates + origin_offset; keeps
  // simulation coordinates small so that floats hold them precisely.
  std::array<double, 3> origin_offset{};
  std::string provenance;
};

struct TerrainFile {
  VdbGrid phi;  // level set, negative below the ground, metres
  TerrainGeoreference georeference;
};

// Everything read_terrain checks; FileError naming the file.
TerrainFile read_terrain_file(const std::filesystem::path& file);

}  // namespace scree::formats
