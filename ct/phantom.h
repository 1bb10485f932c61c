#pragma once
// A synthetic CT scan with known answers: spheres and superellipsoids at random places and
// turns, some in contact (pairs and a chain of three), rendered by their voxel fill fraction,
// blurred by a Gaussian point spread and given Gaussian noise. The grains' volumes and
// centroids are known in closed form, so segmentation and avatars can be checked against them.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "ct/volume.h"

namespace scree::ct {

struct PhantomOptions {
  std::array<std::size_t, 3> size{96, 96, 96};  // voxels
  double voxel_size = 1e-4;                     // metres (0.1 mm)
  double pore_grey = 60, solid_grey = 180;      // grey values of pore and solid
  double blur = 0.8;                            // σ of the point spread, voxels
  double noise = 6;                             // σ of the noise, grey values
  std::uint64_t seed = 1;
};

struct PhantomGrain {
  std::string shape;                  // "sphere r=..." or "superellipsoid ..."
  std::array<double, 3> centre{};     // m, scan frame (the centroid: the shapes are symmetric)
  double volume = 0;                  // m³, closed form
  std::uint32_t touches = 0;          // the grain (1-based) it was placed against, 0: none
};

struct Phantom {
  Volume grey;                       // the scan
  Labels labels;                     // truth: each voxel centre's grain (0: pore)
  std::vector<PhantomGrain> grains;  // label i is grains[i − 1]
};

// The same options (seed included) give the same phantom. std::invalid_argument when the
// volume is too small for the grains (less than 64 voxels along an axis) or a value is bad.
Phantom make_phantom(const PhantomOptions& options);

}  // namespace scree::ct
