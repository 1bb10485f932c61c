#pragma once
// Fewer triangles for the same shape: quadric edge collapse (Garland and Heckbert, through
// VTK's vtkQuadricDecimation) with volume preservation. Light header: VTK stays in the .cpp.
#include <cstddef>

#include "formats/vtk_file.h"

namespace scree::post {

// The surface with about `triangles` triangles (unchanged when it has no more than that);
// its data arrays are dropped.
formats::TriangleSurface decimate(const formats::TriangleSurface& surface, std::size_t triangles);

}  // namespace scree::post
