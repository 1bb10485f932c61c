// Built with SCREE_WITH_GDAL=OFF: rasters and map projections are refused with a clear line.
#include "formats/error.h"
#include "terrain/height_grid.h"
#include "terrain/raster_grid.h"

namespace scree::terrain {

HeightGrid read_raster(const std::filesystem::path& file) {
  throw formats::FileError(file, "scree was built without GDAL (SCREE_WITH_GDAL=OFF): rasters cannot be read; "
                                 "give x-y-z points or a mesh");
}

void project(HeightGrid&, const std::string&) {
  throw std::invalid_argument("scree was built without GDAL (SCREE_WITH_GDAL=OFF): degrees cannot be projected");
}

RasterGrid read_raster_grid(const std::filesystem::path& file) {
  throw formats::FileError(file, "scree was built without GDAL (SCREE_WITH_GDAL=OFF): rasters cannot be read");
}

void write_geotiff(const std::filesystem::path& file, const RasterGrid&, const std::vector<float>&, const std::string&) {
  throw formats::FileError(file, "scree was built without GDAL (SCREE_WITH_GDAL=OFF): GeoTIFFs cannot be written");
}

bool same_crs(const std::string& a, const std::string& b) { return a == b; }

void transform_points(const std::string& from, const std::string& to, std::vector<double>&, std::vector<double>&) {
  if (from != to)
    throw std::invalid_argument("scree was built without GDAL (SCREE_WITH_GDAL=OFF): points cannot change CRS");
}

}  // namespace scree::terrain
