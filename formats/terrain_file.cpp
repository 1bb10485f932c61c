#include "formats/terrain_file.h"

#include <cmath>

#include "formats/error.h"
#include "formats/level_set_grid.h"

namespace scree::formats {

TerrainFile read_terrain_file(const std::filesystem::path& file) {
  std::vector<VdbGrid> grids = read_vdb_grids(file);
  TerrainFile t;
  t.phi = vdb::read_level_set(file, grids, "terrain");
  TerrainGeoreference& g = t.georeference;
  g.crs_wkt = vdb::metadata<std::string>(file, t.phi, "crs_wkt");
  g.origin_offset = vdb::metadata<std::array<double, 3>>(file, t.phi, "origin_offset");
  for (double v : g.origin_offset)
    if (!std::isfinite(v)) throw FileError(file, "origin_offset is not finite");
  g.provenance = vdb::metadata<std::string>(file, t.phi, "provenance");
  return t;
}

}  // namespace scree::formats
