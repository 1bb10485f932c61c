#include "post/wall_surfaces.h"

#include <Eigen/Geometry>

namespace scree::post {

formats::TriangleSurface wall_surfaces(const std::vector<formats::Wall>& walls, double time,
                                       const std::array<double, 3>& centre, double plane_size) {
  using Eigen::Vector3d;
  formats::TriangleSurface out;
  formats::DataArray index{"wall", 1, {}, formats::ValueType::int64, {}};
  // A quad a b c d (counter-clockwise seen from the side it faces) as two triangles.
  auto quad = [&](const Vector3d& a, const Vector3d& b, const Vector3d& c, const Vector3d& d, std::size_t wall) {
    const auto first = std::uint32_t(out.points.size());
    for (const Vector3d& p : {a, b, c, d}) out.points.push_back({p.x(), p.y(), p.z()});
    out.triangles.push_back({first, first + 1, first + 2});
    out.triangles.push_back({first, first + 2, first + 3});
    index.integers.insert(index.integers.end(), 2, std::int64_t(wall));
  };
  for (std::size_t k = 0; k < walls.size(); ++k) {
    const formats::Wall& w = walls[k];
    const Vector3d shift = time * Vector3d(w.velocity.data());
    if (w.type == formats::WallType::plane) {
      const Vector3d n = Vector3d(w.normal.data()).normalized(), point = Vector3d(w.point.data()) + shift;
      const Vector3d c = Vector3d(centre.data()) - n.dot(Vector3d(centre.data()) - point) * n;
      const Vector3d u = n.unitOrthogonal() * (plane_size / 2), v = n.cross(u);
      quad(c - u - v, c + u - v, c + u + v, c - u + v, k);
      continue;
    }
    const Vector3d lo = Vector3d(w.min.data()) + shift, hi = Vector3d(w.max.data()) + shift;
    for (int axis = 0; axis < 3; ++axis) {
      const int a = (axis + 1) % 3, b = (axis + 2) % 3;
      for (const bool upper : {false, true}) {
        // The face at lo or hi along `axis`, facing into the box.
        Vector3d p[4];
        const double at = upper ? hi[axis] : lo[axis];
        const double corners[4][2] = {{lo[a], lo[b]}, {hi[a], lo[b]}, {hi[a], hi[b]}, {lo[a], hi[b]}};
        for (int i = 0; i < 4; ++i) {
          p[i][axis] = at;
          p[i][a] = corners[i][0];
          p[i][b] = corners[i][1];
        }
        // (a, b, axis) is right-handed, so p0..p3, counter-clockwise in the a-b plane, face
        // +axis: into the box at the lower face; the upper face is wound the other way.
        if (upper)
          quad(p[0], p[3], p[2], p[1], k);
        else
          quad(p[0], p[1], p[2], p[3], k);
      }
    }
  }
  out.cell_data.push_back(std::move(index));
  return out;
}

}  // namespace scree::post
