#pragma once
// Reading CT volumes: any 3-D format ITK reads (NRRD, MetaImage, NIfTI, multi-page TIFF,
// ...), a folder of slices (TIFF or PNG in natural name order, or one DICOM series ordered
// by slice position), or a headerless raw file laid out as the flags say. Light header.
#include <array>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

#include "ct/volume.h"

namespace scree::ct {

// A headerless volume: `header_bytes` skipped, then size[0]·size[1]·size[2] values, x fastest.
struct RawLayout {
  std::array<std::size_t, 3> size{};
  std::string type = "uint8";  // one of raw_types()
  bool big_endian = false;
  std::size_t header_bytes = 0;
};

// "uint8, int8, uint16, int16, uint32, int32, float32, float64"
const char* raw_types();
std::size_t raw_type_bytes(const std::string& type);  // 0 for an unknown type

struct ReadOptions {
  std::optional<RawLayout> raw;                    // set: a raw file; else a header says
  std::optional<std::array<double, 3>> voxel_size;  // metres; overrides the header
  double header_unit = 1e-3;  // metres per length unit of the header (DICOM, NIfTI: mm)
};

// FileError naming the file: unreadable, not 3-D (a single slice), more than one value per
// voxel, a raw file whose length disagrees with its layout, a folder with no slices or
// slices of different sizes, or a format with no voxel size (TIFF, PNG, raw) and none given.
Volume read_volume(const std::filesystem::path& path, const ReadOptions& options);

}  // namespace scree::ct
