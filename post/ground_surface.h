#pragma once
// The ground as ParaView draws it: the zero of the terrain's level set as triangles (OpenVDB's
// volume to mesh), where the solver's ground is, in simulation coordinates.
#include "formats/terrain.h"
#include "formats/vtk_file.h"

namespace scree::post {

// Triangles facing up out of the ground, with point data `elevation` (the map height, m: z
// plus the terrain's origin offset) and cell data `slope` (degrees from horizontal). Past the
// DEM's edge the level set holds the distance to the edge, and the surface follows it down
// for up to the band's width before it ends.
formats::TriangleSurface ground_surface(const formats::Terrain& terrain);

}  // namespace scree::post
