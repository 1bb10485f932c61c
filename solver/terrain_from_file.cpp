#include "solver/terrain_from_file.h"

#include <cmath>
#include <limits>
#include <string>

#include "formats/error.h"

namespace scree::solver {

TerrainField terrain_field(const formats::Terrain& terrain, const std::filesystem::path& file) {
  const openvdb::FloatGrid& phi = *terrain.phi;
  const openvdb::math::Transform& xform = phi.transform();
  const double h = xform.voxelSize()[0];
  const openvdb::Vec3d o = xform.indexToWorld(openvdb::Vec3d(0, 0, 0));
  for (int axis = 0; axis < 3; ++axis) {
    openvdb::Vec3d step = xform.indexToWorld(openvdb::Vec3d(axis == 0, axis == 1, axis == 2)) - o;
    step[axis] -= h;
    if (step.length() > 1e-9 * h)
      throw formats::FileError(file, "the terrain grid is rotated against the world's axes; scree-solve needs "
                                     "index axes along x, y and z");
  }
  const float band = phi.background();
  const openvdb::CoordBBox box = phi.evalActiveVoxelBoundingBox();
  if (box.empty()) throw formats::FileError(file, "the terrain has no band");
  const int nx = box.dim()[0], ny = box.dim()[1];
  const std::size_t columns = std::size_t(nx) * std::size_t(ny);
  // Each column's active run, lowest to highest.
  std::vector<std::int32_t> low(columns, std::numeric_limits<std::int32_t>::max());
  std::vector<std::int32_t> high(columns, std::numeric_limits<std::int32_t>::min());
  for (auto it = phi.cbeginValueOn(); it; ++it) {
    openvdb::CoordBBox voxels;
    it.getBoundingBox(voxels);
    for (int i = voxels.min()[0]; i <= voxels.max()[0]; ++i)
      for (int j = voxels.min()[1]; j <= voxels.max()[1]; ++j) {
        const std::size_t c = std::size_t(i - box.min()[0]) * ny + std::size_t(j - box.min()[1]);
        low[c] = std::min(low[c], voxels.min()[2]);
        high[c] = std::max(high[c], voxels.max()[2]);
      }
  }
  std::vector<std::int32_t> first_k(columns, std::numeric_limits<std::int32_t>::min());
  std::vector<std::uint32_t> start(columns + 1, 0);
  std::vector<float> values;
  auto acc = phi.getConstAccessor();
  for (std::size_t c = 0; c < columns; ++c) {
    start[c] = std::uint32_t(values.size());
    if (low[c] > high[c]) continue;  // no ground here (a masked hole): air all the way down
    const int i = box.min()[0] + int(c / ny), j = box.min()[1] + int(c % ny);
    if (!(acc.getValue({i, j, low[c] - 1}) < 0) || !(acc.getValue({i, j, high[c] + 1}) > 0))
      throw formats::FileError(file, "the terrain is not a height field: the band of column (" + std::to_string(i) +
                                         ", " + std::to_string(j) + ") does not run from ground below to air above");
    first_k[c] = low[c];
    for (int k = low[c]; k <= high[c]; ++k) values.push_back(acc.getValue({i, j, k}));
  }
  start[columns] = std::uint32_t(values.size());
  const openvdb::Vec3d corner = xform.indexToWorld(box.min().asVec3d());
  return TerrainField(Eigen::Vector3d(corner[0], corner[1], o[2]), h, nx, ny,
                      std::move(first_k), std::move(start), std::move(values), band);
}

}  // namespace scree::solver
