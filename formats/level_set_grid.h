#pragma once
// What avatar, shape and terrain files share on reading, without OpenVDB: a float level set
// named "phi" with scree's checks (finite values, cubic voxels, typed metadata) and the
// boundary nodes. Light header.
#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "formats/vdb_grid.h"

namespace scree::formats {

// Where boundary node i is stored in the "nodes" grid: (⌊i/64⌋, ⌊i/8⌋ mod 8, i mod 8), which
// fills whole 8³ leaves and lets a reader copy the grid into an (n/64, 8, 8, 3) array.
VoxelCoord node_coord(std::size_t i);

}  // namespace scree::formats

namespace scree::formats::vdb {

const VdbGrid* find_grid(const std::vector<VdbGrid>& grids, const std::string& name);

// Whether index_to_world (VdbGrid's layout) is linear with cubic voxels (any rotation, any
// voxel size), and the edge of its voxels.
bool cubic_voxels(const std::array<double, 16>& index_to_world);
double voxel_size(const VdbGrid& grid);

// Why `phi` is not a usable level set (empty when it is): float, class "level set", cubic
// voxels, positive finite background, finite values, some voxels inside.
std::string level_set_problem(const VdbGrid& phi);

// The level set "phi" of `grids` (moved out), checked; `kind` ("avatar", "terrain", "shape")
// must match its scree_format metadata.
VdbGrid read_level_set(const std::filesystem::path& file, std::vector<VdbGrid>& grids, const std::string& kind);

// Typed metadata (double, std::int32_t, std::int64_t, std::string, std::array<double, 3> for
// vec3d, std::array<double, 16> for mat4d, row major); FileError "lacks metadata 'x'" or
// "metadata 'x' must be of type <type>, not <type>".
template <class T>
T metadata(const std::filesystem::path& file, const VdbGrid& grid, const std::string& name);

// Boundary nodes (avatar and shape files): a vec3s grid "nodes", node i at node_coord(i),
// counted by the int64 metadata "node_count" of `phi`.
std::string nodes_problem(const std::vector<std::array<float, 3>>& nodes);  // non-finite
std::vector<std::array<float, 3>> read_nodes(const std::filesystem::path& file, const std::vector<VdbGrid>& grids,
                                             const VdbGrid& phi);

}  // namespace scree::formats::vdb
