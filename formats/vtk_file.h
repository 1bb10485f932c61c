#pragma once
// ParaView files written through VTK's XML writers: a surface of triangles with point and
// cell data (.vtp, binary, zlib-compressed). Light header: VTK stays in vtk_file.cpp, and
// only the tools that write ParaView files link it (scree_vtk).
#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace scree::formats {

// One value or vector per point (or per cell): `components` numbers each, stored as Float64,
// or as Int64 when `integer`.
struct DataArray {
  std::string name;
  int components = 1;
  std::vector<double> values;
  bool integer = false;
};

struct TriangleSurface {
  std::vector<std::array<double, 3>> points;  // written as Float32
  std::vector<std::array<std::uint32_t, 3>> triangles;
  std::vector<DataArray> point_data, cell_data;
};

// Writes atomically (nothing appears under `file` unless all of it was written). FileError
// naming the file when it cannot be written; std::invalid_argument when an array's size does
// not match the points or triangles, or a triangle names a point that is not there.
void write_vtp(const std::filesystem::path& file, const TriangleSurface& surface);

}  // namespace scree::formats
