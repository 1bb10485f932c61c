#pragma once
// The interface of a shape on a grid: which grid points lie inside, and where the surface
// crosses the grid edges. Every way of making a level set (analytic shape, mesh, voxel mask)
// fills these samples; `interface_band` turns them into the boundary values that fast
// marching starts from.
#include <openvdb/openvdb.h>

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "levelset/shapes.h"

namespace scree::levelset {

inline constexpr double max_sample_points = 2e8;  // ~2.6 GB of samples

// Dense samples over the grid points of an index box (std::invalid_argument beyond
// max_sample_points); grid point ijk lies at ijk · h metres.
struct InterfaceSamples {
  InterfaceSamples(const openvdb::CoordBBox& box, double voxel_size);

  openvdb::CoordBBox box;
  double voxel_size;
  std::vector<std::uint8_t> inside;                // 1 where the grid point is inside
  std::vector<std::array<float, 3>> crossing;      // per axis, voxels to the nearest crossing
  // Optional: the distance (metres) from a world point near the surface to the surface, NaN
  // where unknown; sharper boundary values than the crossings alone.
  std::function<double(const Vec3d&)> surface_distance;

  std::size_t index(const openvdb::Coord& c) const {
    const auto d = box.dim();
    return (std::size_t(c[0] - box.min()[0]) * d[1] + (c[1] - box.min()[1])) * d[2] +
           (c[2] - box.min()[2]);
  }
  // The surface crosses the edge from `c` to its +axis neighbour at fraction t ∈ [0, 1].
  void add_crossing(const openvdb::Coord& c, int axis, double t);
};

// The box of grid points that holds [lower, upper] with `margin` points to spare.
openvdb::CoordBBox grid_box(const Vec3d& lower, const Vec3d& upper, double voxel_size, int margin);

// Samples an implicit shape: inside where f < 0, crossings found by bracketed root finding
// of f along each edge whose ends differ, surface distances by closest-point iteration.
InterfaceSamples sample_implicit(const ImplicitShape& shape, double voxel_size);

// Boundary values for fast marching: every grid point with a crossing on one of its edges
// gets ± its distance to the surface, negative inside: the smallest of the surface distance
// (when known) and the distances to the crossings themselves, both distances to points of
// the surface; without a surface distance, h / sqrt(Σ 1/d_a²), the distance to the plane
// through the crossings. Edges whose ends differ but carry no
// crossing (a mesh ray that grazed an edge) count as crossed halfway. The grid's world
// coordinates are the samples' (metres); its index space is shifted to start near 0 at
// the box's corner, which keeps OpenVDB's tree small: use its transform, not ijk · h.
openvdb::FloatGrid::Ptr interface_band(InterfaceSamples& samples);

}  // namespace scree::levelset
