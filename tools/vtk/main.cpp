// scree-vtk: a run's frames as a ParaView time series.
#include <cmath>
#include <iostream>

#include "formats/case.h"
#include "post/paraview_series.h"
#include "post/run_frames.h"
#include "tools/cli/cli.h"
#include "tools/cli/options.h"
#include "tools/cli/progress.h"

using namespace scree;

int main(int argc, char** argv) {
  const cli::Tool tool{
      "scree-vtk", "scree-vtk CASE.yaml -o FOLDER [options]",
      "Writes the frames of a run (frame_*.h5 in the case's output folder) as ParaView time\n"
      "series: grains.pvd, each grain drawn as its template's surface with its id, template,\n"
      "velocity, speed and angular velocity; walls.pvd when the case has walls; terrain.vtp\n"
      "when it has a terrain. Open them together in ParaView (File > Open).",
      "  -o FOLDER           where to write (made if missing; required)\n"
      "      --triangles N   at most N triangles per grain template (default 1000): the\n"
      "                      template's level-set surface decimated, keeping its volume\n",
      "  scree-vtk case.yaml -o out/vtk\n"
      "  scree-vtk case.yaml -o out/vtk --triangles 5000\n"
      "  paraview out/vtk/grains.pvd out/vtk/terrain.vtp\n"};
  return cli::run(tool, argc, argv, [&](const std::vector<std::string>& args) {
    cli::Options o(args, {"-o", "--triangles"}, {});
    const std::string case_file = o.single_positional("case file"), out = o.required_text("-o");
    post::SeriesOptions options;
    const double triangles = o.number("--triangles", 1000);
    if (!(triangles >= 20 && triangles == std::floor(triangles))) throw cli::UsageError("--triangles: must be a whole number ≥ 20");
    options.triangles = std::size_t(triangles);
    const formats::Case c = formats::read_case(case_file);
    const auto frames = post::find_frames(c);
    cli::ProgressLine progress(tool.name, "writing", "frames");
    options.progress = [&](std::size_t done, std::size_t total) { progress.update(done, total); };
    const post::SeriesReport report = post::write_paraview_series(c, frames, out, options);
    progress.finish();
    std::cout << post::describe(out, report);
    return 0;
  });
}
