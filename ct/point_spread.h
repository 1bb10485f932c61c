#pragma once
// The scanner's blur, measured on the grains' own edges: every voxel near a grain's surface
// (and near no other grain) gives its grey value against its signed distance from the
// surface, and a step blurred by a Gaussian point spread of standard deviation σ is
//   grey(d) = pore + (solid − pore) · ½ erfc(d / (σ √2))      (d > 0 outside).
// σ, pore and solid are fitted by least squares: σ by a golden-section search on log σ, the
// two grey levels by linear least squares for each σ tried. σ includes everything that
// blurred the field the surface was placed in: the scanner, its voxels (1/12 voxel² of
// variance) and any --smooth. Light header.
#include <cstddef>
#include <vector>

namespace scree::ct {

struct EdgeSample {
  double distance;  // from the surface, positive outside, metres
  double grey;      // the field at that voxel (solid brighter)
};

struct EdgeFit {
  double sigma = 0;              // metres
  double pore = 0, solid = 0;    // the fitted grey levels far from the edge
  double rms = 0;                // of the residuals, grey units
  std::size_t samples = 0;
  bool at_limit = false;         // σ ended on a bound of the search: no edge of that width
};

// Fits σ within [sigma_low, sigma_high] (metres, 0 < low < high); needs at least 16 samples
// (std::invalid_argument otherwise).
EdgeFit fit_edge_profile(const std::vector<EdgeSample>& samples, double sigma_low, double sigma_high);

}  // namespace scree::ct
