#include "terrain/ground_surface.h"

#include <openvdb/tools/VolumeToMesh.h>

#include <cmath>
#include <numbers>
#include <unordered_set>

#include <Eigen/Geometry>

namespace scree::terrain {

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
  openvdb::tools::VolumeToMesh mesher(0.0, 0.0);
  mesher.setSurfaceMask(band);
  mesher(phi);

  formats::TriangleSurface surface;
  formats::DataArray elevation{"elevation", 1, {}, false}, slope{"slope", 1, {}, false};
  surface.points.reserve(mesher.pointListSize());
  for (std::size_t p = 0; p < mesher.pointListSize(); ++p) {
    const openvdb::Vec3s& v = mesher.pointList()[p];
    surface.points.push_back({v.x(), v.y(), v.z()});
    elevation.values.push_back(double(v.z()) + terrain.origin_offset[2]);
  }
  // OpenVDB winds its polygons to face into the negative side; reversed here so that they
  // face up, out of the ground.
  auto add = [&](openvdb::Index a, openvdb::Index b, openvdb::Index c) {
    surface.triangles.push_back({std::uint32_t(c), std::uint32_t(b), std::uint32_t(a)});
    auto at = [&](openvdb::Index i) { return Eigen::Vector3d(surface.points[i].data()); };
    const Eigen::Vector3d n = (at(b) - at(c)).cross(at(a) - at(c));
    slope.values.push_back(std::acos(std::min(1.0, std::abs(n.z()) / n.norm())) * 180 / std::numbers::pi);
  };
  for (std::size_t n = 0; n < mesher.polygonPoolListSize(); ++n) {
    const openvdb::tools::PolygonPool& pool = mesher.polygonPoolList()[n];
    for (std::size_t q = 0; q < pool.numQuads(); ++q) {
      const openvdb::Vec4I& quad = pool.quad(q);
      add(quad[0], quad[1], quad[2]);
      add(quad[0], quad[2], quad[3]);
    }
    for (std::size_t t = 0; t < pool.numTriangles(); ++t) {
      const openvdb::Vec3I& tri = pool.triangle(t);
      add(tri[0], tri[1], tri[2]);
    }
  }
  surface.point_data.push_back(std::move(elevation));
  surface.cell_data.push_back(std::move(slope));
  return surface;
}

}  // namespace scree::terrain
