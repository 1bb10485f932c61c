#pragma once
// From a CT volume to grain labels: a greyscale volume is smoothed (optionally), thresholded
// (Otsu's threshold unless one is given) into a solid mask, cleaned (solid specks removed,
// small pores inside the solid filled), and touching grains are separated by a marker-based
// watershed of the distance map (markers: the h-maxima of the distance to the pore space,
// so a neck splits two grains when both sides rise more than h above it). A binary mask
// skips the threshold; a label image is taken as is. Light header: ITK stays in the .cpp.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ct/volume.h"

namespace scree::ct {

enum class InputKind { grey, mask, labels };
InputKind parse_input_kind(const std::string& name);  // "grey", "mask", "labels"

struct SegmentOptions {
  InputKind input = InputKind::grey;
  std::optional<double> threshold;  // grey: the grey value between pore and solid; if unset,
                                    // Otsu's, or halfway between the two phases' grey levels
  bool halfway = false;             // grey, no threshold: halfway_threshold, not Otsu's
  bool solid_dark = false;          // grey: the solid is darker than the pores; mask: the solid is 0
  double smooth = 0;                // grey: Gaussian σ in voxels before the threshold (0: none)
  std::size_t speck_voxels = 8;     // solid pieces and enclosed pores smaller than this go
  double separation = 1.2;          // h of the h-maxima, in voxels: above the one-voxel steps of a
                                    // voxelised distance; 0: one grain per solid piece
};

struct Segmentation {
  Labels labels;  // grains 1..count, largest first (a label image: in order of its labels)
  // The field whose `level` crossing is the grain surface, for sub-voxel placement: the
  // (smoothed) grey values, negated when the solid is dark; a 0/1 mask for masks and labels.
  std::vector<float> field;
  double level = 0.5;
  double threshold = 0;            // grey: the threshold used, in the volume's grey values
  double pore_level = 0, solid_level = 0;  // grey, halfway threshold: the two phases' peaks
  std::vector<std::uint32_t> source_label;  // labels input: each grain's label in the file
  std::size_t specks_removed = 0, pores_filled = 0;  // pieces, not voxels
  double solid_fraction = 0;       // after clean-up
};

// FileError naming `file` for a volume with nothing to segment: one grey value everywhere,
// no solid, no pore, or a label image with values that are not whole numbers ≥ 0.
Segmentation segment(const Volume& volume, const SegmentOptions& options, const std::string& file);

// Otsu's threshold of values (256 bins between the smallest and the largest): the one that
// maximises the variance between the two classes.
double otsu_threshold(const std::vector<float>& values);

// Halfway between the grey levels of the two phases, each the peak of the histogram (256
// bins, smoothed over 5) on its side of Otsu's threshold: the level at which a blurred edge
// between the phases lies where the edge is (ISO-50), where Otsu's threshold leans towards
// the phase with fewer voxels. Also returns the two levels.
double halfway_threshold(const std::vector<float>& values, double& pore_level, double& solid_level);

}  // namespace scree::ct
