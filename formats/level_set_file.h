#pragma once
// What the avatar and terrain formats share: reading and writing OpenVDB files with scree's
// checks (a float level set named "phi", finite values, typed metadata). Internal to
// scree_formats; only level-set code includes OpenVDB.
#include <openvdb/openvdb.h>

#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "formats/error.h"

namespace scree::formats::vdb {

void initialize();  // openvdb::initialize(), once

// All grids of a file; FileError when it is missing, not a VDB file, or cannot be read.
openvdb::GridPtrVecPtr read_grids(const std::filesystem::path& file);
openvdb::GridBase::Ptr find_grid(const openvdb::GridPtrVec& grids, const std::string& name);

// Whether a transform is linear with cubic voxels (any rotation, any voxel size).
bool cubic_voxels(const openvdb::math::Transform& xform);

// Why `phi` is not a usable level set (empty when it is): float, GRID_LEVEL_SET, uniform
// linear transform, positive finite background, finite values, some voxels inside.
std::string level_set_problem(const openvdb::FloatGrid& phi);

// The level set "phi" of a file, checked; `kind` ("avatar", "terrain") must match its
// scree_format metadata.
openvdb::FloatGrid::Ptr read_level_set(const std::filesystem::path& file,
                                       const openvdb::GridPtrVec& grids, const std::string& kind);

// A copy of `phi` sharing its tree, named "phi", carrying the scree_format header.
openvdb::FloatGrid::Ptr stamped_copy(const openvdb::FloatGrid& phi, const std::string& kind);

// Writes the grids through an AtomicFile.
void write_grids(const std::filesystem::path& file, const openvdb::GridPtrVec& grids);

// Boundary nodes (avatar and shape files): a vec3s grid "nodes", node i at node_coord(i),
// counted by the int64 metadata "node_count" of `phi`.
std::string nodes_problem(const std::vector<std::array<float, 3>>& nodes);  // non-finite
openvdb::Vec3SGrid::Ptr nodes_grid(const std::vector<std::array<float, 3>>& nodes);
std::vector<std::array<float, 3>> read_nodes(const std::filesystem::path& file,
                                             const openvdb::GridPtrVec& grids,
                                             const openvdb::FloatGrid& phi);

// Typed metadata; FileError "missing metadata 'x'" or "metadata 'x' must be <type>".
template <class T>
T metadata(const std::filesystem::path& file, const openvdb::GridBase& grid,
           const std::string& name) {
  auto meta = grid[name];
  if (!meta) throw FileError(file, "grid '" + grid.getName() + "' lacks metadata '" + name + "'");
  auto typed = std::dynamic_pointer_cast<const openvdb::TypedMetadata<T>>(meta);
  if (!typed)
    throw FileError(file, "metadata '" + name + "' must be of type " +
                              openvdb::TypedMetadata<T>::staticTypeName() + ", not " +
                              meta->typeName());
  return typed->value();
}

}  // namespace scree::formats::vdb
