#pragma once
// Triangle meshes from other programs: STL (ASCII and binary) and Wavefront OBJ. Read only;
// scree never writes meshes of its own. Identical vertices are merged, so the triangles
// share vertex indices and the mesh's topology can be checked.
#include <array>
#include <cstdint>
#include <filesystem>
#include <vector>

namespace scree::formats {

struct TriangleMesh {
  std::vector<std::array<double, 3>> vertices;
  std::vector<std::array<std::uint32_t, 3>> triangles;
};

// FileError when the file is missing, empty, truncated, malformed, holds a non-finite
// coordinate or no triangle. The format is chosen by content (binary STL by its size
// formula, ASCII STL by "solid ... facet"), OBJ by the extension .obj.
TriangleMesh read_mesh(const std::filesystem::path& file);

}  // namespace scree::formats
