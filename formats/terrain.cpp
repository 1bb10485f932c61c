#include "formats/terrain.h"

#include <cmath>

#include "formats/error.h"
#include "formats/level_set_file.h"

namespace scree::formats {

namespace {
constexpr const char* kind = "terrain";

bool finite(const std::array<double, 3>& v) {
  return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]);
}
}  // namespace

void write_terrain(const std::filesystem::path& file, const Terrain& t) {
  vdb::initialize();
  if (!t.phi) throw FileError(file, "cannot write: terrain has no level set");
  if (auto problem = vdb::level_set_problem(vdb::sparse_copy(*t.phi)); !problem.empty())
    throw FileError(file, "cannot write: " + problem);
  if (!finite(t.origin_offset)) throw FileError(file, "cannot write: origin offset is not finite");
  auto phi = vdb::stamped_copy(*t.phi, kind);
  phi->insertMeta("crs_wkt", openvdb::StringMetadata(t.crs_wkt));
  phi->insertMeta("origin_offset", openvdb::Vec3DMetadata(openvdb::Vec3d(t.origin_offset.data())));
  phi->insertMeta("provenance", openvdb::StringMetadata(t.provenance));
  vdb::write_grids(file, {phi});
}

Terrain read_terrain(const std::filesystem::path& file) {
  Terrain t;
  static_cast<TerrainGeoreference&>(t) = read_terrain_file(file).georeference;
  t.phi = vdb::read_phi(file);
  return t;
}

}  // namespace scree::formats
