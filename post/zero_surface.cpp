#include "post/zero_surface.h"

#include <openvdb/tools/VolumeToMesh.h>

namespace scree::post {

formats::TriangleSurface zero_surface(const openvdb::FloatGrid& phi, double adaptivity,
                                      const openvdb::BoolGrid::ConstPtr& mask) {
  openvdb::tools::VolumeToMesh mesher(0.0, adaptivity);
  if (mask) mesher.setSurfaceMask(mask);
  mesher(phi);
  formats::TriangleSurface surface;
  surface.points.reserve(mesher.pointListSize());
  for (std::size_t p = 0; p < mesher.pointListSize(); ++p) {
    const openvdb::Vec3s& v = mesher.pointList()[p];
    surface.points.push_back({v.x(), v.y(), v.z()});
  }
  // OpenVDB winds its polygons to face into the negative side: reversed here.
  auto add = [&](openvdb::Index a, openvdb::Index b, openvdb::Index c) {
    surface.triangles.push_back({std::uint32_t(c), std::uint32_t(b), std::uint32_t(a)});
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
  return surface;
}

}  // namespace scree::post
