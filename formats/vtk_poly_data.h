#pragma once
// A TriangleSurface or LineNetwork as VTK's polygonal data, for the writer and for rendering. Includes VTK:
// only code that hands surfaces to VTK includes this.
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>

#include "formats/vtk_file.h"

namespace scree::formats {

// std::invalid_argument for a triangle naming a missing point or a data array of the wrong size.
vtkSmartPointer<vtkPolyData> to_poly_data(const TriangleSurface& surface);
vtkSmartPointer<vtkPolyData> to_poly_data(const LineNetwork& network);

}  // namespace scree::formats
