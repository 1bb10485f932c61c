#include "formats/avatar_file.h"

#include <cmath>

#include "formats/error.h"
#include "formats/level_set_grid.h"

namespace scree::formats {

std::string properties_problem(const AvatarProperties& p) {
  if (!(std::isfinite(p.volume) && p.volume > 0)) return "volume must be > 0";
  const auto& I = p.inertia_per_density;
  for (double v : I)
    if (!(std::isfinite(v) && v > 0)) return "principal inertia / density must be > 0";
  // Any rigid body's principal moments satisfy the triangle inequality.
  const double slack = 1e-9 * (I[0] + I[1] + I[2]);
  if (I[0] + I[1] < I[2] - slack || I[1] + I[2] < I[0] - slack || I[2] + I[0] < I[1] - slack)
    return "principal inertia / density violates the triangle inequality (not a rigid body)";
  for (double v : p.source_to_body)
    if (!std::isfinite(v)) return "source-to-body transform is not finite";
  const auto& M = p.source_to_body;
  if (M[12] != 0 || M[13] != 0 || M[14] != 0 || M[15] != 1)
    return "source-to-body transform must end in the row (0, 0, 0, 1)";
  return {};
}

AvatarFile read_avatar_file(const std::filesystem::path& file) {
  std::vector<VdbGrid> grids = read_vdb_grids(file);
  AvatarFile a;
  a.phi = vdb::read_level_set(file, grids, "avatar");
  AvatarProperties& p = a.properties;
  p.volume = vdb::metadata<double>(file, a.phi, "volume");
  p.inertia_per_density = vdb::metadata<std::array<double, 3>>(file, a.phi, "inertia_per_density");
  p.source_to_body = vdb::metadata<std::array<double, 16>>(file, a.phi, "source_to_body");
  p.provenance = vdb::metadata<std::string>(file, a.phi, "provenance");
  const double voxel_size = vdb::metadata<double>(file, a.phi, "voxel_size"), grid_voxel = vdb::voxel_size(a.phi);
  if (std::abs(voxel_size - grid_voxel) > 1e-12 * grid_voxel)
    throw FileError(file, "metadata voxel_size " + std::to_string(voxel_size) + " disagrees with the grid's voxel size " +
                              std::to_string(grid_voxel));
  if (auto problem = properties_problem(p); !problem.empty()) throw FileError(file, problem);
  a.nodes = vdb::read_nodes(file, grids, a.phi);
  if (a.nodes.empty()) throw FileError(file, "has no boundary nodes");
  return a;
}

}  // namespace scree::formats
