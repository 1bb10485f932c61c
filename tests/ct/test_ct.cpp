// scree-ct's library against known answers: Otsu's and the halfway threshold on a bimodal
// histogram; the synthetic phantom through NRRD and a TIFF stack to avatars (grain count
// exact, volumes within 3 %, centroids within half a voxel); its true labels taken as is;
// the point spread fitted to a blurred step and measured on the phantom's edges; the
// readers' refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "common/temp_dir.h"
#include "ct/grain_avatars.h"
#include "ct/phantom.h"
#include "ct/point_spread.h"
#include "ct/read_volume.h"
#include "ct/segment.h"
#include "ct/write_volume.h"
#include "formats/avatar.h"
#include "formats/error.h"

namespace scree::ct {
namespace {

using scree::testing::TempDir;
using scree::testing::write_text;

TEST(Threshold, OtsuAndHalfwaySplitTwoPhases) {
  // 70 % pore at 60 ± 5, 30 % solid at 180 ± 5 (deterministic spread).
  std::vector<float> values;
  for (int i = 0; i < 7000; ++i) values.push_back(float(60 + 5 * std::sin(i * 0.37)));
  for (int i = 0; i < 3000; ++i) values.push_back(float(180 + 5 * std::sin(i * 0.53)));
  const double otsu = otsu_threshold(values);
  EXPECT_GT(otsu, 66);
  EXPECT_LT(otsu, 174);
  double pore = 0, solid = 0;
  const double halfway = halfway_threshold(values, pore, solid);
  const double bin = (185.0 - 55.0) / 256;
  EXPECT_NEAR(pore, 60, 5 + bin);  // a peak of the ±5 spread
  EXPECT_NEAR(solid, 180, 5 + bin);
  EXPECT_NEAR(halfway, 0.5 * (pore + solid), 1e-9);
  EXPECT_NEAR(halfway, 120, 5);
}

struct Truth {
  std::vector<PhantomGrain> grains;
  double h;
};

// Matches each true grain with the built grain nearest its centre and checks them.
// `check_touching` false: grains in contact are matched and reported but their volumes are
// not checked (a blur wider than the pore between them fills the neck).
void expect_phantom_recovered(const GrainSet& set, const Truth& truth, double volume_tolerance, bool check_touching = true) {
  ASSERT_EQ(set.grains.size(), truth.grains.size());
  std::vector<bool> in_contact(truth.grains.size(), false);
  for (std::size_t t = 0; t < truth.grains.size(); ++t)
    if (truth.grains[t].touches) in_contact[t] = in_contact[truth.grains[t].touches - 1] = true;
  std::vector<bool> used(set.grains.size(), false);
  for (std::size_t t = 0; t < truth.grains.size(); ++t) {
    const auto& want = truth.grains[t];
    std::size_t best = 0;
    double best_distance = 1e300;
    for (std::size_t g = 0; g < set.grains.size(); ++g) {
      double d = 0;
      for (int a = 0; a < 3; ++a) d += std::pow(set.grains[g].centroid[a] - want.centre[a], 2);
      if (d < best_distance) best_distance = d, best = g;
    }
    EXPECT_FALSE(used[best]) << "two true grains found the same grain";
    used[best] = true;
    const GrainRecord& got = set.grains[best];
    EXPECT_LT(std::sqrt(best_distance), 0.5 * truth.h) << want.shape;
    if (check_touching || !in_contact[t]) {
      EXPECT_NEAR(got.volume, want.volume, volume_tolerance * want.volume) << want.shape;
    }
    std::printf("%-50s %s volume %+.2f %%, centroid off by %.3f voxels, sphericity %.3f\n", want.shape.c_str(),
                in_contact[t] ? "touching" : "free    ",
                100 * (got.volume / want.volume - 1), std::sqrt(best_distance) / truth.h, got.sphericity);
  }
}

// A box whose faces fall between voxel centres (19.6 × 15.3 × 12.2 voxels), each voxel
// grey by the fraction of it inside: the surface placed where the grey values cross the
// threshold recovers the volume within 3.5 % (−2.6 %: along the edges a voxel's grey is the
// product of two fractions, which rounds them off); faces halfway between voxels (what a mask
// gives) lose 7 %. The centroid lands within a tenth of a voxel.
TEST(GrainAvatars, SubVoxelSurfaceFromGreyValues) {
  TempDir dir;
  const double h = 1e-4;
  const std::array<double, 3> lower{10.3, 12.4, 9.6}, upper{29.9, 27.7, 21.8};  // voxel units
  Volume v;
  v.size = {40, 40, 32};
  v.spacing = {h, h, h};
  v.values.resize(v.voxel_count());
  for (std::size_t k = 0; k < v.size[2]; ++k)
    for (std::size_t j = 0; j < v.size[1]; ++j)
      for (std::size_t i = 0; i < v.size[0]; ++i) {
        const std::array<std::size_t, 3> c{i, j, k};
        double fill = 1;
        for (int a = 0; a < 3; ++a)
          fill *= std::clamp(std::min(double(c[a]) + 0.5, upper[a]) - std::max(double(c[a]) - 0.5, lower[a]), 0.0, 1.0);
        v.values[v.index(i, j, k)] = float(50 + 100 * fill);
      }
  SegmentOptions seg;
  seg.threshold = 100;
  const Segmentation s = segment(v, seg, "box");
  ASSERT_EQ(s.labels.count, 1u);
  AvatarOptions avatars;
  avatars.nodes = 100;
  const GrainSet set = write_grain_avatars(dir.path(), v, s, avatars);
  const double exact = (upper[0] - lower[0]) * (upper[1] - lower[1]) * (upper[2] - lower[2]) * h * h * h;
  std::printf("box volume %+.3f %%\n", 100 * (set.grains[0].volume / exact - 1));
  EXPECT_NEAR(set.grains[0].volume, exact, 0.035 * exact);
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(set.grains[0].centroid[a], 0.5 * (lower[a] + upper[a]) * h, 0.1 * h);
}

// Samples of a step blurred by σ = 0.7 voxels (pore 40, solid 200) with a deterministic
// ±4 ripple for noise: the fit returns σ within 1 % and the levels within 1 grey value; a
// profile fitted with σ off by √2 (erf's argument without the √2) would miss by 41 %.
TEST(PointSpread, FitRecoversTheWidthOfABlurredStep) {
  const double h = 2e-5, sigma = 0.7 * h;
  std::vector<EdgeSample> samples;
  for (int i = 0; i < 4000; ++i) {
    const double d = (-3 + 6 * std::fmod(i * 0.618034, 1.0)) * h;
    samples.push_back({d, 40 + 160 * 0.5 * std::erfc(d / (sigma * M_SQRT2)) + 4 * std::sin(i * 1.7)});
  }
  const EdgeFit fit = fit_edge_profile(samples, 0.05 * h, 5 * h);
  EXPECT_NEAR(fit.sigma, sigma, 0.01 * sigma);
  EXPECT_NEAR(fit.pore, 40, 1);
  EXPECT_NEAR(fit.solid, 200, 1);
  EXPECT_NEAR(fit.rms, 4 / M_SQRT2, 0.2);
  EXPECT_FALSE(fit.at_limit);
  // A sharp step (σ far below a voxel) ends on the lower bound and says so.
  for (auto& s : samples) s.grey = s.distance < 0 ? 200 : 40;
  EXPECT_TRUE(fit_edge_profile(samples, 0.05 * h, 5 * h).at_limit);
  EXPECT_THROW(fit_edge_profile({samples.begin(), samples.begin() + 10}, 0.05 * h, 5 * h), std::invalid_argument);
}

// The phantom's grains, thresholded halfway between its two grey levels (ISO-50).
Segmentation segment_halfway(const Volume& grey) {
  SegmentOptions seg;
  seg.halfway = true;
  return segment(grey, seg, "phantom");
}

// The phantom's point spread is its Gaussian blur and the voxels' own width (variance 1/12
// voxel²), √(σ² + 1/12). Fitted on the grains' edges it reads within 5 % of that for a blur
// of 0.8 and of 1.4 voxels (+4.2 % and +0.2 %: the level set's distances run a little long
// outside convex grains, by the sagitta of the secant planes its boundary values come from),
// and every grain's volume is within 1 % of the volume with the point spread given. The
// grains that touch nothing are within 3 % of the truth; at 1.4 voxels the blur fills the
// necks between touching grains (up to +6.5 %), so those are compared with the given σ only.
class PhantomBlur : public ::testing::TestWithParam<double> {};

TEST_P(PhantomBlur, PointSpreadFittedOnTheEdges) {
  TempDir dir;
  PhantomOptions options;
  options.blur = GetParam();
  const Phantom phantom = make_phantom(options);
  const Segmentation s = segment_halfway(phantom.grey);
  AvatarOptions avatars;
  avatars.nodes = 100;
  const double expected = std::sqrt(options.blur * options.blur + 1.0 / 12) * options.voxel_size;
  avatars.point_spread = expected;
  const GrainSet given = write_grain_avatars(dir.path(), phantom.grey, s, avatars);
  avatars.estimate_point_spread = true;
  const GrainSet fitted = write_grain_avatars(dir.path(), phantom.grey, s, avatars);
  std::printf("blur %.2f: point spread %.4f voxels (expected %.4f) from %zu samples\n", options.blur,
              fitted.point_spread / options.voxel_size, expected / options.voxel_size, fitted.edge_fit.samples);
  EXPECT_NEAR(fitted.point_spread, expected, 0.05 * expected);
  EXPECT_NEAR(fitted.edge_fit.pore, options.pore_grey, 2);
  EXPECT_NEAR(fitted.edge_fit.solid, options.solid_grey, 2);
  ASSERT_EQ(fitted.grains.size(), given.grains.size());
  for (std::size_t g = 0; g < given.grains.size(); ++g)
    EXPECT_NEAR(fitted.grains[g].volume, given.grains[g].volume, 0.01 * given.grains[g].volume) << g;
  expect_phantom_recovered(fitted, {phantom.grains, options.voxel_size}, 0.03, false);
}

INSTANTIATE_TEST_SUITE_P(Blur, PhantomBlur, ::testing::Values(0.8, 1.4));

class PhantomScan : public ::testing::TestWithParam<std::string> {};

TEST_P(PhantomScan, GrainCountExactVolumesWithinThreePercentCentroidsWithinHalfAVoxel) {
  TempDir dir;
  const PhantomOptions options;
  const Phantom phantom = make_phantom(options);
  const std::filesystem::path scan = dir / GetParam();
  write_volume(scan.string() + (GetParam() == "slices" ? "/" : ""), phantom.grey, "uint8");
  ReadOptions read;
  if (GetParam() == "slices") read.voxel_size = std::array<double, 3>{options.voxel_size, options.voxel_size, options.voxel_size};
  const Volume volume = read_volume(scan, read);
  ASSERT_EQ(volume.size, options.size);
  EXPECT_NEAR(volume.spacing[2], options.voxel_size, 1e-12);
  EXPECT_EQ(volume.voxel_type, "uint8");

  SegmentOptions seg;
  seg.halfway = true;
  const Segmentation s = segment(volume, seg, scan.string());
  EXPECT_EQ(s.labels.count, phantom.grains.size());
  AvatarOptions avatars;
  avatars.nodes = 300;
  // The phantom's point spread: its blur and the voxels' own width (variance 1/12).
  avatars.point_spread = std::sqrt(options.blur * options.blur + 1.0 / 12) * options.voxel_size;
  const std::filesystem::path out = dir / "grains";
  std::filesystem::create_directory(out);
  const GrainSet set = write_grain_avatars(out, volume, s, avatars);
  expect_phantom_recovered(set, {phantom.grains, options.voxel_size}, 0.03);

  // Every avatar reads back, in its body frame, with the volume the table gives.
  for (const GrainRecord& g : set.grains) {
    const formats::Avatar a = formats::read_avatar(out / (g.name + ".vdb"));
    EXPECT_DOUBLE_EQ(a.properties.volume, g.volume);
    EXPECT_EQ(a.nodes.size(), g.node_count);
  }
}

INSTANTIATE_TEST_SUITE_P(Formats, PhantomScan, ::testing::Values("phantom.nrrd", "slices"));

// Without the blur correction the surfaces sit inside the grains, by σ²/R on a sphere: the
// small spheres lose well over 3 % (the correction is what the test above checks).
TEST(PhantomScan, WithoutTheBlurCorrectionSmallGrainsShrink) {
  TempDir dir;
  const PhantomOptions options;
  const Phantom phantom = make_phantom(options);
  const Segmentation s = segment_halfway(phantom.grey);
  AvatarOptions avatars;
  avatars.nodes = 100;
  const GrainSet set = write_grain_avatars(dir.path(), phantom.grey, s, avatars);
  double smallest_ratio = 1;
  for (std::size_t t = 0; t < phantom.grains.size(); ++t)
    for (const auto& g : set.grains)
      if (std::abs(g.centroid[0] - phantom.grains[t].centre[0]) < options.voxel_size)
        smallest_ratio = std::min(smallest_ratio, g.volume / phantom.grains[t].volume);
  EXPECT_LT(smallest_ratio, 0.95);
}

// The true labels taken as is: the same twelve grains, volumes of the voxel-centre labels
// (within 4 %: a mask's surface lies halfway between voxels, no grey values to refine it).
TEST(PhantomScan, TrueLabelsTakenAsIs) {
  TempDir dir;
  const PhantomOptions options;
  const Phantom phantom = make_phantom(options);
  Volume labels = phantom.grey;
  labels.values.assign(phantom.labels.values.begin(), phantom.labels.values.end());
  write_volume(dir / "labels.mha", labels, "uint16");
  const Volume read = read_volume(dir / "labels.mha", {});
  SegmentOptions seg;
  seg.input = InputKind::labels;
  const Segmentation s = segment(read, seg, "labels.mha");
  ASSERT_EQ(s.labels.count, 12u);
  for (std::uint32_t l = 1; l <= 12; ++l) EXPECT_EQ(s.source_label[l - 1], l);
  AvatarOptions avatars;
  avatars.nodes = 100;
  const GrainSet set = write_grain_avatars(dir.path(), read, s, avatars);
  expect_phantom_recovered(set, {phantom.grains, options.voxel_size}, 0.04);
}

// Every format written reads back with its values, size, voxel size and origin (where the
// format holds them: TIFF has no voxel size, so one is given): an anisotropic 16-bit volume
// off the origin, and the same as 8 bits through the DICOM series and the slice folders.
TEST(ReadVolume, RoundTripsEveryFormat) {
  TempDir dir;
  Volume v;
  v.size = {23, 17, 11};
  v.spacing = {2e-5, 3e-5, 5e-5};
  v.origin = {1e-3, -2e-3, 5e-4};
  v.values.resize(v.voxel_count());
  for (std::size_t n = 0; n < v.values.size(); ++n) v.values[n] = float((n * 37) % 251);
  struct Case {
    std::string path, type;
    bool states_voxel_size;
    SliceFormat slices = SliceFormat::tiff;
  };
  for (const Case& c : {Case{"v.nrrd", "uint16", true}, Case{"v.mha", "uint16", true}, Case{"v.nii", "uint16", true},
                        Case{"v.tif", "uint16", false}, Case{"tiff/", "uint8", false},
                        Case{"dicom/", "uint8", true, SliceFormat::dicom}, Case{"dicom16/", "uint16", true, SliceFormat::dicom}}) {
    SCOPED_TRACE(c.path);
    Volume written = v;
    if (c.type == "uint16")
      for (auto& x : written.values) x *= 251;  // beyond 8 bits
    write_volume((dir / c.path).string(), written, c.type, 1e-3, c.slices);
    ReadOptions read;
    if (!c.states_voxel_size) read.voxel_size = v.spacing;
    const Volume back = read_volume(dir / c.path, read);
    EXPECT_EQ(back.size, v.size);
    EXPECT_EQ(back.voxel_type, c.type);
    for (int a = 0; a < 3; ++a) {
      EXPECT_NEAR(back.spacing[a], v.spacing[a], 1e-7 * v.spacing[a]);  // NIfTI holds float32
      if (c.states_voxel_size) {
        EXPECT_NEAR(back.origin[a], v.origin[a], 1e-9);
      }
    }
    EXPECT_EQ(back.values, written.values);
  }
  EXPECT_THROW(write_volume(dir / "f/", v, "float32", 1e-3, SliceFormat::dicom), formats::FileError);
}

TEST(ReadVolume, RefusesWhatIsNotAVolume) {
  TempDir dir;
  Volume flat;
  flat.size = {20, 30, 1};
  flat.spacing = {1e-4, 1e-4, 1e-4};
  flat.values.assign(600, 5);
  write_volume(dir / "flat.nrrd", flat, "uint8");
  auto message = [](const std::function<void()>& f) {
    try {
      f();
    } catch (const formats::FileError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message([&] { read_volume(dir / "flat.nrrd", {}); }).find("is a 2-D image (20 × 30)"), std::string::npos);
  EXPECT_NE(message([&] { read_volume(dir / "missing.nrrd", {}); }).find("no such file"), std::string::npos);
  write_text(dir / "junk.nrrd", "not an image\n");
  EXPECT_NE(message([&] { read_volume(dir / "junk.nrrd", {}); }).find("junk.nrrd"), std::string::npos);

  // A raw file whose length disagrees with its flags: the byte counts, and the slices it holds.
  write_text(dir / "scan.raw", std::string(100 * 100 * 60, '\0'));
  ReadOptions raw;
  raw.raw = RawLayout{{100, 100, 100}, "uint8", false, 0};
  raw.voxel_size = std::array<double, 3>{1e-5, 1e-5, 1e-5};
  EXPECT_NE(message([&] { read_volume(dir / "scan.raw", raw); })
                .find("is 600000 bytes, but 100 × 100 × 100 uint8 voxels need 1000000 (the file holds 60 slices)"),
            std::string::npos);
  raw.raw->size = {100, 100, 60};
  raw.voxel_size.reset();
  EXPECT_NE(message([&] { read_volume(dir / "scan.raw", raw); }).find("give --voxel-size"), std::string::npos);

  // Slices of different sizes: the odd one is named.
  Volume a = flat;
  a.size = {20, 30, 3};
  a.values.assign(1800, 1);
  write_volume(dir / "stack/", a, "uint8");
  Volume b = flat;
  b.size = {25, 30, 1};
  b.values.assign(750, 1);
  write_volume(dir / "odd.tif", b, "uint8");
  std::filesystem::rename(dir / "odd.tif", dir / "stack" / "slice_0003.tif");
  EXPECT_NE(message([&] { read_volume(dir / "stack", {}); }).find("slice_0003.tif: is 25 × 30, the first slice 20 × 30"),
            std::string::npos);
}

TEST(Segment, RefusesNothingToSegment) {
  Volume v;
  v.size = {10, 10, 10};
  v.values.assign(1000, 7);
  auto message = [&](const SegmentOptions& o) {
    try {
      segment(v, o, "scan");
    } catch (const formats::FileError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message({}), "scan: has one grey value everywhere (7): nothing to segment");
  SegmentOptions mask;
  mask.input = InputKind::mask;
  EXPECT_NE(message(mask).find("is solid everywhere"), std::string::npos);
  std::fill(v.values.begin(), v.values.end(), 0.0f);
  EXPECT_NE(message(mask).find("holds no solid"), std::string::npos);
  SegmentOptions labels;
  labels.input = InputKind::labels;
  EXPECT_NE(message(labels).find("holds no grain"), std::string::npos);
  v.values[3] = 2.5f;
  EXPECT_NE(message(labels).find("is not a label image"), std::string::npos);
  // A threshold above every grey value leaves no solid.
  v.values[3] = 9;
  SegmentOptions high;
  high.threshold = 100;
  EXPECT_NE(message(high).find("holds no solid"), std::string::npos);
}

}  // namespace
}  // namespace scree::ct
