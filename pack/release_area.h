#pragma once
// Release areas on the terrain from files: a polygon (lines "x y" in map coordinates), a
// raster mask (cells with a value other than 0 or no-data) or a thickness raster (each cell's
// thickness, its absolute value: failure depths are often negative), in the terrain's
// coordinate system. Rasters go through GDAL (scree_terrain).
#include <filesystem>
#include <memory>
#include <optional>

#include "formats/terrain.h"
#include "pack/release_region.h"

namespace scree::pack {

enum class AreaKind { polygon, mask, thickness };

// The region above `ground` over the area of `file`: `thickness` m thick for a polygon or a
// mask, the raster's own thickness otherwise. Map coordinates become simulation ones by the
// terrain's origin offset. FileError naming the file for one that cannot be read, a raster in
// degrees, or an area that misses the terrain.
std::unique_ptr<ReleaseRegion> release_area(const std::filesystem::path& file, AreaKind kind,
                                            std::optional<double> thickness, const formats::Terrain& terrain,
                                            std::shared_ptr<const geometry::TerrainField> ground);

}  // namespace scree::pack
