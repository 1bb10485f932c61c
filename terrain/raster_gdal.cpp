// Raster input and map projections through GDAL (the only place scree uses it).
#include <cpl_conv.h>
#include <cpl_error.h>
#include <gdal_priv.h>
#include <ogr_spatialref.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "formats/error.h"
#include "terrain/height_grid.h"
#include "terrain/raster_grid.h"
#include "formats/atomic_file.h"

namespace scree::terrain {

namespace {

void start_gdal() {
  static std::once_flag once;
  std::call_once(once, [] {
    // ESRI ASCII grids hold decimal heights: read them as doubles, not GDAL's default
    // Float32 (which rounds a 40 m height by up to 2 µm and a 4000 m one by 0.2 mm).
    CPLSetConfigOption("AAIGRID_DATATYPE", "Float64");
    GDALAllRegister();
    CPLSetErrorHandler(CPLQuietErrorHandler);  // errors come back as exceptions with GDAL's message
  });
}

std::string gdal_message() {
  std::string message = CPLGetLastErrorMsg();
  return message.empty() ? "GDAL gives no reason" : message;
}

std::string wkt_of(const OGRSpatialReference& srs) {
  char* text = nullptr;
  srs.exportToWkt(&text);
  std::string wkt = text ? text : "";
  CPLFree(text);
  return wkt;
}

std::string number(double v) {
  std::ostringstream s;
  s.precision(10);
  s << v;
  return s.str();
}

// FileError for a missing file or one GDAL cannot read as a raster.
std::unique_ptr<GDALDataset> open_raster(const std::filesystem::path& file) {
  start_gdal();
  if (!std::filesystem::exists(file)) throw formats::FileError(file, "no such file");
  CPLErrorReset();
  std::unique_ptr<GDALDataset> data(GDALDataset::Open(file.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY));
  if (!data) throw formats::FileError(file, "not a raster GDAL can read: " + gdal_message());
  return data;
}

// Degrees or metres: the CRS says, unless it contradicts the coordinates; a raster without
// one whose cells are under 0.01 wide within longitude and latitude is taken as WGS 84.
struct CrsReading {
  std::string wkt;
  bool geographic = false;
  std::string notes;
};

CrsReading read_crs(GDALDataset& data, const double gt[6], bool georeferenced) {
  // The cell centres' extent: an affine map takes it from the four corner cells.
  const double nx = data.GetRasterXSize(), ny = data.GetRasterYSize();
  double x_lo = INFINITY, x_hi = -INFINITY, y_lo = INFINITY, y_hi = -INFINITY;
  for (const double u : {0.5, nx - 0.5})
    for (const double v : {0.5, ny - 0.5}) {
      const double x = gt[0] + u * gt[1] + v * gt[2], y = gt[3] + u * gt[4] + v * gt[5];
      x_lo = std::min(x_lo, x), x_hi = std::max(x_hi, x), y_lo = std::min(y_lo, y), y_hi = std::max(y_hi, y);
    }
  const bool fits_degrees = x_lo >= -180 && x_hi <= 180 && y_lo >= -90 && y_hi <= 90;
  const double cell = std::hypot(gt[1], gt[4]);
  CrsReading r;
  if (const OGRSpatialReference* srs = data.GetSpatialRef()) {
    r.wkt = wkt_of(*srs);
    r.geographic = srs->IsGeographic();
    if (r.geographic && !fits_degrees) {
      r.geographic = false;
      r.notes = std::string("the CRS (") + srs->GetName() + ") says degrees, but x runs from " + number(x_lo) + " to " +
                number(x_hi) + ": taken as metres; ";
    }
  } else if (georeferenced && fits_degrees && cell < 0.01) {
    OGRSpatialReference wgs84;
    wgs84.SetWellKnownGeogCS("WGS84");
    r.wkt = wkt_of(wgs84);
    r.geographic = true;
    r.notes = "no CRS; cells " + number(cell) + " wide within longitude and latitude: taken as WGS 84 degrees; ";
  }
  return r;
}

}  // namespace

HeightGrid read_raster(const std::filesystem::path& file) {
  std::unique_ptr<GDALDataset> data = open_raster(file);
  const int nx = data->GetRasterXSize(), ny = data->GetRasterYSize();
  if (data->GetRasterCount() < 1 || nx < 1 || ny < 1) throw formats::FileError(file, "empty raster");
  if (nx < 2 || ny < 2) throw formats::FileError(file, "a raster of " + std::to_string(nx) + " × " + std::to_string(ny) +
                                                     " cells has no cell between four centres");
  GDALRasterBand* band = data->GetRasterBand(1);
  HeightGrid g;
  g.nx = std::size_t(nx);
  g.ny = std::size_t(ny);
  g.z.resize(g.size());
  if (band->RasterIO(GF_Read, 0, 0, nx, ny, g.z.data(), nx, ny, GDT_Float64, 0, 0) != CE_None)
    throw formats::FileError(file, "cannot read the heights: " + gdal_message());
  int has_nodata = 0;
  const double nodata = band->GetNoDataValue(&has_nodata);
  for (double& z : g.z)
    if ((has_nodata && z == nodata) || !std::isfinite(z)) z = NAN;

  // Cell centres from the geotransform (row 0 is the first line of the file, usually north).
  double gt[6] = {0, 1, 0, 0, 0, 1};
  const bool georeferenced = data->GetGeoTransform(gt) == CE_None;
  if (!georeferenced) g.notes += "no georeferencing: cell (i, j) centred at (i + 0.5, j + 0.5); ";
  g.x.resize(g.size());
  g.y.resize(g.size());
  for (std::size_t j = 0; j < g.ny; ++j)
    for (std::size_t i = 0; i < g.nx; ++i) {
      const double u = double(i) + 0.5, v = double(j) + 0.5;
      g.x[g.index(i, j)] = gt[0] + u * gt[1] + v * gt[2];
      g.y[g.index(i, j)] = gt[3] + u * gt[4] + v * gt[5];
    }

  const CrsReading crs = read_crs(*data, gt, georeferenced);
  g.crs_wkt = crs.wkt;
  g.geographic = crs.geographic;
  g.notes += crs.notes;
  return g;
}

void project(HeightGrid& g, const std::string& target) {
  start_gdal();
  OGRSpatialReference source;
  if (g.crs_wkt.empty() || source.importFromWkt(g.crs_wkt.c_str()) != OGRERR_NONE) source.SetWellKnownGeogCS("WGS84");
  source.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);  // x = longitude, y = latitude
  OGRSpatialReference to;
  std::string name;
  if (target == "utm") {
    double lon = 0, lat = 0;
    for (std::size_t k = 0; k < g.size(); ++k) lon += g.x[k], lat += g.y[k];
    lon /= double(g.size()), lat /= double(g.size());
    const int zone = std::clamp(int(std::floor((lon + 180) / 6)) + 1, 1, 60);
    to.SetWellKnownGeogCS("WGS84");
    to.SetUTM(zone, lat >= 0);
    name = "UTM zone " + std::to_string(zone) + (lat >= 0 ? "N" : "S");
  } else {
    CPLErrorReset();
    if (to.SetFromUserInput(target.c_str()) != OGRERR_NONE)
      throw std::invalid_argument("unknown coordinate reference system '" + target + "': " + gdal_message());
    if (!to.IsProjected()) throw std::invalid_argument("'" + target + "' is not a projected (metric) system");
    name = to.GetName();
  }
  to.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
  std::unique_ptr<OGRCoordinateTransformation> transform(OGRCreateCoordinateTransformation(&source, &to));
  if (!transform) throw std::invalid_argument("cannot project to " + name + ": " + gdal_message());
  if (!transform->Transform(int(g.size()), g.x.data(), g.y.data()))
    throw std::invalid_argument("projecting to " + name + " failed: " + gdal_message());
  g.crs_wkt = wkt_of(to);
  g.geographic = false;
  g.notes += "projected from degrees to " + name + "; ";
}

