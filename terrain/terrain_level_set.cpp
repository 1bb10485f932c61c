#include "terrain/terrain_level_set.h"

#include <openvdb/tools/SignedFloodFill.h>

#include <cmath>
#include <vector>

namespace scree::terrain {

openvdb::FloatGrid::Ptr terrain_level_set(const TerrainSurface& surface, const TerrainGrid& settings) {
  const double h = settings.voxel_size, reach = settings.band * h;
  const Eigen::Vector3d& a = settings.alignment;
  auto grid = openvdb::FloatGrid::create(float(reach));
  grid->setGridClass(openvdb::GRID_LEVEL_SET);
  grid->setName("phi");
  // Grid point ijk at alignment + h · ijk.
  auto transform = openvdb::math::Transform::createLinearTransform(h);
  transform->postTranslate(openvdb::Vec3d(a.x(), a.y(), a.z()));
  grid->setTransform(transform);

  auto first = [&](double lo, double origin) { return std::int64_t(std::floor((lo - origin) / h)); };
  auto last = [&](double hi, double origin) { return std::int64_t(std::ceil((hi - origin) / h)); };
  const std::int64_t i0 = first(surface.lower().x() - reach, a.x()), i1 = last(surface.upper().x() + reach, a.x());
  const std::int64_t j0 = first(surface.lower().y() - reach, a.y()), j1 = last(surface.upper().y() + reach, a.y());

  // Rows in parallel, each into its own list; then into the tree (not thread safe) in order.
  struct Value {
    openvdb::Coord ijk;
    float phi;
  };
  const std::int64_t rows = j1 - j0 + 1;
  std::vector<std::vector<Value>> by_row(static_cast<std::size_t>(rows));
  std::size_t done = 0;
#pragma omp parallel for schedule(dynamic)
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t j = j0 + r;
    const double y = a.y() + double(j) * h;
    for (std::int64_t i = i0; i <= i1; ++i) {
      const double x = a.x() + double(i) * h;
      const auto range = surface.height_range(x, y, reach);
      if (!range) continue;
      const std::optional<double> ground = surface.height(x, y);
      for (std::int64_t k = first((*range)[0] - reach, a.z()); k <= last((*range)[1] + reach, a.z()); ++k) {
        const Eigen::Vector3d p(x, y, a.z() + double(k) * h);
        const auto q = surface.nearest_point(p, reach);
        if (!q) continue;
        const double distance = (p - *q).norm();
        if (distance >= reach) continue;
        const bool below = ground ? p.z() < *ground : p.z() < q->z();
        by_row[std::size_t(r)].push_back({openvdb::Coord(int(i), int(j), int(k)), float(below ? -distance : distance)});
      }
    }
    if (settings.progress) {
#pragma omp critical(terrain_progress)
      settings.progress(++done, std::size_t(rows));
    }
  }
  auto accessor = grid->getAccessor();
  for (const auto& row : by_row)
    for (const Value& v : row) accessor.setValue(v.ijk, v.phi);
  // Inactive points below the band take −background: the solid goes all the way down.
  openvdb::tools::signedFloodFill(grid->tree());
  return grid;
}

}  // namespace scree::terrain
