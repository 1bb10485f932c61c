#include "terrain/terrain_level_set.h"

#include <openvdb/tools/SignedFloodFill.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace scree::terrain {

namespace {

struct Value {
  openvdb::Coord ijk;
  float phi;
};

// Along a grid column the interpolant is linear between grid points, and where the ground has
// a kink (a ridge, a valley's floor) the exact distances of the two points around the ground
// put its zero off the ground, by up to a sixth of a voxel at 60° kinks. The two are set to
// cross zero at the ground's height with the slope the exact distances have between them:
// heights come back exactly along every column, and on smooth ground nothing changes beyond
// the interpolation error of the exact distance.
void cross_at_ground(std::vector<Value>& values, std::size_t start, double origin_z, double h, double ground) {
  for (std::size_t n = start; n + 1 < values.size(); ++n) {
    Value &low = values[n], &high = values[n + 1];
    if (!(low.phi < 0 && high.phi >= 0) || high.ijk.z() != low.ijk.z() + 1) continue;
    const double z = origin_z + double(low.ijk.z()) * h, slope = (double(high.phi) - double(low.phi)) / h;
    if (ground < z || ground > z + h) return;
    low.phi = float((z - ground) * slope);
    high.phi = float((z + h - ground) * slope);
    return;
  }
}

}  // namespace

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
      std::vector<Value>& column = by_row[std::size_t(r)];
      const std::size_t column_start = column.size();
      for (std::int64_t k = first((*range)[0] - reach, a.z()); k <= last((*range)[1] + reach, a.z()); ++k) {
        const Eigen::Vector3d p(x, y, a.z() + double(k) * h);
        const auto q = surface.nearest_point(p, reach);
        if (!q) continue;
        const double distance = (p - *q).norm();
        if (distance >= reach) continue;
        const bool below = ground ? p.z() < *ground : p.z() < q->z();
        column.push_back({openvdb::Coord(int(i), int(j), int(k)), float(below ? -distance : distance)});
      }
      if (ground) cross_at_ground(column, column_start, a.z(), h, *ground);
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
  // The fill takes an inactive point's sign from its neighbours in the tree: beside the rim of
  // the ground it can put solid just above a column's band or in the columns beyond the band,
  // and below the tree's lowest nodes there is only the (positive) background. Each column is
  // set right: air above its band and in columns without one, and ground below the band for
  // one root tile's depth.
  const std::int64_t nx = i1 - i0 + 1;
  std::vector<int> top(std::size_t(nx * rows), std::numeric_limits<int>::min());
  std::vector<int> bottom(std::size_t(nx * rows), std::numeric_limits<int>::max());
  for (const auto& row : by_row)
    for (const Value& v : row) {
      const std::size_t c = std::size_t((v.ijk.x() - i0) * rows + (v.ijk.y() - j0));
      top[c] = std::max(top[c], v.ijk.z());
      bottom[c] = std::min(bottom[c], v.ijk.z());
    }
  auto highest_band = [&](const openvdb::CoordBBox& box) {
    int highest = std::numeric_limits<int>::min();
    for (std::int64_t i = std::max<std::int64_t>(box.min().x(), i0); i <= std::min<std::int64_t>(box.max().x(), i1); ++i)
      for (std::int64_t j = std::max<std::int64_t>(box.min().y(), j0); j <= std::min<std::int64_t>(box.max().y(), j0 + rows - 1); ++j)
        highest = std::max(highest, top[std::size_t((i - i0) * rows + (j - j0))]);
    return highest;
  };
  for (auto it = grid->tree().beginValueOff(); it; ++it) {
    if (*it >= 0) continue;
    openvdb::CoordBBox box;
    it.getBoundingBox(box);
    // A box over no band at all lies beyond the ground's edge; a box over some band columns
    // and others beyond them stays as the fill left it (a tile below the band at the edge).
    if (box.min().z() > highest_band(box)) it.setValue(float(reach));
  }
  for (std::size_t c = 0; c < bottom.size(); ++c) {
    if (bottom[c] == std::numeric_limits<int>::max()) continue;
    openvdb::Coord below(int(i0 + std::int64_t(c) / rows), int(j0 + std::int64_t(c) % rows), bottom[c] - 1);
    for (const int deepest = below.z() - 4096; below.z() > deepest;) {
      // What holds the point: a voxel (level 0), a tile of 8³, 128³ or 4096³ (levels 1–3).
      const int depth = accessor.getValueDepth(below), level = depth < 0 ? 3 : 3 - depth;
      if (accessor.getValue(below) >= 0) {
        if (level == 0)
          accessor.setValueOff(below, -float(reach));
        else
          grid->tree().addTile(openvdb::Index(level), below, -float(reach), false);
      }
      const int size = level == 3 ? 4096 : level == 2 ? 128 : level == 1 ? 8 : 1;
      below[2] = (below.z() & ~(size - 1)) - 1;  // just below what held it
    }
  }
  return grid;
}

}  // namespace scree::terrain
