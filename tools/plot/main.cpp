// scree-plot: a run's pictures as PNG (energy, runout, speeds, deposit map, snapshots).
#include <algorithm>
#include <cmath>
#include <iostream>

#include "formats/case.h"
#include "post/run_frames.h"
#include "post/run_plots.h"
#include "tools/cli/cli.h"
#include "tools/cli/display.h"
#include "tools/cli/options.h"
#include "tools/cli/progress.h"

using namespace scree;

int main(int argc, char** argv) {
  const cli::Tool tool{
      "scree-plot", "scree-plot CASE.yaml -o FOLDER [options]",
      "Draws a run as PNG pictures: energy.png (the energy terms of the solver's log over\n"
      "time), runout.png and speeds.png (over time, from the frames), deposit.png (the last\n"
      "frame's solid thickness seen from above) and snapshot_NNNNNN.png (grains on the\n"
      "ground, coloured by speed). Renders off screen; with no DISPLAY it starts a virtual\n"
      "one through xvfb-run.",
      "  -o FOLDER              where to write (made if missing; required)\n"
      "      --at T1,T2,...     snapshot times, s: each at the nearest frame (default: the\n"
      "                         first frame and the last)\n"
      "      --size W,H         picture size in pixels (default 1200,800)\n"
      "      --percentile P     for the runout, as scree-runout (default 95)\n"
      "      --triangles N      at most N triangles per grain template (default 1000)\n",
      "  scree-plot case.yaml -o out/plots\n"
      "  scree-plot case.yaml -o out/plots --at 0,2.5,5,10 --size 1920,1080\n"};
  return cli::run(tool, argc, argv, [&](const std::vector<std::string>& args) {
    cli::Options o(args, {"-o", "--at", "--size", "--percentile", "--triangles"}, {});
    const std::string case_file = o.single_positional("case file"), out = o.required_text("-o");
    post::RunPlotOptions options;
    if (o.has("--at")) {
      const std::string list = o.text("--at");
      const std::size_t count = std::size_t(std::count(list.begin(), list.end(), ',')) + 1;
      options.snapshot_times = o.numbers("--at", count);
    }
    if (o.has("--size")) {
      const auto size = o.pair("--size");
      if (!(size[0] >= 200 && size[1] >= 150 && size[0] <= 8192 && size[1] <= 8192 && size[0] == std::floor(size[0]) &&
            size[1] == std::floor(size[1])))
        throw cli::UsageError("--size: width and height must be whole numbers of pixels, 200 × 150 to 8192 × 8192");
      options.size = {int(size[0]), int(size[1])};
    }
    options.runout.percentile = o.number("--percentile", 95);
    if (!(options.runout.percentile > 50 && options.runout.percentile <= 100))
      throw cli::UsageError("--percentile: must lie in (50, 100]");
    options.triangles = o.count("--triangles", 1000);
    if (options.triangles < 20) throw cli::UsageError("--triangles: must be a whole number ≥ 20");
    const formats::Case c = formats::read_case(case_file);
    const auto frame_files = post::find_frames(c);
    const auto frames = post::read_frames(c, frame_files);
    cli::ensure_display(argc, argv);
    cli::ProgressLine progress(tool.name, "drawing", "pictures");
    options.progress = [&](std::size_t done, std::size_t total) { progress.update(done, total); };
    const auto written = post::write_run_plots(c, frames, frame_files, out, options);
    progress.finish();
    for (const auto& file : written) std::cout << file.string() << "\n";
    return 0;
  });
}
