#pragma once
// Grain avatars (.vdb) as the solver reads them, without OpenVDB: the level set as a VdbGrid,
// the boundary nodes and the mass properties. formats/avatar.h has the OpenVDB side (the
// writer, and the reader for tools that work on the grid). Light header.
#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "formats/vdb_grid.h"

namespace scree::formats {

struct AvatarProperties {
  double volume = 0;                              // m³
  std::array<double, 3> inertia_per_density{};    // principal I/ρ about body x, y, z, m⁵
  // x_body = M · (x_source, 1), row major 4×4, last row (0, 0, 0, 1): rotation, scale
  // (source units to metres) and translation from the scan/mesh frame to the body frame.
  std::array<double, 16> source_to_body{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  std::string provenance;  // free text: source file, tool and options
};

struct AvatarFile {
  VdbGrid phi;                              // level set, negative inside, body frame, metres
  std::vector<std::array<float, 3>> nodes;  // boundary nodes, body frame, metres
  AvatarProperties properties;
};

// Everything read_avatar checks; FileError naming the file.
AvatarFile read_avatar_file(const std::filesystem::path& file);

// Why the properties cannot be an avatar's (empty when they can).
std::string properties_problem(const AvatarProperties& p);

}  // namespace scree::formats
