#pragma once
// The steps from a shape to an avatar, as the tools chain them: a level set from interface
// samples (scree-shape), boundary nodes (scree-nodes), mass properties and the body frame
// (scree-inertia).
#include <cstddef>
#include <functional>
#include <string>

#include "formats/avatar.h"
#include "formats/shape.h"
#include "levelset/boundary_nodes.h"
#include "levelset/interface.h"
#include "levelset/mass_properties.h"

namespace scree::levelset {

inline constexpr double min_voxels_across = 4;
// OpenVDB refuses transforms whose voxel volume is below 3e-15 (Maps.h: "Non-zero scale
// values required"): level sets in metres need voxels of 14.5 µm or more.
inline constexpr double min_voxel_size = 1.45e-5;

// std::invalid_argument saying so for a voxel size below min_voxel_size.
void check_voxel_size(double voxel_size);
inline constexpr double min_band = 2 * heaviside_half_width;  // voxels outside

// The voxel size that puts `voxels` voxels across the smallest side of [lower, upper];
// std::invalid_argument when `voxel_size` (given) or `voxels` leaves fewer than
// min_voxels_across, neither is positive, or the voxel is below min_voxel_size.
double choose_voxel_size(const Vec3d& lower, const Vec3d& upper, double voxel_size, double voxels);

// Fast marching from the samples: interior filled, `band` voxels kept outside.
formats::Shape shape_from_samples(InterfaceSamples samples, double band, double source_scale,
                                  const std::string& provenance,
                                  const std::function<void(std::size_t, std::size_t)>& progress = {});

struct Resolution {
  double voxel_size = 0;  // metres; 0: from `voxels`
  double voxels = 20;     // across the smallest side of the shape's bounding box
  double band = 3;        // voxels kept outside
  // Called during fast marching with points done and the expected total.
  std::function<void(std::size_t done, std::size_t total)> progress;
};

// The shape of an implicit surface (already in metres).
formats::Shape implicit_shape(const ImplicitShape& shape, const Resolution& resolution);

// The shape of a closed mesh file, its coordinates times `scale` metres. Holes whose rims
// are simple loops are filled; `repair` says what was done (empty if nothing). FileError
// for an unreadable file, a mesh that cannot be closed or a bad resolution.
formats::Shape mesh_shape(const std::filesystem::path& file, double scale, const Resolution& resolution,
                          std::string& repair);

// Places boundary nodes, from the shape's centroid for rays; returns the method used.
NodeMethod add_nodes(formats::Shape& shape, std::size_t count, NodeMethod method);

// The avatar of a shape that has nodes: the level set's transform, the nodes and the
// source-to-body matrix all move to the body frame (centroid at the origin, principal axes
// along x, y, z); the grid values are not resampled.
formats::Avatar make_avatar(const formats::Shape& shape, MassProperties& mass);

}  // namespace scree::levelset
