#pragma once
// Terrain (.vdb): a level set negative below the ground, with georeferencing; specified in
// docs/formats.md. Includes OpenVDB: include this only where level sets are handled.
#include <openvdb/openvdb.h>

#include <array>
#include <filesystem>
#include <string>

#include "formats/terrain_file.h"

namespace scree::formats {

// The level set through OpenVDB, with the file's georeference (crs_wkt, origin_offset,
// provenance).
struct Terrain : TerrainGeoreference {
  openvdb::FloatGrid::Ptr phi;  // level set, negative below the ground, metres
};

// read_terrain checks as read_terrain_file does, then reads the grid through OpenVDB.
void write_terrain(const std::filesystem::path& file, const Terrain& terrain);
Terrain read_terrain(const std::filesystem::path& file);

}  // namespace scree::formats
