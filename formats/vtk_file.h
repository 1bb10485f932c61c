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

enum class ValueType { float64, float32, int64 };

// One value or vector per point (or per cell): `components` numbers each, stored as `type`.
// An int64 array holds its numbers in `integers` (ids up to 2⁶² stay exact), the others in
// `values`.
struct DataArray {
  std::string name;
  int components = 1;
  std::vector<double> values;
  ValueType type = ValueType::float64;
  std::vector<std::int64_t> integers;
};

struct TriangleSurface {
  std::vector<std::array<double, 3>> points;  // written as Float32
  std::vector<std::array<std::uint32_t, 3>> triangles;
  std::vector<DataArray> point_data, cell_data;
};

// Points joined by straight lines (a net's balls and springs).
struct LineNetwork {
  std::vector<std::array<double, 3>> points;  // written as Float32
  std::vector<std::array<std::uint32_t, 2>> lines;
  std::vector<DataArray> point_data, cell_data;  // cell data: one entry per line
};

// Writes atomically (nothing appears under `file` unless all of it was written). FileError
// naming the file when it cannot be written; std::invalid_argument when an array's size does
// not match the points or cells, or a cell names a point that is not there.
void write_vtp(const std::filesystem::path& file, const TriangleSurface& surface);
void write_vtp(const std::filesystem::path& file, const LineNetwork& network);

// A ParaView time series (.pvd): one data file per time, named relative to the .pvd's folder.
struct SeriesEntry {
  double time = 0;  // s
  std::filesystem::path file;
};
// Writes atomically; FileError naming the file when it cannot be written.
void write_pvd(const std::filesystem::path& file, const std::vector<SeriesEntry>& entries);

}  // namespace scree::formats
