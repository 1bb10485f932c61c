#include "geometry/terrain_from_file.h"

#include "formats/level_set_file.h"

namespace scree::geometry {

TerrainField terrain_field(const formats::Terrain& terrain, const std::filesystem::path& file) {
  return terrain_field(formats::vdb::sparse_copy(*terrain.phi), file);
}

}  // namespace scree::geometry
