#pragma once
// A CT volume in memory: one scalar per voxel, x fastest, in the scan frame (the image's
// axes; voxel (0, 0, 0) centred at `origin`). Light header: no ITK.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace scree::ct {

struct Volume {
  std::array<std::size_t, 3> size{};      // voxels along x, y, z
  std::array<double, 3> spacing{1, 1, 1};  // voxel size along x, y, z, metres
  std::array<double, 3> origin{};          // centre of voxel (0, 0, 0), metres
  std::vector<float> values;               // size[0]·size[1]·size[2], x fastest
  std::string voxel_type;                  // as stored: "uint8", "int16", "float32", ...

  std::size_t voxel_count() const { return size[0] * size[1] * size[2]; }
  std::size_t index(std::size_t i, std::size_t j, std::size_t k) const { return (k * size[1] + j) * size[0] + i; }
};

// Grain labels on a volume's voxels: 0 for pore or background, 1..count for the grains.
struct Labels {
  std::array<std::size_t, 3> size{};
  std::vector<std::uint32_t> values;
  std::uint32_t count = 0;
};

}  // namespace scree::ct
