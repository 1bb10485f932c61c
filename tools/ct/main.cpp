// scree-ct: a CT volume to one avatar per grain, with a report.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>

#include "ct/grain_avatars.h"
#include "ct/read_volume.h"
#include "ct/report.h"
#include "ct/segment.h"
#include "ct/write_volume.h"
#include "formats/error.h"
#include "tools/cli/cli.h"
#include "tools/cli/display.h"
#include "tools/cli/options.h"
#include "tools/cli/progress.h"

using namespace scree;
namespace fs = std::filesystem;

namespace {

std::array<double, 3> voxel_size(const cli::Options& o) {
  const std::string text = o.text("--voxel-size");
  const bool one = text.find(',') == std::string::npos;
  std::array<double, 3> h = one ? std::array<double, 3>{o.number("--voxel-size", 0), 0, 0} : o.triple("--voxel-size");
  if (one) h[1] = h[2] = h[0];
  for (double x : h)
    if (!(x > 0)) throw cli::UsageError("--voxel-size: must be > 0 (metres)");
  return h;
}

ct::RawLayout raw_layout(const cli::Options& o) {
  ct::RawLayout raw;
  const auto size = o.triple("--raw");
  for (int a = 0; a < 3; ++a) {
    if (!(size[a] >= 1 && size[a] == std::floor(size[a]))) throw cli::UsageError("--raw: dimensions must be whole numbers ≥ 1");
    raw.size[a] = std::size_t(size[a]);
  }
  raw.type = o.text("--type", "uint8");
  if (ct::raw_type_bytes(raw.type) == 0) throw cli::UsageError("--type: one of " + std::string(ct::raw_types()));
  raw.big_endian = o.has("--big-endian");
  const double header = o.number("--header-bytes", 0);
  if (!(header >= 0 && header == std::floor(header))) throw cli::UsageError("--header-bytes: must be a whole number ≥ 0");
  raw.header_bytes = std::size_t(header);
  return raw;
}

// The output folder is built under a temporary name and swapped in whole; an old folder is
// replaced only when scree-ct wrote it (it holds library.yaml) or it is empty.
void replace_folder(const fs::path& temp, const fs::path& target) {
  std::error_code ec;
  if (fs::exists(target, ec)) {
    if (!fs::is_directory(target) || (!fs::is_empty(target) && !fs::exists(target / "library.yaml")))
      throw formats::FileError(target, "exists and is not a scree-ct output folder: not replaced");
    fs::remove_all(target, ec);
  }
  fs::rename(temp, target, ec);
  if (ec) throw formats::FileError(target, "cannot write: " + ec.message());
}

struct TempFolder {
  fs::path path;
  ~TempFolder() {
    std::error_code ignored;
    if (!path.empty()) fs::remove_all(path, ignored);
  }
};

}  // namespace

