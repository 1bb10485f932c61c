#pragma once
// Grain avatars (.vdb): one file per grain shape (template), specified in docs/formats.md.
// Includes OpenVDB: include this only where level sets are handled.
#include <openvdb/openvdb.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace scree::formats {

struct AvatarProperties {
  double volume = 0;                              // m³
  std::array<double, 3> inertia_per_density{};    // principal I/ρ about body x, y, z, m⁵
  // x_body = M · (x_source, 1), row major 4×4, last row (0, 0, 0, 1): rotation, scale
  // (source units to metres) and translation from the scan/mesh frame to the body frame.
  std::array<double, 16> source_to_body{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  std::string provenance;  // free text: source file, tool and options
};

struct Avatar {
  openvdb::FloatGrid::Ptr phi;  // level set, negative inside, body frame, metres
  std::vector<std::array<float, 3>> nodes;  // boundary nodes, body frame, metres
  AvatarProperties properties;

  double voxel_size() const { return phi->voxelSize()[0]; }
};

// write_avatar refuses (FileError, no file written) what read_avatar would refuse.
void write_avatar(const std::filesystem::path& file, const Avatar& avatar);
Avatar read_avatar(const std::filesystem::path& file);

// Where boundary node i is stored in the "nodes" grid: (⌊i/64⌋, ⌊i/8⌋ mod 8, i mod 8), which
// fills whole 8³ leaves and lets a reader copy the grid into an (n/64, 8, 8, 3) array.
openvdb::Coord node_coord(std::size_t i);

}  // namespace scree::formats
