#include "ct/write_volume.h"

#include <gdcmUIDGenerator.h>
#include <itkGDCMImageIO.h>
#include <itkImage.h>
#include <itkImageFileWriter.h>
#include <itkImageIOFactory.h>
#include <itkImageSeriesWriter.h>
#include <itkMetaDataObject.h>
#include <itkMetaImageIO.h>
#include <itkNiftiImageIO.h>
#include <itkNrrdImageIO.h>
#include <itkNumericSeriesFileNames.h>
#include <itkTIFFImageIO.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <regex>
#include <sstream>

#include "formats/error.h"

namespace scree::ct {

namespace fs = std::filesystem;
using formats::FileError;

namespace {

template <class T>
typename itk::Image<T, 3>::Pointer to_image(const Volume& v, double unit) {
  using Image = itk::Image<T, 3>;
  auto image = Image::New();
  typename Image::SizeType size;
  typename Image::SpacingType spacing;
  typename Image::PointType origin;
  for (int a = 0; a < 3; ++a) {
    size[a] = v.size[a];
    spacing[a] = v.spacing[a] / unit;
    origin[a] = v.origin[a] / unit;
  }
  image->SetRegions(typename Image::RegionType(size));
  image->SetSpacing(spacing);
  image->SetOrigin(origin);
  image->Allocate();
  T* out = image->GetBufferPointer();
  for (std::size_t n = 0; n < v.values.size(); ++n) {
    double x = v.values[n];
    if constexpr (std::numeric_limits<T>::is_integer)
      x = std::clamp(std::round(x), double(std::numeric_limits<T>::lowest()), double(std::numeric_limits<T>::max()));
    out[n] = T(x);
  }
  return image;
}

itk::ImageIOBase::Pointer io_for(const fs::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  if (ext == ".nrrd") return itk::NrrdImageIO::New().GetPointer();
  if (ext == ".mha") return itk::MetaImageIO::New().GetPointer();
  if (ext == ".nii") return itk::NiftiImageIO::New().GetPointer();
  if (ext == ".tif" || ext == ".tiff") return itk::TIFFImageIO::New().GetPointer();
  throw FileError(path, "cannot write this format: use .nrrd, .mha, .nii, .tif or a folder (a path ending in '/')");
}

fs::path temp_beside(const fs::path& target) {
  const fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  return dir / (".tmp-" + std::to_string(::getpid()) + "-" + target.filename().string());
}

// One study, one series, and per slice the tags a DICOM reader orders and places it by:
// position (mm), orientation, pixel spacing (rows, then columns), thickness, instance number.
std::vector<std::unique_ptr<itk::MetaDataDictionary>> dicom_slice_tags(const Volume& v) {
  gdcm::UIDGenerator uid;
  const std::string study = uid.Generate(), series = uid.Generate(), frame = uid.Generate();
  std::vector<std::unique_ptr<itk::MetaDataDictionary>> tags;
  const auto mm = [](double metres) {
    std::ostringstream s;
    s.precision(10);
    s << metres * 1e3;
    return s.str();
  };
  for (std::size_t k = 0; k < v.size[2]; ++k) {
    auto d = std::make_unique<itk::MetaDataDictionary>();
    const auto set = [&](const char* tag, const std::string& value) { itk::EncapsulateMetaData<std::string>(*d, tag, value); };
    set("0008|0060", "CT");
    set("0028|0004", "MONOCHROME2");
    set("0020|000d", study);
    set("0020|000e", series);
    set("0020|0052", frame);
    set("0008|0018", uid.Generate());
    set("0020|0013", std::to_string(k + 1));
    set("0020|0032", mm(v.origin[0]) + "\\" + mm(v.origin[1]) + "\\" + mm(v.origin[2] + double(k) * v.spacing[2]));
    set("0020|0037", "1\\0\\0\\0\\1\\0");
    set("0028|0030", mm(v.spacing[1]) + "\\" + mm(v.spacing[0]));
    set("0018|0050", mm(v.spacing[2]));
    tags.push_back(std::move(d));
  }
  return tags;
}

template <class T>
void write_typed(const fs::path& target, bool folder, SliceFormat slices, const Volume& v, double unit) {
  auto image = to_image<T>(v, unit);
  const fs::path temp = temp_beside(target);
  std::error_code ignored;
  try {
    if (folder) {
      fs::create_directory(temp);
      const bool dicom = slices == SliceFormat::dicom;
      auto names = itk::NumericSeriesFileNames::New();
      names->SetStartIndex(0);
      names->SetEndIndex(itk::SizeValueType(v.size[2] - 1));
      names->SetSeriesFormat((temp / (dicom ? "slice_%04d.dcm" : "slice_%04d.tif")).string());
      using Writer = itk::ImageSeriesWriter<itk::Image<T, 3>, itk::Image<T, 2>>;
      auto writer = Writer::New();
      writer->SetInput(image);
      writer->SetFileNames(names->GetFileNames());
      const auto tags = dicom ? dicom_slice_tags(v) : decltype(dicom_slice_tags(v)){};
      typename Writer::DictionaryArrayType dictionaries;
      for (const auto& d : tags) dictionaries.push_back(d.get());
      if (dicom) {
        auto io = itk::GDCMImageIO::New();
        io->KeepOriginalUIDOn();  // the UIDs set above, not ones ITK makes up
        writer->SetImageIO(io);
        writer->SetMetaDataDictionaryArray(&dictionaries);
      } else {
        writer->SetImageIO(itk::TIFFImageIO::New());
      }
      writer->Update();
    } else {
      auto writer = itk::ImageFileWriter<itk::Image<T, 3>>::New();
      writer->SetImageIO(io_for(target));
      writer->SetFileName(temp.string());
      writer->SetInput(image);
      writer->Update();
    }
  } catch (const itk::ExceptionObject& e) {
    fs::remove_all(temp, ignored);
    std::string d = e.GetDescription();
    throw FileError(target, "cannot write: " + d.substr(0, d.find('\n')));
  }
  if (folder && fs::exists(target)) {
    // Replace an old folder of slices, nothing else.
    const std::regex slice("slice_[0-9]{4,}\\.(tif|dcm)");
    for (const auto& entry : fs::directory_iterator(target))
      if (!std::regex_match(entry.path().filename().string(), slice)) {
        fs::remove_all(temp, ignored);
        throw FileError(target, "cannot write: the folder holds other files than slices");
      }
    fs::remove_all(target, ignored);
  }
  std::error_code ec;
  fs::rename(temp, target, ec);
  if (ec) {
    fs::remove_all(temp, ignored);
    throw FileError(target, "cannot write: " + ec.message());
  }
}

}  // namespace

void write_volume(const fs::path& path, const Volume& volume, const std::string& voxel_type, double header_unit,
                  SliceFormat slices) {
  const bool folder = !path.empty() && path.string().back() == '/';
  const fs::path target = folder ? path.parent_path() : path;
  const fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw FileError(target, "cannot write: directory " + dir.string() + " does not exist");
  if (!folder) {
    io_for(target);  // the format, before any work
    if (fs::is_directory(target, ec)) throw FileError(target, "cannot write: it is a directory");
  }
  if (volume.values.size() != volume.voxel_count()) throw FileError(target, "cannot write: the volume's values do not fill its size");
  const bool dicom = folder && slices == SliceFormat::dicom;
  if (dicom) header_unit = 1e-3;  // DICOM lengths are mm
  if (voxel_type == "uint8") return write_typed<std::uint8_t>(target, folder, slices, volume, header_unit);
  if (voxel_type == "uint16") return write_typed<std::uint16_t>(target, folder, slices, volume, header_unit);
  if (voxel_type == "float32" && !dicom) return write_typed<float>(target, folder, slices, volume, header_unit);
  throw FileError(target, "cannot write voxels of type '" + voxel_type + (dicom ? "' as DICOM (uint8, uint16)" : "' (uint8, uint16, float32)"));
}

}  // namespace scree::ct