int main(int argc, char** argv) {
  const cli::Tool tool{
      "scree-ct", "scree-ct SCAN -o FOLDER [options]",
      "Turns a CT scan of a granular material into one avatar per grain, in metres. SCAN is a\n"
      "3-D image ITK reads (NRRD, MetaImage .mha/.mhd, NIfTI, multi-page TIFF), a folder of\n"
      "slices (TIFF or PNG in name order, or a DICOM series), or a headerless raw file (--raw).\n"
      "A greyscale scan is thresholded (Otsu's threshold unless --threshold), cleaned (specks\n"
      "removed, small enclosed pores filled) and touching grains are split by a watershed of\n"
      "the distance map seeded at its h-maxima (--separation); a mask skips the threshold and\n"
      "a label image is taken as it is. Each grain becomes a level set by fast marching, its\n"
      "surface placed between voxels where the grey values cross the threshold, with boundary\n"
      "nodes and mass properties. FOLDER receives grain_NNNN.vdb, library.yaml (the index a\n"
      "case's templates read: `- {library: FOLDER/library.yaml, material: ...}`), grains.csv\n"
      "(sizes, centroids, shape descriptors) and size_distribution.png.",
      "  -o FOLDER              output folder (required; an old scree-ct output is replaced)\n"
      "input\n"
      "      --input KIND       grey (default), mask (binary) or labels (grains numbered)\n"
      "      --voxel-size H     metres, one value or HX,HY,HZ (required for raw, TIFF, PNG;\n"
      "                         overrides the header otherwise)\n"
      "      --unit U           length unit of the header: mm (default), um or m\n"
      "      --raw NX,NY,NZ     a headerless file of NX·NY·NZ voxels, x fastest\n"
      "      --type T           raw voxel type: uint8 (default), int8, uint16, int16, uint32,\n"
      "                         int32, float32, float64\n"
      "      --big-endian       raw bytes are big-endian (default little)\n"
      "      --header-bytes N   raw: bytes to skip before the voxels (default 0)\n"
      "segmentation\n"
      "      --threshold T      grey value between pore and solid; otsu (the default): Otsu's;\n"
      "                         halfway: halfway between the histogram's pore and solid peaks\n"
      "                         (ISO-50, where a blurred edge lies; with --point-spread)\n"
      "      --dark-solid       the solid is darker than the pores (mask: the solid is 0)\n"
      "      --smooth S         Gaussian smoothing before the threshold, σ in voxels (default 0)\n"
      "      --speck N          solid specks and enclosed pores under N voxels go (default 8)\n"
      "      --separation H     h-maxima depth in voxels: a grain needs a distance peak H above\n"
      "                         its neck to stand alone (default 1.2; 0: no splitting)\n"
      "      --labels-out FILE  also write the grain labels (.nrrd, .mha, .nii, .tif)\n"
      "avatars\n"
      "      --point-spread S   σ of the scanner's blur in voxels, which moves each surface\n"
      "                         in by σ²/2 times its mean curvature; the correction moves it\n"
      "                         back. auto (the default for grey scans): σ fitted to the\n"
      "                         grey profile across the grains' edges; none: no correction\n"
      "      --min-voxels N     drop grains of fewer voxels (default 27)\n"
      "      --drop-border      drop grains that touch a face of the volume\n"
      "      --ls-voxel-size H  level-set voxel, metres (default: the scan's smallest)\n"
      "      --band W           narrow band outside, voxels (default 3)\n"
      "      --nodes N          boundary nodes per grain (default 1000)\n"
      "      --node-method M    auto, rays, surface or grid (see scree-nodes)\n"
      "      --no-plot          skip size_distribution.png (no display needed)\n",
      "  scree-phantom -o phantom.nrrd && scree-ct phantom.nrrd -o grains\n"
      "  scree-ct scan/ --voxel-size 2e-5 --smooth 1 -o sand          # a folder of TIFF slices\n"
      "  scree-ct steel.raw --raw 100,100,100 --voxel-size 2e-5 --smooth 1 -o steel\n"
      "  scree-ct steel_bw.raw --raw 100,100,100 --voxel-size 2e-5 --input mask --dark-solid -o steel\n"
      "  scree-ct labels.nii --input labels --drop-border -o grains\n"};
  return cli::run(tool, argc, argv, [&](const std::vector<std::string>& args) {
    cli::Options o(args,
                   {"-o", "--input", "--voxel-size", "--unit", "--raw", "--type", "--header-bytes", "--threshold",
                    "--smooth", "--speck", "--separation", "--labels-out", "--point-spread", "--min-voxels", "--ls-voxel-size", "--band",
                    "--nodes", "--node-method"},
                   {"--big-endian", "--dark-solid", "--drop-border", "--no-plot"});
    const fs::path scan = o.single_positional("scan");
    fs::path out = o.required_text("-o");
    if (out.filename().empty()) out = out.parent_path();
    ct::ReadOptions read;
    if (o.has("--raw")) read.raw = raw_layout(o);
    else if (o.has("--type") || o.has("--big-endian") || o.has("--header-bytes"))
      throw cli::UsageError("--type, --big-endian and --header-bytes describe a --raw file");
    if (o.has("--voxel-size")) read.voxel_size = voxel_size(o);
    const std::string unit = o.choice("--unit", {"mm", "um", "m"});
    read.header_unit = unit == "mm" ? 1e-3 : unit == "um" ? 1e-6 : 1;

    ct::SegmentOptions seg;
    seg.input = ct::parse_input_kind(o.choice("--input", {"grey", "mask", "labels"}));
    if (o.has("--threshold")) {
      if (seg.input != ct::InputKind::grey) throw cli::UsageError("--threshold applies to --input grey");
      const std::string rule = o.text("--threshold");
      if (rule == "halfway") seg.halfway = true;
      else if (rule != "otsu") seg.threshold = o.number("--threshold", 0);
    }
    seg.solid_dark = o.has("--dark-solid");
    seg.smooth = o.number("--smooth", 0);
    if (!(seg.smooth >= 0)) throw cli::UsageError("--smooth: must be ≥ 0");
    seg.speck_voxels = o.count("--speck", 8);
    seg.separation = o.number("--separation", 1.2);
    if (!(seg.separation >= 0)) throw cli::UsageError("--separation: must be ≥ 0");
    if (seg.input == ct::InputKind::labels && (o.has("--dark-solid") || o.has("--smooth") || o.has("--separation")))
      throw cli::UsageError("--dark-solid, --smooth and --separation do not apply to --input labels");

    ct::AvatarOptions avatars;
    const std::string spread_rule = o.text("--point-spread", seg.input == ct::InputKind::grey ? "auto" : "none");
    double spread = 0;
    if (spread_rule == "auto") {
      if (seg.input != ct::InputKind::grey) throw cli::UsageError("--point-spread auto needs grey values (--input grey)");
      avatars.estimate_point_spread = true;
    } else if (spread_rule != "none") {
      spread = o.number("--point-spread", 0);
      if (!(spread >= 0)) throw cli::UsageError("--point-spread: auto, none or σ ≥ 0 in voxels");
    }
    avatars.min_voxels = o.count("--min-voxels", 27);
    avatars.drop_border = o.has("--drop-border");
    avatars.voxel_size = o.number("--ls-voxel-size", 0);
    if (o.has("--ls-voxel-size") && !(avatars.voxel_size > 0)) throw cli::UsageError("--ls-voxel-size: must be > 0");
    avatars.band = o.number("--band", 3);
    if (!(avatars.band >= 3)) throw cli::UsageError("--band: must be at least 3 voxels");
    avatars.nodes = o.count("--nodes", 1000);
    avatars.node_method = o.choice("--node-method", {"auto", "rays", "surface", "grid"});
    avatars.source = scan.string();
    const bool plot = !o.has("--no-plot");
    if (plot) cli::ensure_display(argc, argv);

    const fs::path parent = out.parent_path().empty() ? fs::path(".") : out.parent_path();
    if (!fs::is_directory(parent)) throw formats::FileError(out, "cannot write: directory " + parent.string() + " does not exist");
    const ct::Volume volume = ct::read_volume(scan, read);
    avatars.point_spread = spread * *std::min_element(volume.spacing.begin(), volume.spacing.end());
    const ct::Segmentation segmentation = ct::segment(volume, seg, scan.string());
    TempFolder temp{parent / (".tmp-" + std::to_string(::getpid()) + "-" + out.filename().string())};
    fs::create_directory(temp.path);
    cli::ProgressLine progress(tool.name, "building", "grains");
    avatars.progress = [&](std::size_t done, std::size_t total) { progress.update(done, total); };
    ct::GrainSet set;
    try {
      set = ct::write_grain_avatars(temp.path, volume, segmentation, avatars);
    } catch (const std::invalid_argument& e) {
      throw formats::FileError(scan, e.what());
    }
    progress.finish();
    if (set.grains.empty())
      throw formats::FileError(scan, "no grain left: " + std::to_string(set.dropped_small) + " under --min-voxels, " +
                                         std::to_string(set.dropped_border) + " touching the border");
    ct::write_grain_table(temp.path / "grains.csv", set);
    ct::write_library(temp.path / "library.yaml", set, scan.string());
    if (plot) ct::plot_size_distribution(temp.path / "size_distribution.png", set, "grain sizes: " + scan.filename().string());
    if (o.has("--labels-out")) {
      ct::Volume labels = volume;
      labels.values.assign(segmentation.labels.values.begin(), segmentation.labels.values.end());
      ct::write_volume(o.text("--labels-out"), labels, segmentation.labels.count > 65535 ? "float32" : "uint16", read.header_unit);
    }
    replace_folder(temp.path, out);
    temp.path.clear();

    std::ostringstream s;
    s.precision(4);
    double smallest = set.grains.front().equivalent_diameter, largest = smallest;
    for (const auto& g : set.grains) smallest = std::min(smallest, g.equivalent_diameter), largest = std::max(largest, g.equivalent_diameter);
    s << out.string() << ": " << set.grains.size() << (set.grains.size() == 1 ? " grain" : " grains") << " from "
      << scan.string() << " (" << volume.size[0] << " × " << volume.size[1] << " × " << volume.size[2] << " "
      << volume.voxel_type << ")";
    if (set.dropped_small || set.dropped_border || set.dropped_degenerate)
      s << "; dropped " << set.dropped_small << " under " << avatars.min_voxels << " voxels, " << set.dropped_border
        << " touching the border, " << set.dropped_degenerate << " too thin for a rigid body";
    s << "\n  ";
    if (seg.input == ct::InputKind::grey) {
      s << "threshold " << segmentation.threshold;
      if (seg.halfway) s << " (halfway between the peaks " << segmentation.pore_level << " and " << segmentation.solid_level << ")";
      else if (!seg.threshold) s << " (Otsu)";
      s << ", ";
    }
    s << "solid fraction " << segmentation.solid_fraction;
    if (seg.input != ct::InputKind::labels)
      s << ", " << segmentation.specks_removed << " specks removed, " << segmentation.pores_filled << " pores filled";
    const double scan_voxel = *std::min_element(volume.spacing.begin(), volume.spacing.end());
    if (avatars.estimate_point_spread) {
      const double sign = seg.solid_dark ? -1 : 1;  // the field is negated for a dark solid
      s << "\n  point spread ";
      if (!set.edge_fit.samples) s << "not estimated (too few clean grain edges): no correction";
      else if (set.edge_fit.at_limit) s << "not estimated (no blurred edge in the grey values): no correction";
      else s << set.point_spread / scan_voxel << " voxels, fitted to " << set.edge_fit.samples << " voxels at grain edges (pore "
             << sign * set.edge_fit.pore << ", solid " << sign * set.edge_fit.solid << ", residual " << set.edge_fit.rms << ")";
    } else if (set.point_spread > 0) {
      s << "\n  point spread " << set.point_spread / scan_voxel << " voxels (given)";
    }
    s << "\n  equivalent diameters " << 1e3 * smallest << " to " << 1e3 * largest << " mm, median "
      << 1e3 * ct::median_diameter(set) << " mm\n";
    std::cout << s.str();
    // A threshold inside one phase's noise leaves specks by the thousand: Otsu's threshold does
    // that when one phase is a tiny fraction of the scan.
    if (seg.input == ct::InputKind::grey && segmentation.specks_removed > 10 * (set.grains.size() + 10))
      std::cerr << tool.name << ": warning: " << scan.string() << ": " << segmentation.specks_removed
                << " specks removed for " << set.grains.size() << (set.grains.size() == 1 ? " grain" : " grains")
                << ": the threshold cuts through noise; give --threshold VALUE (or --smooth)\n";
    return 0;
  });
}
