// scree-solve: the impulse-based level-set DEM solver (energy tracking method) over a case.
#include <cmath>
#include <iostream>

#include "formats/case.h"
#include "formats/error.h"
#include "formats/state.h"
#include "solver/simulation.h"
#include "tools/cli/cli.h"
#include "tools/cli/options.h"
#include "tools/cli/progress.h"

using namespace scree;

int main(int argc, char** argv) {
  const cli::Tool tool{
      "scree-solve", "scree-solve CASE.yaml [--restart CHECKPOINT.h5]",
      "Runs the impulse-based LS-DEM of a case file: grains from its initial state (or a\n"
      "checkpoint), walls, gravity; collisions by the energy tracking method, resting contact\n"
      "by the predict-correct treatment (docs/theory.md). Writes frames (frame_NNNNNN.h5) at\n"
      "every frame interval, log.csv (energies by cause, contacts, islands, Courant number),\n"
      "checkpoints, and checkpoint.h5 at the end, into the case's output directory.",
      "  --restart FILE   continue from a checkpoint written by an earlier run of this case\n",
      "  scree-solve incline.yaml\n"
      "  scree-solve incline.yaml --restart out/checkpoint.h5\n"};
  return cli::run(tool, argc, argv, [&](const std::vector<std::string>& args) {
    cli::Options o(args, {"--restart"}, {});
    const std::string case_file = o.single_positional("CASE file");
    formats::Case setup = formats::read_case(case_file);
    const bool restarting = o.has("--restart");
    const std::filesystem::path state_file = restarting ? std::filesystem::path(o.text("--restart")) : setup.initial_state;
    formats::State state = formats::read_state(state_file);
    if (restarting && state.kind != formats::StateKind::checkpoint)
      throw formats::FileError(state_file, "is a " + std::string(formats::to_string(state.kind)) +
                                               " file, not a checkpoint");
    if (restarting) setup.initial_state = state_file;
    solver::Simulation sim = solver::load_simulation(setup, state);
    cli::ProgressLine line("scree-solve", "stepping", "steps");
    const double dt = setup.time.step;
    const std::size_t total = std::size_t(std::llround(setup.time.duration / dt));
    solver::run_simulation(sim, restarting, [&](double time, double) {
      line.update(std::size_t(std::llround(time / dt)), total);
    });
    line.finish();
    std::cout << case_file << ": " << sim.world.step << " steps to t = " << sim.world.time << " s, "
              << sim.world.grain_count() << " grains; output in " << setup.output.directory.string() << "\n";
    return 0;
  });
}
