#pragma once
// Closed triangle meshes as shapes: topology check, enclosed volume, and the interface on a
// grid by ray parity along the grid lines (exact crossings, no distance queries).
#include <string>

#include "formats/mesh_file.h"
#include "levelset/interface.h"

namespace scree::levelset {

// Why the mesh does not bound a solid (empty when it does): every edge must belong to
// exactly two triangles.
std::string open_mesh_problem(const formats::TriangleMesh& mesh);

// Closes the holes of a mesh whose open edges form simple loops (a scan with a missing
// facet or two): each loop is filled with a fan of triangles. Returns what was done, e.g.
// "filled 1 hole with 1 triangle", empty when the mesh was closed; std::runtime_error
// (naming the problem) when it cannot be repaired this way.
std::string fill_holes(formats::TriangleMesh& mesh);

// |Σ v0 · (v1 × v2)| / 6 over the triangles (divergence theorem); needs consistent winding.
double enclosed_volume(const formats::TriangleMesh& mesh);

void scale_mesh(formats::TriangleMesh& mesh, double factor);
void mesh_bounds(const formats::TriangleMesh& mesh, Vec3d& lower, Vec3d& upper);

// Casts the grid lines along x, y and z through the mesh. A grid point is inside when at
// least two of its three lines say so by parity; crossings come from the hits themselves,
// surface distances (within 4 voxels) from the triangles. The samples refer to `mesh`,
// which must outlive them.
InterfaceSamples sample_mesh(const formats::TriangleMesh& mesh, double voxel_size);

}  // namespace scree::levelset
