#pragma once
// The narrow-band level set of the ground: negative below it, the exact Euclidean distance
// to the triangles (not the vertical distance) at every grid point within the band. Includes
// OpenVDB: for the terrain tool only.
#include <openvdb/openvdb.h>

#include <cstddef>
#include <functional>

#include "terrain/terrain_surface.h"

namespace scree::terrain {

struct TerrainGrid {
  double voxel_size = 1;               // m
  double band = 3;                     // voxels either side of the ground
  Eigen::Vector3d alignment{0, 0, 0};  // a grid point lies here (a cell centre of the source)
  std::function<void(std::size_t done, std::size_t total)> progress;  // columns
};

// Grid points within `band` voxels of the ground are active and hold ± their distance to it;
// the sign is below or above the ground at the point's x-y (beyond the footprint and in holes:
// below or above the nearest ground point). The two points of a column around the ground are
// set to cross zero at the ground's height (exact where the ground is smooth; at kinks the
// exact distances would put the zero off it). Inactive values are ± band voxels, negative
// below.
openvdb::FloatGrid::Ptr terrain_level_set(const TerrainSurface& surface, const TerrainGrid& grid);

}  // namespace scree::terrain
