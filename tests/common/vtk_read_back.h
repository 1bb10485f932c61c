#pragma once
// Reading back the ParaView files the tests write, with VTK's own reader, as ParaView would.
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkIdList.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkXMLPolyDataReader.h>

#include <array>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace scree::testing {

struct VtkArray {
  int components = 0;
  int type = 0;  // VTK_FLOAT, VTK_DOUBLE, ...
  bool integer = false;
  std::vector<double> values;          // every array's numbers, as doubles
  std::vector<std::int64_t> integers;  // an integer array's numbers, exactly
};

struct PolyDataRead {
  bool ok = false;
  std::vector<std::array<double, 3>> points;
  std::vector<std::vector<vtkIdType>> cells;
  std::map<std::string, VtkArray> point_data, cell_data;
};

inline std::map<std::string, VtkArray> arrays_of(vtkFieldData* data) {
  std::map<std::string, VtkArray> out;
  for (int a = 0; a < data->GetNumberOfArrays(); ++a) {
    vtkDataArray* array = data->GetArray(a);
    VtkArray& copy = out[array->GetName()];
    copy.components = array->GetNumberOfComponents();
    copy.type = array->GetDataType();
    copy.integer = array->GetDataType() == VTK_LONG || array->GetDataType() == VTK_LONG_LONG ||
                   array->GetDataType() == VTK_ID_TYPE || array->GetDataType() == VTK_INT;
    for (vtkIdType t = 0; t < array->GetNumberOfTuples(); ++t)
      for (int c = 0; c < copy.components; ++c) copy.values.push_back(array->GetComponent(t, c));
    if (copy.integer)
      for (vtkIdType n = 0; n < array->GetNumberOfValues(); ++n) copy.integers.push_back(array->GetVariantValue(n).ToTypeInt64());
  }
  return out;
}

inline PolyDataRead read_vtp(const std::filesystem::path& file) {
  PolyDataRead out;
  vtkNew<vtkXMLPolyDataReader> reader;
  if (!reader->CanReadFile(file.c_str())) return out;
  reader->SetFileName(file.c_str());
  reader->Update();
  vtkPolyData* data = reader->GetOutput();
  if (!data || reader->GetErrorCode() != 0) return out;
  for (vtkIdType p = 0; p < data->GetNumberOfPoints(); ++p) {
    std::array<double, 3> x{};
    data->GetPoint(p, x.data());
    out.points.push_back(x);
  }
  vtkNew<vtkIdList> ids;
  for (vtkIdType c = 0; c < data->GetNumberOfCells(); ++c) {
    data->GetCellPoints(c, ids);
    out.cells.emplace_back(ids->begin(), ids->end());
  }
  out.point_data = arrays_of(data->GetPointData());
  out.cell_data = arrays_of(data->GetCellData());
  out.ok = true;
  return out;
}

}  // namespace scree::testing
