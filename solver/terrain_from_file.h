#pragma once
// The column store of an in-memory OpenVDB terrain (tools and tests that build one);
// includes OpenVDB. The solver reads terrain files through solver/terrain_from_level_set.h.
#include <filesystem>

#include "formats/terrain.h"
#include "solver/terrain_from_level_set.h"

namespace scree::solver {

TerrainField terrain_field(const formats::Terrain& terrain, const std::filesystem::path& file);

}  // namespace scree::solver
