#pragma once
// A raster's grid and georeference without its values, a GeoTIFF writer on such a grid, and
// moving points between coordinate reference systems: what a map of results on a DEM's own
// grid needs. Light header: no GDAL.
#include <array>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace scree::terrain {

struct RasterGrid {
  std::size_t nx = 0, ny = 0;  // columns, rows
  // GDAL's geotransform: the corner of pixel (col, row) at (g0 + col·g1 + row·g2, g3 + col·g4 + row·g5).
  std::array<double, 6> geotransform{0, 1, 0, 0, 0, 1};
  std::string crs_wkt;  // the file's own, written back as it was; empty when it has none
  // The system its coordinates are taken in: the file's, or WGS 84 where read_raster assumes
  // degrees for a raster without one (height_grid.h).
  std::string taken_as_wkt;
  bool geographic = false;

  // Pixel coordinates (col, row, fractional) of a point in the raster's CRS.
  std::array<double, 2> pixel_of(double x, double y) const;
  std::array<double, 2> corner(double col, double row) const;
};

// FileError for anything GDAL cannot read as a raster, or when built without GDAL.
RasterGrid read_raster_grid(const std::filesystem::path& file);

// One Float32 band, DEFLATE-compressed, on `grid` (its geotransform and CRS), with values row
// by row (row 0 first) and `description` as the band's. Atomic: written under a temporary name
// in the same folder, then renamed.
void write_geotiff(const std::filesystem::path& file, const RasterGrid& grid, const std::vector<float>& values,
                   const std::string& description);

// Whether two WKT strings name the same coordinate reference system.
bool same_crs(const std::string& a_wkt, const std::string& b_wkt);

// Moves points from one CRS to another, in place (x east / longitude, y north / latitude).
// std::invalid_argument when GDAL cannot.
void transform_points(const std::string& from_wkt, const std::string& to_wkt, std::vector<double>& x,
                      std::vector<double>& y);

}  // namespace scree::terrain
