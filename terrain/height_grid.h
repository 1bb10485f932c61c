#pragma once
// A digital elevation model as a structured grid of surface points: node (i, j) of an
// nx × ny grid, x along i and y along j; heights NaN where the source has no data. Rasters
// (through GDAL) and x-y-z point lists read into it; so does a raster in degrees once its
// nodes are projected to metres (the grid stays structured, no longer axis-aligned).
// Light header: no GDAL, no OpenVDB.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace scree::terrain {

struct HeightGrid {
  std::size_t nx = 0, ny = 0;
  std::vector<double> x, y, z;  // node (i, j) at index j · nx + i
  std::string crs_wkt;          // the source's coordinate reference system, empty if unknown
  bool geographic = false;      // x, y are longitude and latitude in degrees
  std::string notes;            // what reading assumed or repaired, for the report

  std::size_t index(std::size_t i, std::size_t j) const { return j * nx + i; }
  std::size_t size() const { return nx * ny; }
  std::size_t missing() const;  // nodes without a height
};

// Any raster GDAL reads (GeoTIFF, ESRI ASCII grids with `xllcenter`, CRLF line ends or no
// NODATA line, ...): one node per cell at the cell's centre. A raster without a CRS whose
// extents fit in longitude and latitude and whose cells are under 0.01 wide is taken as
// degrees (WGS 84, said in `notes`); one whose CRS says degrees but whose coordinates cannot
// be is taken as metres (said too). FileError for an unreadable or empty raster. Throws
// FileError "built without GDAL" when scree was.
HeightGrid read_raster(const std::filesystem::path& file);

// Lines "x y z" (spaces, tabs or commas; '#' comments) that together fill a rectangular
// grid: every (x, y) of the distinct x and y values once. FileError naming the line or the
// missing node otherwise.
HeightGrid read_point_grid(const std::filesystem::path& file);

// Keeps the nodes inside [x_min, x_max] × [y_min, y_max] (map coordinates of the source);
// std::invalid_argument when fewer than 2 × 2 nodes remain.
void crop(HeightGrid& grid, double x_min, double y_min, double x_max, double y_max);

// Fills nodes without a height with the mean of their filled neighbours, ring by ring from
// the data inwards; returns how many were filled. std::invalid_argument when no node has data.
std::size_t fill_missing(HeightGrid& grid);

// Projects a grid in degrees to metres: to the UTM zone of its centre (`target` "utm") or
// to a CRS GDAL knows ("EPSG:32613", WKT, ...). std::invalid_argument for an unknown
// target; crs_wkt becomes the target's. Throws "built without GDAL" when scree was.
void project(HeightGrid& grid, const std::string& target);

}  // namespace scree::terrain
