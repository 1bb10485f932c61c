#pragma once
// The zero of a level set as triangles (OpenVDB's volume to mesh), facing out of the negative
// side: the surface ParaView draws for grains and ground.
#include <openvdb/openvdb.h>

#include "formats/vtk_file.h"

namespace scree::post {

// `adaptivity` 0 keeps a polygon per voxel the surface crosses; towards 1 flat regions merge
// into fewer, larger ones. With a `mask`, polygons only in its active voxels. Points in the
// grid's world frame; no data arrays.
formats::TriangleSurface zero_surface(const openvdb::FloatGrid& phi, double adaptivity,
                                      const openvdb::BoolGrid::ConstPtr& mask = nullptr);

}  // namespace scree::post
