#pragma once
// Undoing a scanner's blur on a level set placed at the half-way grey value. A Gaussian
// point spread of standard deviation σ moves the half-way level of a smooth surface inward
// by (σ²/2)(κ₁ + κ₂) (the heat equation at the profile's inflection; σ²/R on a sphere): 5 %
// of the volume of a grain 10 voxels across at σ = 0.85 voxels. The correction moves the zero
// level back outward by that much, the mean curvature taken from the level set itself.
#include <openvdb/openvdb.h>

namespace scree::levelset {

// φ ← φ − (σ²/2) Δφ on every active voxel, Δφ by the 7-point Laplacian, its magnitude capped
// at 1/h (curvature radii below one voxel are the medial axis, not the surface). σ in metres.
void undo_blur(openvdb::FloatGrid& phi, double sigma);

}  // namespace scree::levelset
