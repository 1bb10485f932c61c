#pragma once
// Shape (.vdb): a grain's level set in its source frame, before it becomes an avatar; what
// scree-shape writes and scree-nodes and scree-inertia read. Specified in docs/formats.md.
// Includes OpenVDB: include this only where level sets are handled.
#include <openvdb/openvdb.h>

#include <array>
#include <filesystem>
#include <string>
#include <vector>

namespace scree::formats {

struct Shape {
  openvdb::FloatGrid::Ptr phi;  // level set, negative inside, source frame scaled to metres
  std::vector<std::array<float, 3>> nodes;  // boundary nodes (none until scree-nodes), metres
  double source_scale = 1;  // metres per source unit (mesh or scan coordinates)
  std::string provenance;   // free text: source, tools and options
};

// write_shape refuses (FileError, no file written) what read_shape would refuse.
void write_shape(const std::filesystem::path& file, const Shape& shape);
Shape read_shape(const std::filesystem::path& file);

}  // namespace scree::formats