std::array<double, 2> RasterGrid::pixel_of(double x, double y) const {
  const auto& g = geotransform;
  const double det = g[1] * g[5] - g[2] * g[4];
  const double dx = x - g[0], dy = y - g[3];
  return {(g[5] * dx - g[2] * dy) / det, (-g[4] * dx + g[1] * dy) / det};
}

std::array<double, 2> RasterGrid::corner(double col, double row) const {
  const auto& g = geotransform;
  return {g[0] + col * g[1] + row * g[2], g[3] + col * g[4] + row * g[5]};
}

RasterGrid read_raster_grid(const std::filesystem::path& file) {
  std::unique_ptr<GDALDataset> data = open_raster(file);
  RasterGrid grid;
  grid.nx = std::size_t(data->GetRasterXSize());
  grid.ny = std::size_t(data->GetRasterYSize());
  if (data->GetGeoTransform(grid.geotransform.data()) != CE_None)
    throw formats::FileError(file, "no georeferencing (geotransform): a map on its grid could not be placed");
  if (const OGRSpatialReference* srs = data->GetSpatialRef()) grid.crs_wkt = wkt_of(*srs);
  // The same reading of the coordinates as the terrain's (read_raster's rules).
  const CrsReading crs = read_crs(*data, grid.geotransform.data(), true);
  grid.taken_as_wkt = crs.wkt;
  grid.geographic = crs.geographic;
  return grid;
}

