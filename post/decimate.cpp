#include "post/decimate.h"

#include <vtkCellArray.h>
#include <vtkIdList.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkQuadricDecimation.h>

namespace scree::post {

formats::TriangleSurface decimate(const formats::TriangleSurface& surface, std::size_t triangles) {
  if (surface.triangles.size() <= triangles) {
    formats::TriangleSurface copy{surface.points, surface.triangles, {}, {}};
    return copy;
  }
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  for (const auto& p : surface.points) points->InsertNextPoint(p.data());
  vtkNew<vtkCellArray> cells;
  for (const auto& t : surface.triangles) {
    const vtkIdType ids[3] = {t[0], t[1], t[2]};
    cells->InsertNextCell(3, ids);
  }
  vtkNew<vtkPolyData> input;
  input->SetPoints(points);
  input->SetPolys(cells);
  vtkNew<vtkQuadricDecimation> collapse;
  collapse->SetInputData(input);
  collapse->SetTargetReduction(1.0 - double(triangles) / double(surface.triangles.size()));
  collapse->VolumePreservationOn();
  collapse->Update();
  vtkPolyData* out = collapse->GetOutput();
  formats::TriangleSurface result;
  for (vtkIdType p = 0; p < out->GetNumberOfPoints(); ++p) {
    std::array<double, 3> x{};
    out->GetPoint(p, x.data());
    result.points.push_back(x);
  }
  vtkNew<vtkIdList> ids;
  for (vtkIdType c = 0; c < out->GetNumberOfCells(); ++c) {
    out->GetCellPoints(c, ids);
    if (ids->GetNumberOfIds() == 3)
      result.triangles.push_back({std::uint32_t(ids->GetId(0)), std::uint32_t(ids->GetId(1)), std::uint32_t(ids->GetId(2))});
  }
  return result;
}

}  // namespace scree::post
