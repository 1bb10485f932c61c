#include "post/ground_surface.h"

#include <cmath>
#include <numbers>
#include <unordered_set>

#include <Eigen/Geometry>

#include "post/zero_surface.h"

namespace scree::post {

formats::TriangleSurface ground_surface(const formats::Terrain& terrain) {
  const openvdb::FloatGrid& phi = *terrain.phi;
  // Polygons only in the band's voxels whose neighbouring columns have a band too: below the
  // band the ground is tiles of −band, and where those meet the air beyond the DEM's edge
  // there would be a wall down to the tiles' bottom.
  std::unordered_set<std::uint64_t> columns;
  auto key = [](int i, int j) { return (std::uint64_t(std::uint32_t(i)) << 32) | std::uint32_t(j); };
  for (auto v = phi.cbeginValueOn(); v; ++v) columns.insert(key(v.getCoord().x(), v.getCoord().y()));
  auto band = openvdb::BoolGrid::create(false);
  band->setTransform(phi.transform().copy());
  auto mask = band->getAccessor();
  for (auto v = phi.cbeginValueOn(); v; ++v) {
    const openvdb::Coord c = v.getCoord();
    bool inside = true;
    for (int di = -1; di <= 1 && inside; ++di)
      for (int dj = -1; dj <= 1 && inside; ++dj) inside = columns.count(key(c.x() + di, c.y() + dj)) > 0;
    if (inside) mask.setValueOn(c, true);
  }
  formats::TriangleSurface surface = zero_surface(phi, 0.0, band);

  formats::DataArray elevation{"elevation", 1, {}, formats::ValueType::float64, {}};
  formats::DataArray slope{"slope", 1, {}, formats::ValueType::float32, {}};
  for (const auto& p : surface.points) elevation.values.push_back(p[2] + terrain.origin_offset[2]);
  auto at = [&](std::uint32_t i) { return Eigen::Vector3d(surface.points[i].data()); };
  for (const auto& t : surface.triangles) {
    const Eigen::Vector3d n = (at(t[1]) - at(t[0])).cross(at(t[2]) - at(t[0]));
    slope.values.push_back(std::acos(std::min(1.0, std::abs(n.z()) / n.norm())) * 180 / std::numbers::pi);
  }
  surface.point_data.push_back(std::move(elevation));
  surface.cell_data.push_back(std::move(slope));
  return surface;
}

}  // namespace scree::post