void write_geotiff(const std::filesystem::path& file, const RasterGrid& grid, const std::vector<float>& values,
                   const std::string& description) {
  start_gdal();
  if (values.size() != grid.nx * grid.ny) throw std::invalid_argument("write_geotiff: values do not fill the grid");
  formats::AtomicFile out(file);
  GDALDriver* driver = GetGDALDriverManager()->GetDriverByName("GTiff");
  if (!driver) throw formats::FileError(file, "GDAL has no GeoTIFF driver");
  char** options = nullptr;
  options = CSLSetNameValue(options, "COMPRESS", "DEFLATE");
  options = CSLSetNameValue(options, "PREDICTOR", "3");
  options = CSLSetNameValue(options, "TILED", "YES");
  CPLErrorReset();
  {
    std::unique_ptr<GDALDataset> data(
        driver->Create(out.temp_path().c_str(), int(grid.nx), int(grid.ny), 1, GDT_Float32, options));
    CSLDestroy(options);
    if (!data) throw formats::FileError(file, "cannot write: " + gdal_message());
    data->SetGeoTransform(const_cast<double*>(grid.geotransform.data()));
    if (!grid.crs_wkt.empty()) {
      OGRSpatialReference srs;
      if (srs.importFromWkt(grid.crs_wkt.c_str()) == OGRERR_NONE) data->SetSpatialRef(&srs);
    }
    GDALRasterBand* band = data->GetRasterBand(1);
    band->SetDescription(description.c_str());
    if (band->RasterIO(GF_Write, 0, 0, int(grid.nx), int(grid.ny), const_cast<float*>(values.data()), int(grid.nx),
                       int(grid.ny), GDT_Float32, 0, 0) != CE_None)
      throw formats::FileError(file, "cannot write: " + gdal_message());
    data.reset();  // closing writes the rest
    if (CPLGetLastErrorType() >= CE_Failure) throw formats::FileError(file, "cannot write: " + gdal_message());
  }
  out.commit();
}

namespace {

OGRSpatialReference crs_of(const std::string& wkt) {
  OGRSpatialReference srs;
  if (srs.importFromWkt(wkt.c_str()) != OGRERR_NONE) throw std::invalid_argument("not a CRS GDAL knows: " + wkt.substr(0, 60));
  srs.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
  return srs;
}

}  // namespace

bool same_crs(const std::string& a, const std::string& b) {
  if (a == b) return true;
  if (a.empty() || b.empty()) return false;
  start_gdal();
  const OGRSpatialReference first = crs_of(a), second = crs_of(b);
  return first.IsSame(&second);
}

void transform_points(const std::string& from, const std::string& to, std::vector<double>& x, std::vector<double>& y) {
  if (same_crs(from, to)) return;
  start_gdal();
  OGRSpatialReference source = crs_of(from), target = crs_of(to);
  CPLErrorReset();
  std::unique_ptr<OGRCoordinateTransformation> transform(OGRCreateCoordinateTransformation(&source, &target));
  if (!transform) throw std::invalid_argument("cannot move points between these systems: " + gdal_message());
  if (!x.empty() && !transform->Transform(int(x.size()), x.data(), y.data()))
    throw std::invalid_argument("moving points between systems failed: " + gdal_message());
}

}  // namespace scree::terrain
