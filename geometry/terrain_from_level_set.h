#pragma once
// Builds the solver's column store of a terrain level set, read without OpenVDB
// (solver/terrain_from_file.h takes in-memory OpenVDB terrains).
#include <filesystem>

#include "formats/vdb_grid.h"
#include "geometry/terrain_field.h"

namespace scree::geometry {

// The band of the level set column by column. FileError (naming `file`) when its grid is
// rotated against the world's axes or is not a height field: a column whose band does not
// run from ground below to air above.
TerrainField terrain_field(const formats::VdbGrid& phi, const std::filesystem::path& file);

}  // namespace scree::geometry
