#pragma once
// Grain avatars (.vdb): one file per grain shape (template), specified in docs/formats.md.
// Includes OpenVDB: include this only where level sets are handled.
#include <openvdb/openvdb.h>

#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "formats/avatar_file.h"

namespace scree::formats {

struct Avatar {
  openvdb::FloatGrid::Ptr phi;  // level set, negative inside, body frame, metres
  std::vector<std::array<float, 3>> nodes;  // boundary nodes, body frame, metres
  AvatarProperties properties;

  double voxel_size() const { return phi->voxelSize()[0]; }
};

// write_avatar refuses (FileError, no file written) what read_avatar would refuse;
// read_avatar checks as read_avatar_file does, then reads the grid through OpenVDB.
void write_avatar(const std::filesystem::path& file, const Avatar& avatar);
Avatar read_avatar(const std::filesystem::path& file);

}  // namespace scree::formats
