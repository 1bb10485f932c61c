// scree-phantom: a synthetic CT scan of known grains, to check scree-ct against.
#include <cmath>
#include <fstream>
#include <iostream>
#include <utility>

#include "ct/phantom.h"
#include "ct/write_volume.h"
#include "formats/atomic_file.h"
#include "formats/error.h"
#include "tools/cli/cli.h"
#include "tools/cli/options.h"

using namespace scree;

int main(int argc, char** argv) {
  const cli::Tool tool{
      "scree-phantom", "scree-phantom -o SCAN [--slices FOLDER/] [--dicom FOLDER/] [--labels FILE] [--truth CSV] [options]",
      "Writes a synthetic CT scan: twelve spheres and superellipsoids, 5 to 11 voxels in\n"
      "radius, at random places and turns, some in contact (two pairs, a superellipsoid with a\n"
      "sphere against it, a chain of three), rendered by the fraction of each voxel they fill,\n"
      "blurred by a Gaussian point spread and given Gaussian noise, as 8-bit grey values\n"
      "(pore 60, solid 180). SCAN is .nrrd, .mha, .nii or a multi-page .tif; header lengths in\n"
      "mm. --truth lists each grain's shape, closed-form volume and centre.",
      "  -o FILE            the scan (required)\n"
      "      --slices DIR/  the same scan as a folder of TIFF slices\n"
      "      --dicom DIR/   the same scan as a DICOM series (one file per slice)\n"
      "      --labels FILE  the true labels (voxel centres inside each grain)\n"
      "      --truth CSV    grain, shape, volume_m3, centroid_x_m, centroid_y_m, centroid_z_m, touches\n"
      "      --size N       voxels along each axis (default 96, at least 64)\n"
      "      --voxel-size H metres (default 1e-4)\n"
      "      --blur S       σ of the point spread, voxels (default 0.8)\n"
      "      --noise S      σ of the noise, grey values (default 6)\n"
      "      --seed S       random seed (default 1)\n",
      "  scree-phantom -o phantom.nrrd --truth truth.csv\n"
      "  scree-phantom -o phantom.nrrd --slices phantom_tiff/ --labels truth.nrrd --noise 10\n"
      "  scree-phantom -o phantom.nii --dicom phantom_dicom/\n"};
  return cli::run(tool, argc, argv, [&](const std::vector<std::string>& args) {
    cli::Options o(args, {"-o", "--slices", "--dicom", "--labels", "--truth", "--size", "--voxel-size", "--blur", "--noise", "--seed"}, {});
    if (!o.positional().empty()) throw cli::UsageError("unexpected argument '" + o.positional().front() + "'");
    const std::string out = o.required_text("-o");
    ct::PhantomOptions p;
    const std::size_t n = o.count("--size", 96);
    p.size = {n, n, n};
    p.voxel_size = o.number("--voxel-size", p.voxel_size);
    p.blur = o.number("--blur", p.blur);
    p.noise = o.number("--noise", p.noise);
    const double seed = o.number("--seed", 1);
    if (!(seed >= 0 && seed == std::floor(seed))) throw cli::UsageError("--seed: must be a whole number ≥ 0");
    p.seed = std::uint64_t(seed);
    ct::Phantom phantom;
    try {
      phantom = ct::make_phantom(p);
    } catch (const std::invalid_argument& e) {
      throw cli::UsageError(e.what());
    }
    if (o.has("--truth")) formats::check_writable(o.text("--truth"));
    ct::write_volume(out, phantom.grey, "uint8");
    for (const auto& [option, format] : {std::pair{"--slices", ct::SliceFormat::tiff}, std::pair{"--dicom", ct::SliceFormat::dicom}})
      if (o.has(option)) {
        std::string folder = o.text(option);
        if (folder.back() != '/') folder += '/';
        ct::write_volume(folder, phantom.grey, "uint8", 1e-3, format);
      }
    if (o.has("--labels")) {
      ct::Volume labels = phantom.grey;
      labels.values.assign(phantom.labels.values.begin(), phantom.labels.values.end());
      ct::write_volume(o.text("--labels"), labels, "uint8");
    }
    if (o.has("--truth")) {
      formats::AtomicFile atomic(o.text("--truth"));
      {
        std::ofstream csv(atomic.temp_path());
        csv.precision(9);
        csv << "grain,shape,volume_m3,centroid_x_m,centroid_y_m,centroid_z_m,touches\n";
        for (std::size_t g = 0; g < phantom.grains.size(); ++g) {
          const auto& x = phantom.grains[g];
          csv << g + 1 << ",\"" << x.shape << "\"," << x.volume << ',' << x.centre[0] << ',' << x.centre[1] << ','
              << x.centre[2] << ',' << x.touches << '\n';
        }
        if (!csv) throw formats::FileError(o.text("--truth"), "cannot write");
      }
      atomic.commit();
    }
    std::cout << out << ": " << n << "³ voxels of " << p.voxel_size << " m, " << phantom.grains.size() << " grains\n";
    return 0;
  });
}
