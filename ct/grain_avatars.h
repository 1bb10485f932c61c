#pragma once
// One avatar per segmented grain: the grain's voxels cropped with a margin, its surface
// placed between voxel centres where the grey field crosses the threshold (halfway where the
// grain meets another grain), a level set by scree's fast marching, boundary nodes, mass
// properties and the body frame, as scree-shape makes them. Light header: no OpenVDB.
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "ct/point_spread.h"
#include "ct/segment.h"
#include "ct/volume.h"

namespace scree::ct {

struct AvatarOptions {
  double voxel_size = 0;      // level-set voxel, metres; 0: the scan's smallest voxel size
  double band = 3;            // voxels kept outside
  std::size_t nodes = 1000;   // boundary nodes per grain
  std::string node_method = "auto";
  double point_spread = 0;    // σ of the scanner's blur, metres: the surface is moved out
                              // by it (levelset/blur_correction.h); 0: no correction
  bool estimate_point_spread = false;  // instead: σ fitted to the grains' edges (point_spread.h)
  std::size_t min_voxels = 27;  // grains of fewer voxels are dropped
  bool drop_border = false;     // drop grains that touch the volume's faces
  std::string source;           // the scan, for the avatars' provenance
  std::function<void(std::size_t done, std::size_t total)> progress;
};

struct GrainRecord {
  std::string name;                  // "grain_0001": the file is name + ".vdb"
  std::uint32_t label = 0;           // in the segmentation
  std::uint32_t source_label = 0;    // in the input label image (0 when segmented here)
  std::size_t voxels = 0;            // CT voxels labelled with this grain
  bool touches_border = false;       // some voxel on a face of the volume
  double volume = 0;                 // m³, of the level set
  double equivalent_diameter = 0;    // m, of the sphere of the same volume
  std::array<double, 3> centroid{};  // m, scan frame
  std::array<double, 3> principal{}; // I/ρ about the body axes x, y, z, m⁵
  std::array<double, 3> semi_axes{}; // m, of the ellipsoid with the same inertia, largest first
  double elongation = 0;             // b / a of the semi-axes a ≥ b ≥ c
  double flatness = 0;               // c / b
  double surface_area = 0;           // m²
  double sphericity = 0;             // Wadell: π^(1/3) (6V)^(2/3) / A
  std::size_t node_count = 0;
};

struct GrainSet {
  std::vector<GrainRecord> grains;
  std::size_t dropped_small = 0, dropped_border = 0;
  std::size_t dropped_degenerate = 0;  // too thin for a rigid body's inertia at this resolution
  double voxel_size = 0;  // of the level sets, metres
  double point_spread = 0;  // σ of the blur correction applied, metres
  EdgeFit edge_fit;         // when estimated: the fit σ came from (samples = 0: too few edges)
};

// Grains whose edges the point spread is fitted to: the first this many kept (the largest
// when segmented here), enough for a stable fit and a bounded cost on big scans.
inline constexpr std::size_t point_spread_grains = 200;

// Writes `folder`/<name>.vdb for every grain kept (the folder must exist); grains are
// processed in parallel (OpenMP), the result does not depend on the thread count.
GrainSet write_grain_avatars(const std::filesystem::path& folder, const Volume& volume,
                             const Segmentation& segmentation, const AvatarOptions& options);

}  // namespace scree::ct
