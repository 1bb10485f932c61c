#pragma once
// Builds the solver's column store of a terrain file. Includes OpenVDB (through the terrain
// format): include it where the terrain is loaded, not in the hot loop's headers.
#include <filesystem>

#include "formats/terrain.h"
#include "solver/terrain_field.h"

namespace scree::solver {

// The band of `terrain` column by column. FileError (naming `file`) when its grid is rotated
// against the world's axes or is not a height field: a column whose band does not run from
// ground below to air above.
TerrainField terrain_field(const formats::Terrain& terrain, const std::filesystem::path& file);

}  // namespace scree::solver
