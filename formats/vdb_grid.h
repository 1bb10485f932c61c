#pragma once
// Grids of .vdb files read without OpenVDB. The solver loads avatars and terrains through
// this: linking libopenvdb costs a process ~27 MB of resident memory before it does anything
// (its symbol tables are touched at load), more than a thousand grains' state. Reads what
// OpenVDB's io::File writes (file format 222 on; tested against OpenVDB 10): float and vec3s
// trees of the standard 5-4-3 layout, uncompressed, zip or blosc, with or without
// active-mask compression. Light header.
#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace scree::formats {

using VoxelCoord = std::array<int, 3>;

// A metadata value as OpenVDB stores it: its type name ("double", "string", "vec3d", ...)
// and its bytes.
struct VdbMetadata {
  std::string type;
  std::string bytes;
};

// One grid: a tree of internal nodes (32³ and 16³ entries) over 8³ leaves, each entry a child
// or a tile (one value over the child's extent), under a root of 4096³ children and tiles.
class VdbGrid {
 public:
  std::string name;
  std::string grid_class = "unknown";  // as OpenVDB spells it: "level set", "fog volume", ...
  int components = 1;                  // 1 (float) or 3 (vec3s)
  std::map<std::string, VdbMetadata> metadata;
  // world = A · index + t with A = index_to_world[0..2][0..2], t = index_to_world[0..2][3]
  // (row major, last row 0 0 0 1).
  std::array<double, 16> index_to_world{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  std::array<float, 3> background{};

  // The value at a voxel (`components` floats): its leaf's, else the tile's above it, else
  // the background.
  const float* value(const VoxelCoord& ijk) const;
  bool is_active(const VoxelCoord& ijk) const;

  // Active voxels and tiles: visit(first voxel, edge in voxels, value).
  void for_each_active(const std::function<void(const VoxelCoord&, int, const float*)>& visit) const;
  // Every stored value (voxels, tiles), in tree order: visit(first voxel, value).
  void for_each_value(const std::function<void(const VoxelCoord&, const float*)>& visit) const;
  std::uint64_t active_voxel_count() const;
  // The box of active voxels and tiles, inclusive; min > max when there is none.
  std::array<VoxelCoord, 2> active_box() const;

  // Building a tree (the reader, and copies of OpenVDB grids): a tile or a child in a node's
  // entry. level 2: a root entry (4096³), 1: an upper-node entry (128³), 0: a lower-node
  // entry (8³). Nodes above are created, with background tiles, as needed.
  void set_tile(int level, const VoxelCoord& ijk, const float* value, bool active);
  // The leaf holding `ijk` (created, inactive background, when missing): its 512·components
  // values and its 8 words of active bits, voxel (x, y, z) at (x & 7) · 64 + (y & 7) · 8 + (z & 7).
  struct LeafRef {
    float* values;
    std::uint64_t* active;
  };
  LeafRef leaf(const VoxelCoord& ijk);

 private:
  struct Node {
    VoxelCoord origin;
    std::vector<float> values;         // per entry (tiles; leaves: voxels)
    std::vector<std::uint64_t> active;  // per entry
    std::vector<std::int32_t> child;   // internal nodes: index in the level below, −1: tile
  };
  struct RootEntry {
    std::int32_t child = -1;
    std::array<float, 3> value{};
    bool active = false;
  };
  std::array<std::vector<Node>, 3> nodes_;  // leaves, lower (16³), upper (32³)
  std::map<VoxelCoord, RootEntry> root_;

  struct Entry {
    const float* value;
    bool active;
  };
  Entry entry_at(const VoxelCoord& ijk) const;  // the leaf voxel or tile holding ijk
  std::int32_t child_of(int level, const VoxelCoord& ijk, bool create);
  void visit_entries(const std::function<void(const VoxelCoord&, int, const float*, bool)>& visit) const;
  void visit_node(int level, std::int32_t index,
                  const std::function<void(const VoxelCoord&, int, const float*, bool)>& visit) const;
};

// The float and vec3s grids of a file, in file order. FileError when the file is missing,
// is not a VDB file, is truncated, or holds what this reader does not know (half floats,
// other tree layouts); grids of other value types are skipped.
std::vector<VdbGrid> read_vdb_grids(const std::filesystem::path& file);

}  // namespace scree::formats
