#include "ct/segment.h"

#include <itkConnectedComponentImageFilter.h>
#include <itkHMaximaImageFilter.h>
#include <itkImage.h>
#include <itkMorphologicalWatershedFromMarkersImageFilter.h>
#include <itkRegionalMaximaImageFilter.h>
#include <itkSignedMaurerDistanceMapImageFilter.h>
#include <itkSmoothingRecursiveGaussianImageFilter.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <sstream>

#include "formats/error.h"

namespace scree::ct {

using formats::FileError;

namespace {

using FloatImage = itk::Image<float, 3>;
using MaskImage = itk::Image<std::uint8_t, 3>;
using LabelImage = itk::Image<std::uint32_t, 3>;

template <class Image, class T>
typename Image::Pointer make_image(const Volume& like, const std::vector<T>& values) {
  auto image = Image::New();
  typename Image::SizeType size;
  typename Image::SpacingType spacing;
  for (int a = 0; a < 3; ++a) size[a] = like.size[a], spacing[a] = like.spacing[a];
  image->SetRegions(typename Image::RegionType(size));
  image->SetSpacing(spacing);
  image->Allocate();
  std::copy(values.begin(), values.end(), image->GetBufferPointer());
  return image;
}

template <class Image>
std::vector<typename Image::PixelType> values_of(Image& image) {
  const auto n = image.GetLargestPossibleRegion().GetNumberOfPixels();
  return {image.GetBufferPointer(), image.GetBufferPointer() + n};
}

// Connected pieces of `mask == value` (faces touching), each with its voxel count.
std::vector<std::uint32_t> pieces(const Volume& like, const std::vector<std::uint8_t>& mask, std::uint8_t value,
                                  std::vector<std::size_t>& sizes) {
  std::vector<std::uint8_t> selected(mask.size());
  for (std::size_t n = 0; n < mask.size(); ++n) selected[n] = mask[n] == value;
  auto filter = itk::ConnectedComponentImageFilter<MaskImage, LabelImage>::New();
  filter->SetInput(make_image<MaskImage>(like, selected));
  filter->SetFullyConnected(false);
  filter->Update();
  auto labels = values_of(*filter->GetOutput());
  sizes.assign(filter->GetObjectCount() + 1, 0);
  for (auto l : labels) ++sizes[l];
  return labels;
}

// Flips every piece of `value` smaller than `limit` voxels to the other value; returns how many.
std::size_t remove_small_pieces(const Volume& like, std::vector<std::uint8_t>& mask, std::uint8_t value,
                                std::size_t limit) {
  std::vector<std::size_t> sizes;
  const auto labels = pieces(like, mask, value, sizes);
  std::size_t removed = 0;
  for (std::size_t l = 1; l < sizes.size(); ++l) removed += sizes[l] < limit;
  for (std::size_t n = 0; n < mask.size(); ++n)
    if (labels[n] && sizes[labels[n]] < limit) mask[n] = std::uint8_t(1 - value);
  return removed;
}

// Watershed of the negated distance map from its h-maxima, inside the solid.
std::vector<std::uint32_t> separate(const Volume& like, const std::vector<std::uint8_t>& solid, double h) {
  auto distance = itk::SignedMaurerDistanceMapImageFilter<MaskImage, FloatImage>::New();
  distance->SetInput(make_image<MaskImage>(like, solid));
  distance->SetInsideIsPositive(true);
  distance->SetSquaredDistance(false);
  distance->SetUseImageSpacing(true);
  distance->Update();
  const double unit = *std::min_element(like.spacing.begin(), like.spacing.end());

  auto hmax = itk::HMaximaImageFilter<FloatImage, FloatImage>::New();
  hmax->SetInput(distance->GetOutput());
  hmax->SetHeight(h * unit);
  hmax->SetFullyConnected(true);
  auto peaks = itk::RegionalMaximaImageFilter<FloatImage, MaskImage>::New();
  peaks->SetInput(hmax->GetOutput());
  peaks->SetFullyConnected(true);
  peaks->SetForegroundValue(1);
  peaks->SetBackgroundValue(0);
  peaks->Update();
  auto peak_mask = values_of(*peaks->GetOutput());
  for (std::size_t n = 0; n < peak_mask.size(); ++n) peak_mask[n] &= solid[n];
  auto markers = itk::ConnectedComponentImageFilter<MaskImage, LabelImage>::New();
  markers->SetInput(make_image<MaskImage>(like, peak_mask));
  markers->SetFullyConnected(true);

  auto depth = values_of(*distance->GetOutput());
  for (float& d : depth) d = -d;
  auto watershed = itk::MorphologicalWatershedFromMarkersImageFilter<FloatImage, LabelImage>::New();
  watershed->SetInput(make_image<FloatImage>(like, depth));
  watershed->SetMarkerImage(markers->GetOutput());
  watershed->SetMarkWatershedLine(false);
  watershed->SetFullyConnected(false);
  watershed->Update();
  auto labels = values_of(*watershed->GetOutput());
  for (std::size_t n = 0; n < labels.size(); ++n)
    if (!solid[n]) labels[n] = 0;
  return labels;
}

// Labels renumbered 1..count in the order `before` gives their old numbers.
void renumber(Labels& labels, std::size_t old_count, const std::function<bool(std::uint32_t, std::uint32_t)>& before,
              std::vector<std::uint32_t>* old_of_new = nullptr) {
  std::vector<std::size_t> sizes(old_count + 1, 0);
  for (auto l : labels.values) ++sizes[l];
  std::vector<std::uint32_t> used;
  for (std::uint32_t l = 1; l <= old_count; ++l)
    if (sizes[l]) used.push_back(l);
  std::stable_sort(used.begin(), used.end(), before);
  std::vector<std::uint32_t> map(old_count + 1, 0);
  for (std::size_t i = 0; i < used.size(); ++i) map[used[i]] = std::uint32_t(i + 1);
  for (auto& l : labels.values) l = map[l];
  labels.count = std::uint32_t(used.size());
  if (old_of_new) *old_of_new = used;
}

std::string number(double v) {
  std::ostringstream s;
  s.precision(6);
  s << v;
  return s.str();
}

}  // namespace

InputKind parse_input_kind(const std::string& name) {
  if (name == "grey") return InputKind::grey;
  if (name == "mask") return InputKind::mask;
  if (name == "labels") return InputKind::labels;
  throw std::invalid_argument("unknown input kind '" + name + "' (grey, mask, labels)");
}

namespace {

// 256 bins between the smallest and the largest value: counts and sums per bin.
struct Histogram {
  static constexpr int bins = 256;
  explicit Histogram(const std::vector<float>& values) : count(bins, 0), sum(bins, 0) {
    const auto [lo_it, hi_it] = std::minmax_element(values.begin(), values.end());
    lo = *lo_it, width = (*hi_it - lo) / bins;
    if (!(width > 0)) return;
    for (float v : values) {
      const int b = bin(v);
      count[b] += 1, sum[b] += v;
    }
  }
  int bin(double v) const { return std::clamp(int((v - lo) / width), 0, bins - 1); }
  double lo, width;
  std::vector<double> count, sum;
};

// Otsu's split: the lower edge of the first solid bin.
double otsu_split(const Histogram& h) {
  if (!(h.width > 0)) return h.lo;
  const double total = std::accumulate(h.count.begin(), h.count.end(), 0.0);
  const double total_sum = std::accumulate(h.sum.begin(), h.sum.end(), 0.0);
  // Between-class variance per split; empty bins between the phases tie, and the threshold
  // goes to the middle of the tied run rather than to the edge of one phase.
  std::vector<double> between(Histogram::bins - 1, -1);
  double n0 = 0, s0 = 0;
  for (int b = 0; b + 1 < Histogram::bins; ++b) {
    n0 += h.count[b], s0 += h.sum[b];
    const double n1 = total - n0;
    if (n0 == 0 || n1 == 0) continue;
    const double m0 = s0 / n0, m1 = (total_sum - s0) / n1;
    between[b] = n0 * n1 * (m0 - m1) * (m0 - m1);
  }
  const double best = *std::max_element(between.begin(), between.end());
  int first = 0;
  while (between[first] < best * (1 - 1e-12)) ++first;
  int last = first;
  while (last + 1 < Histogram::bins - 1 && between[last + 1] >= best * (1 - 1e-12)) ++last;
  return h.lo + (0.5 * (first + last) + 1) * h.width;
}

}  // namespace

double otsu_threshold(const std::vector<float>& values) { return otsu_split(Histogram(values)); }

double halfway_threshold(const std::vector<float>& values, double& pore_level, double& solid_level) {
  const Histogram h(values);
  if (!(h.width > 0)) return pore_level = solid_level = h.lo;
  constexpr int bins = Histogram::bins, half_window = 2;
  std::vector<double> smooth(bins, 0);
  for (int b = 0; b < bins; ++b)
    for (int k = std::max(0, b - half_window); k <= std::min(bins - 1, b + half_window); ++k) smooth[b] += h.count[k];
  const int first_solid = std::clamp(int(std::lround((otsu_split(h) - h.lo) / h.width)), 1, bins - 1);
  const int pore_peak = int(std::max_element(smooth.begin(), smooth.begin() + first_solid) - smooth.begin());
  const int solid_peak = int(std::max_element(smooth.begin() + first_solid, smooth.end()) - smooth.begin());
  pore_level = h.lo + (pore_peak + 0.5) * h.width;
  solid_level = h.lo + (solid_peak + 0.5) * h.width;
  return 0.5 * (pore_level + solid_level);
}

Segmentation segment(const Volume& volume, const SegmentOptions& options, const std::string& file) {
  Segmentation s;
  s.labels.size = volume.size;
  const std::size_t n = volume.voxel_count();
  std::vector<std::uint8_t> solid(n);

  if (options.input == InputKind::labels) {
    double top = 0;
    for (float v : volume.values) {
      if (!(v >= 0 && v == std::floor(v) && v < 4.0e9))
        throw FileError(file, "is not a label image: it holds " + number(v) + " (labels are whole numbers ≥ 0)");
      top = std::max(top, double(v));
    }
    s.labels.values.resize(n);
    for (std::size_t i = 0; i < n; ++i) s.labels.values[i] = std::uint32_t(volume.values[i]);
    renumber(s.labels, std::size_t(top), std::less<std::uint32_t>(), &s.source_label);
    if (s.labels.count == 0) throw FileError(file, "holds no grain: every label is 0");
    s.field.resize(n);
    for (std::size_t i = 0; i < n; ++i) s.field[i] = s.labels.values[i] != 0;
    s.solid_fraction = double(std::count_if(s.labels.values.begin(), s.labels.values.end(), [](auto l) { return l != 0; })) / double(n);
    return s;
  }

  if (options.input == InputKind::grey) {
    const auto [lo, hi] = std::minmax_element(volume.values.begin(), volume.values.end());
    if (*lo == *hi) throw FileError(file, "has one grey value everywhere (" + number(*lo) + "): nothing to segment");
    s.field = volume.values;
    if (options.smooth > 0) {
      auto smooth = itk::SmoothingRecursiveGaussianImageFilter<FloatImage, FloatImage>::New();
      smooth->SetInput(make_image<FloatImage>(volume, volume.values));
      itk::FixedArray<double, 3> sigma;
      for (int a = 0; a < 3; ++a) sigma[a] = options.smooth * volume.spacing[a];
      smooth->SetSigmaArray(sigma);
      smooth->Update();
      s.field = values_of(*smooth->GetOutput());
    }
    s.threshold = options.threshold ? *options.threshold
                  : options.halfway ? halfway_threshold(s.field, s.pore_level, s.solid_level)
                                    : otsu_threshold(s.field);
    s.level = s.threshold;
    if (options.solid_dark) {
      std::swap(s.pore_level, s.solid_level);
      for (float& f : s.field) f = -f;
      s.level = -s.threshold;
    }
    for (std::size_t i = 0; i < n; ++i) solid[i] = s.field[i] >= s.level;
  } else {
    for (std::size_t i = 0; i < n; ++i) solid[i] = (volume.values[i] != 0) != options.solid_dark;
  }

  const auto solid_count = std::size_t(std::count(solid.begin(), solid.end(), 1));
  const std::string phase = options.input == InputKind::grey ? "grey value " + number(s.threshold) : "mask";
  if (solid_count == 0) throw FileError(file, "holds no solid (" + phase + "): every voxel is pore");
  if (solid_count == n) throw FileError(file, "is solid everywhere (" + phase + "): no pore space to find grains in");

  s.specks_removed = remove_small_pieces(volume, solid, 1, options.speck_voxels);
  s.pores_filled = remove_small_pieces(volume, solid, 0, options.speck_voxels);
  const auto cleaned = std::size_t(std::count(solid.begin(), solid.end(), 1));
  if (cleaned == 0) throw FileError(file, "holds no solid piece of " + std::to_string(options.speck_voxels) + " voxels or more");
  if (cleaned == n) throw FileError(file, "is solid everywhere once small pores are filled: no pore space to find grains in");
  s.solid_fraction = double(cleaned) / double(n);

  if (options.input == InputKind::mask) {
    s.field.assign(solid.begin(), solid.end());
  } else {
    // Clean-up moved some voxels across the level: the field follows the mask there (the
    // grey crossing stays wherever the two agree).
    for (std::size_t i = 0; i < n; ++i)
      if ((s.field[i] >= s.level) != bool(solid[i]))
        s.field[i] = float(solid[i] ? s.level : s.level - 1e-3 * std::abs(s.level) - 1e-3);
  }

  std::vector<std::size_t> sizes;
  s.labels.values = options.separation > 0 ? separate(volume, solid, options.separation) : pieces(volume, solid, 1, sizes);
  const auto top = *std::max_element(s.labels.values.begin(), s.labels.values.end());
  sizes.assign(std::size_t(top) + 1, 0);
  for (auto l : s.labels.values) ++sizes[l];
  renumber(s.labels, top, [&](std::uint32_t a, std::uint32_t b) { return sizes[a] > sizes[b]; });
  return s;
}

}  // namespace scree::ct
