#include "ct/read_volume.h"

#include <itkGDCMImageIO.h>
#include <itkGDCMImageIOFactory.h>
#include <itkGDCMSeriesFileNames.h>
#include <itkImageFileReader.h>
#include <itkImageIOFactory.h>
#include <itkImageSeriesReader.h>
#include <itkMetaImageIOFactory.h>
#include <itkNiftiImageIOFactory.h>
#include <itkNrrdImageIOFactory.h>
#include <itkPNGImageIOFactory.h>
#include <itkTIFFImageIOFactory.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>

#include "formats/error.h"

namespace scree::ct {

namespace fs = std::filesystem;
using formats::FileError;

namespace {

using FloatImage = itk::Image<float, 3>;

// ITK finds readers through factories; registering the ones scree reads keeps the link
// explicit (no generated registration header).
void register_formats() {
  static std::once_flag once;
  std::call_once(once, [] {
    itk::NrrdImageIOFactory::RegisterOneFactory();
    itk::MetaImageIOFactory::RegisterOneFactory();
    itk::NiftiImageIOFactory::RegisterOneFactory();
    itk::TIFFImageIOFactory::RegisterOneFactory();
    itk::PNGImageIOFactory::RegisterOneFactory();
    itk::GDCMImageIOFactory::RegisterOneFactory();
  });
}

// ITK's descriptions run over several lines; the tool prints one.
std::string first_line(const itk::ExceptionObject& e) {
  std::string d = e.GetDescription();
  d = d.substr(0, d.find('\n'));
  return d.empty() ? "ITK could not read it" : d;
}

std::string component_name(itk::IOComponentEnum c) {
  switch (c) {
    case itk::IOComponentEnum::UCHAR: return "uint8";
    case itk::IOComponentEnum::CHAR: return "int8";
    case itk::IOComponentEnum::USHORT: return "uint16";
    case itk::IOComponentEnum::SHORT: return "int16";
    case itk::IOComponentEnum::UINT: return "uint32";
    case itk::IOComponentEnum::INT: return "int32";
    case itk::IOComponentEnum::ULONG:
    case itk::IOComponentEnum::ULONGLONG: return "uint64";
    case itk::IOComponentEnum::LONG:
    case itk::IOComponentEnum::LONGLONG: return "int64";
    case itk::IOComponentEnum::FLOAT: return "float32";
    case itk::IOComponentEnum::DOUBLE: return "float64";
    default: return "unknown";
  }
}

// "slice2" before "slice10": runs of digits compare as numbers.
bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit((unsigned char)a[i]) && std::isdigit((unsigned char)b[j])) {
      std::size_t i1 = i, j1 = j;
      while (i1 < a.size() && std::isdigit((unsigned char)a[i1])) ++i1;
      while (j1 < b.size() && std::isdigit((unsigned char)b[j1])) ++j1;
      std::string x = a.substr(i, i1 - i), y = b.substr(j, j1 - j);
      x.erase(0, std::min(x.find_first_not_of('0'), x.size()));
      y.erase(0, std::min(y.find_first_not_of('0'), y.size()));
      if (x.size() != y.size()) return x.size() < y.size();
      if (x != y) return x < y;
      i = i1, j = j1;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i, ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

itk::ImageIOBase::Pointer image_io(const fs::path& file) {
  register_formats();
  auto io = itk::ImageIOFactory::CreateImageIO(file.c_str(), itk::IOFileModeEnum::ReadMode);
  if (!io) throw FileError(file, "not an image format scree-ct reads (NRRD, MetaImage, NIfTI, TIFF, PNG, DICOM)");
  try {
    io->SetFileName(file.string());
    io->ReadImageInformation();
  } catch (const itk::ExceptionObject& e) {
    throw FileError(file, first_line(e));
  }
  if (io->GetNumberOfComponents() != 1)
    throw FileError(file, "has " + std::to_string(io->GetNumberOfComponents()) +
                              " values per voxel; scree-ct needs a greyscale or label volume");
  return io;
}

FileError flat_image(const fs::path& path, std::size_t nx, std::size_t ny) {
  return FileError(path, "is a 2-D image (" + std::to_string(nx) + " × " + std::to_string(ny) +
                             "): scree-ct needs a 3-D volume (a 3-D format, a multi-page TIFF or a folder of slices)");
}

// TIFF and PNG carry no trustworthy voxel size (resolution tags are for printing).
bool states_voxel_size(const itk::ImageIOBase& io) {
  const std::string name = io.GetNameOfClass();
  return name != "TIFFImageIO" && name != "PNGImageIO";
}

Volume from_image(const fs::path& path, FloatImage& image, const std::string& type, double unit) {
  Volume v;
  const auto size = image.GetLargestPossibleRegion().GetSize();
  for (int a = 0; a < 3; ++a) {
    v.size[a] = size[a];
    v.spacing[a] = image.GetSpacing()[a] * unit;
    v.origin[a] = image.GetOrigin()[a] * unit;
  }
  if (v.size[2] < 2) throw flat_image(path, v.size[0], v.size[1]);
  v.values.assign(image.GetBufferPointer(), image.GetBufferPointer() + v.voxel_count());
  v.voxel_type = type;
  return v;
}

template <class Reader>
FloatImage::Pointer run_reader(Reader& reader, const fs::path& path) {
  try {
    reader.Update();
  } catch (const itk::ExceptionObject& e) {
    throw FileError(path, first_line(e));
  }
  return reader.GetOutput();
}

Volume read_file(const fs::path& file, bool& voxel_size_known, double unit) {
  auto io = image_io(file);
  const unsigned dims = io->GetNumberOfDimensions();
  if (dims < 3 || (dims == 3 && io->GetDimensions(2) < 2)) throw flat_image(file, io->GetDimensions(0), io->GetDimensions(1));
  if (dims > 3)
    for (unsigned d = 3; d < dims; ++d)
      if (io->GetDimensions(d) > 1) throw FileError(file, "has " + std::to_string(dims) + " dimensions; scree-ct needs a 3-D volume");
  voxel_size_known = states_voxel_size(*io);
  auto reader = itk::ImageFileReader<FloatImage>::New();
  reader->SetFileName(file.string());
  reader->SetImageIO(io);
  return from_image(file, *run_reader(*reader, file), component_name(io->GetComponentType()), unit);
}

Volume read_dicom_series(const fs::path& folder, double unit) {
  auto names = itk::GDCMSeriesFileNames::New();
  names->SetUseSeriesDetails(true);
  names->SetDirectory(folder.string());
  const auto series = names->GetSeriesUIDs();
  if (series.empty()) throw FileError(folder, "holds no DICOM series");
  if (series.size() > 1)
    throw FileError(folder, "holds " + std::to_string(series.size()) + " DICOM series; give a folder with one");
  auto reader = itk::ImageSeriesReader<FloatImage>::New();
  auto io = itk::GDCMImageIO::New();
  reader->SetImageIO(io);
  reader->SetFileNames(names->GetFileNames(series.front()));
  auto image = run_reader(*reader, folder);
  return from_image(folder, *image, component_name(io->GetComponentType()), unit);
}

Volume read_slices(const fs::path& folder, bool& voxel_size_known, double unit) {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name[0] != '.' && name != "DICOMDIR") files.push_back(entry.path().string());
  }
  if (files.empty()) throw FileError(folder, "holds no image slices");
  std::sort(files.begin(), files.end(), natural_less);
  register_formats();
  if (itk::GDCMImageIO::New()->CanReadFile(files.front().c_str())) {
    voxel_size_known = true;
    return read_dicom_series(folder, unit);
  }
  // Every slice one 2-D image of the first one's size, so that a stray file is named.
  std::array<std::size_t, 2> size{};
  itk::IOComponentEnum type{};
  for (std::size_t s = 0; s < files.size(); ++s) {
    auto io = image_io(files[s]);
    const bool flat = io->GetNumberOfDimensions() == 2 || (io->GetNumberOfDimensions() == 3 && io->GetDimensions(2) == 1);
    if (!flat) throw FileError(files[s], "is not a 2-D slice (a folder of slices holds one 2-D image per file)");
    const std::array<std::size_t, 2> here{io->GetDimensions(0), io->GetDimensions(1)};
    if (s == 0) {
      size = here, type = io->GetComponentType();
      voxel_size_known = states_voxel_size(*io);
    } else if (here != size) {
      throw FileError(files[s], "is " + std::to_string(here[0]) + " × " + std::to_string(here[1]) + ", the first slice " +
                                    std::to_string(size[0]) + " × " + std::to_string(size[1]));
    }
  }
  if (files.size() < 2) throw FileError(folder, "holds one slice: scree-ct needs a 3-D volume");
  auto reader = itk::ImageSeriesReader<FloatImage>::New();
  reader->SetFileNames(files);
  return from_image(folder, *run_reader(*reader, folder), component_name(type), unit);
}

