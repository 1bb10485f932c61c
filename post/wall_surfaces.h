#pragma once
// Walls as ParaView draws them: a box's six faces, a plane as a square patch.
#include <array>
#include <vector>

#include "formats/case.h"
#include "formats/vtk_file.h"

namespace scree::post {

// The case's walls where they are at `time` (case positions are at t = 0; each moves at its
// prescribed velocity), facing the side the grains live on. A plane is drawn as a square of
// side `plane_size` centred on the point of the plane nearest to `centre`. Cell data `wall`
// (its index in the case), Int64.
formats::TriangleSurface wall_surfaces(const std::vector<formats::Wall>& walls, double time,
                                       const std::array<double, 3>& centre, double plane_size);

}  // namespace scree::post
