// Built with SCREE_WITH_GDAL=OFF: rasters and map projections are refused with a clear line.
#include "formats/error.h"
#include "terrain/height_grid.h"

namespace scree::terrain {

HeightGrid read_raster(const std::filesystem::path& file) {
  throw formats::FileError(file, "scree was built without GDAL (SCREE_WITH_GDAL=OFF): rasters cannot be read; "
                                 "give x-y-z points or a mesh");
}

void project(HeightGrid&, const std::string&) {
  throw std::invalid_argument("scree was built without GDAL (SCREE_WITH_GDAL=OFF): degrees cannot be projected");
}

}  // namespace scree::terrain