template <class T>
void convert_raw(const std::vector<char>& bytes, bool swap, std::vector<float>& out) {
  for (std::size_t n = 0; n < out.size(); ++n) {
    char b[sizeof(T)];
    std::memcpy(b, bytes.data() + n * sizeof(T), sizeof(T));
    if (swap) std::reverse(b, b + sizeof(T));
    T value;
    std::memcpy(&value, b, sizeof(T));
    out[n] = float(value);
  }
}

Volume read_raw(const fs::path& file, const RawLayout& layout) {
  const std::size_t bytes_per = raw_type_bytes(layout.type);
  if (bytes_per == 0) throw FileError(file, "unknown raw voxel type '" + layout.type + "' (" + raw_types() + ")");
  for (int a = 0; a < 3; ++a)
    if (layout.size[a] == 0) throw FileError(file, "raw dimensions must all be ≥ 1");
  if (layout.size[2] < 2) throw FileError(file, "raw dimensions describe a 2-D image: scree-ct needs a 3-D volume");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw FileError(file, "cannot open");
  const auto length = std::uintmax_t(fs::file_size(file));
  const std::size_t count = layout.size[0] * layout.size[1] * layout.size[2];
  const std::uintmax_t expected = layout.header_bytes + std::uintmax_t(count) * bytes_per;
  if (length != expected) {
    std::ostringstream s;
    s << "is " << length << " bytes, but " << layout.size[0] << " × " << layout.size[1] << " × " << layout.size[2]
      << " " << layout.type << " voxels" << (layout.header_bytes ? " after the header" : "") << " need " << expected;
    if (length > layout.header_bytes && (length - layout.header_bytes) % bytes_per == 0 && layout.size[0] * layout.size[1] > 0) {
      const std::uintmax_t slice = std::uintmax_t(layout.size[0]) * layout.size[1] * bytes_per;
      if ((length - layout.header_bytes) % slice == 0) s << " (the file holds " << (length - layout.header_bytes) / slice << " slices)";
    }
    throw FileError(file, s.str());
  }
  std::vector<char> bytes(count * bytes_per);
  in.seekg(std::streamoff(layout.header_bytes));
  if (!in.read(bytes.data(), std::streamsize(bytes.size()))) throw FileError(file, "cannot read its voxels");
  Volume v;
  v.size = layout.size;
  v.voxel_type = layout.type;
  v.values.resize(count);
  const bool swap = layout.big_endian != (std::endian::native == std::endian::big);
  const std::string& t = layout.type;
  if (t == "uint8") convert_raw<std::uint8_t>(bytes, swap, v.values);
  if (t == "int8") convert_raw<std::int8_t>(bytes, swap, v.values);
  if (t == "uint16") convert_raw<std::uint16_t>(bytes, swap, v.values);
  if (t == "int16") convert_raw<std::int16_t>(bytes, swap, v.values);
  if (t == "uint32") convert_raw<std::uint32_t>(bytes, swap, v.values);
  if (t == "int32") convert_raw<std::int32_t>(bytes, swap, v.values);
  if (t == "float32") convert_raw<float>(bytes, swap, v.values);
  if (t == "float64") convert_raw<double>(bytes, swap, v.values);
  return v;
}

}  // namespace

