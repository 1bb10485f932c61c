#pragma once
// The column store of an in-memory OpenVDB terrain (tools and tests that build one);
// includes OpenVDB. The solver reads terrain files through solver/terrain_from_level_set.h.
#include <filesystem>

#include "formats/terrain.h"
#include "geometry/terrain_from_level_set.h"

namespace scree::geometry {

TerrainField terrain_field(const formats::Terrain& terrain, const std::filesystem::path& file);

}  // namespace scree::geometry
