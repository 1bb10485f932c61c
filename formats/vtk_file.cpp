#include "formats/vtk_file.h"
#include "formats/vtk_poly_data.h"

#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkFloatArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkTypeInt64Array.h>
#include <vtkXMLPolyDataWriter.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "formats/atomic_file.h"
#include "formats/error.h"

namespace scree::formats {

namespace {

vtkSmartPointer<vtkDataArray> to_vtk(const DataArray& a, std::size_t tuples, const char* what) {
  const bool integer = a.type == ValueType::int64;
  const std::size_t count = integer ? a.integers.size() : a.values.size();
  if (a.components < 1 || count != tuples * std::size_t(a.components))
    throw std::invalid_argument(std::string(what) + " array '" + a.name + "' has " + std::to_string(count) +
                                " values, not " + std::to_string(tuples) + " × " + std::to_string(a.components));
  if (integer) {
    auto out = vtkSmartPointer<vtkTypeInt64Array>::New();
    out->SetName(a.name.c_str());
    out->SetNumberOfComponents(a.components);
    out->SetNumberOfTuples(vtkIdType(tuples));
    for (std::size_t n = 0; n < count; ++n) out->SetValue(vtkIdType(n), a.integers[n]);
    return out;
  }
  vtkSmartPointer<vtkDataArray> out;
  if (a.type == ValueType::float32)
    out = vtkSmartPointer<vtkFloatArray>::New();
  else
    out = vtkSmartPointer<vtkDoubleArray>::New();
  out->SetName(a.name.c_str());
  out->SetNumberOfComponents(a.components);
  out->SetNumberOfTuples(vtkIdType(tuples));
  for (std::size_t t = 0; t < tuples; ++t)
    for (int c = 0; c < a.components; ++c)
      out->SetComponent(vtkIdType(t), c, a.values[t * std::size_t(a.components) + std::size_t(c)]);
  return out;
}

}  // namespace

namespace {

// Points, cells of N points each, and their data, as polygonal data (`polygons`: triangles;
// otherwise lines).
template <std::size_t N>
vtkSmartPointer<vtkPolyData> poly_data(const std::vector<std::array<double, 3>>& point_list,
                                       const std::vector<std::array<std::uint32_t, N>>& cells,
                                       const std::vector<DataArray>& point_data, const std::vector<DataArray>& cell_data) {
  vtkNew<vtkPoints> points;
  points->SetDataTypeToFloat();
  points->SetNumberOfPoints(vtkIdType(point_list.size()));
  for (std::size_t p = 0; p < point_list.size(); ++p) points->SetPoint(vtkIdType(p), point_list[p].data());
  vtkNew<vtkCellArray> cell_array;
  cell_array->AllocateExact(vtkIdType(cells.size()), vtkIdType(N * cells.size()));
  for (const auto& c : cells) {
    vtkIdType ids[N];
    for (std::size_t k = 0; k < N; ++k) {
      if (c[k] >= point_list.size()) throw std::invalid_argument("a cell names a point that is not there");
      ids[k] = c[k];
    }
    cell_array->InsertNextCell(vtkIdType(N), ids);
  }
  auto data = vtkSmartPointer<vtkPolyData>::New();
  data->SetPoints(points);
  if (N == 3)
    data->SetPolys(cell_array);
  else
    data->SetLines(cell_array);
  for (const DataArray& a : point_data) data->GetPointData()->AddArray(to_vtk(a, point_list.size(), "point"));
  for (const DataArray& a : cell_data) data->GetCellData()->AddArray(to_vtk(a, cells.size(), "cell"));
  return data;
}

void write_poly_data(const std::filesystem::path& file, vtkPolyData* data) {
  AtomicFile out(file);
  vtkObject::GlobalWarningDisplayOff();  // a failure is one FileError line, not VTK's own report
  vtkNew<vtkXMLPolyDataWriter> writer;
  writer->SetFileName(out.temp_path().c_str());
  writer->SetInputData(data);
  writer->SetDataModeToAppended();
  writer->EncodeAppendedDataOff();  // raw binary, not base64
  writer->SetCompressorTypeToZLib();
  if (writer->Write() != 1) throw FileError(file, "cannot write the VTK file");
  out.commit();
}

}  // namespace

vtkSmartPointer<vtkPolyData> to_poly_data(const TriangleSurface& s) {
  return poly_data(s.points, s.triangles, s.point_data, s.cell_data);
}

vtkSmartPointer<vtkPolyData> to_poly_data(const LineNetwork& n) { return poly_data(n.points, n.lines, n.point_data, n.cell_data); }

void write_vtp(const std::filesystem::path& file, const TriangleSurface& surface) { write_poly_data(file, to_poly_data(surface)); }

void write_vtp(const std::filesystem::path& file, const LineNetwork& network) { write_poly_data(file, to_poly_data(network)); }

namespace {

std::string xml_escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

void write_pvd(const std::filesystem::path& file, const std::vector<SeriesEntry>& entries) {
  AtomicFile out(file);
  {
    std::ofstream s(out.temp_path());
    s << "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
         "  <Collection>\n";
    char time[32];
    for (const SeriesEntry& e : entries) {
      std::snprintf(time, sizeof time, "%.17g", e.time);
      s << "    <DataSet timestep=\"" << time << "\" group=\"\" part=\"0\" file=\"" << xml_escaped(e.file.generic_string())
        << "\"/>\n";
    }
    s << "  </Collection>\n</VTKFile>\n";
    if (!s.flush()) throw FileError(file, "cannot write");
  }
  out.commit();
}

}  // namespace scree::formats
