#pragma once
// Writing CT volumes through ITK, for phantoms and label images: NRRD (.nrrd), MetaImage
// (.mha), NIfTI (.nii), a multi-page TIFF (.tif, .tiff), or a folder of slices when the path
// ends in '/': TIFF (slice_0000.tif, ...) or a DICOM series (slice_0000.dcm, ...: one study
// and series, each slice's position, spacing and instance number). Light header.
#include <filesystem>
#include <string>

#include "ct/volume.h"

namespace scree::ct {

enum class SliceFormat { tiff, dicom };

// Values rounded and clamped to `voxel_type` ("uint8", "uint16" or "float32"; DICOM: not
// float32); lengths in the header in units of `header_unit` metres (mm by default, as CT
// headers are; DICOM is always mm). Written atomically: a file under a temporary name, a
// folder filled under a temporary name, then renamed. FileError naming the path when it
// cannot be written.
void write_volume(const std::filesystem::path& path, const Volume& volume, const std::string& voxel_type,
                  double header_unit = 1e-3, SliceFormat slices = SliceFormat::tiff);

}  // namespace scree::ct