const char* raw_types() { return "uint8, int8, uint16, int16, uint32, int32, float32, float64"; }

std::size_t raw_type_bytes(const std::string& type) {
  if (type == "uint8" || type == "int8") return 1;
  if (type == "uint16" || type == "int16") return 2;
  if (type == "uint32" || type == "int32" || type == "float32") return 4;
  if (type == "float64") return 8;
  return 0;
}

Volume read_volume(const fs::path& path, const ReadOptions& options) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw FileError(path, "no such file or folder");
  bool voxel_size_known = false;
  Volume v;
  if (options.raw) {
    if (fs::is_directory(path)) throw FileError(path, "is a folder; raw flags describe one file");
    v = read_raw(path, *options.raw);
  } else if (fs::is_directory(path)) {
    v = read_slices(path, voxel_size_known, options.header_unit);
  } else {
    v = read_file(path, voxel_size_known, options.header_unit);
  }
  if (options.voxel_size) {
    v.spacing = *options.voxel_size;
  } else if (!voxel_size_known) {
    throw FileError(path, "states no voxel size (raw, TIFF and PNG do not): give --voxel-size");
  }
  for (double s : v.spacing)
    if (!(std::isfinite(s) && s > 0)) throw FileError(path, "has a voxel size that is not > 0");
  for (float x : v.values)
    if (!std::isfinite(x)) throw FileError(path, "holds voxels that are not finite numbers");
  return v;
}

}  // namespace scree::ct
