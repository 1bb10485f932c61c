#pragma once
// Terrain (.vdb): a level set negative below the ground, with georeferencing; specified in
// docs/formats.md. Includes OpenVDB: include this only where level sets are handled.
#include <openvdb/openvdb.h>

#include <array>
#include <filesystem>
#include <string>

namespace scree::formats {

struct Terrain {
  openvdb::FloatGrid::Ptr phi;  // level set, negative below the ground, metres
  std::string crs_wkt;          // coordinate reference system of the source (may be empty)
  // Source (georeferenced) coordinates = simulation coordinates + origin_offset; keeps
  // simulation coordinates small so that floats hold them precisely.
  std::array<double, 3> origin_offset{};
  std::string provenance;
};

void write_terrain(const std::filesystem::path& file, const Terrain& terrain);
Terrain read_terrain(const std::filesystem::path& file);

}  // namespace scree::formats
