// scree-solve: the impulse-based level-set DEM solver (energy tracking method) over a case.
#include <cmath>
#include <csignal>
#include <iostream>
#include <optional>

#include "formats/case.h"
#include "formats/error.h"
#include "formats/state.h"
#include "run/mpi_launch.h"
#include "run/simulation.h"
#include "solver/ranks/communicator.h"
#include "tools/cli/cli.h"
#include "tools/cli/options.h"
#include "tools/cli/progress.h"

using namespace scree;

namespace {
// SIGINT or SIGTERM (a batch system's notice before it kills a job): the run stops after
// the step it is in, writes a checkpoint and exits with 128 + the signal's number.
volatile std::sig_atomic_t stop_signal = 0;
void request_stop(int signal) { stop_signal = signal; }

int solve(const std::vector<std::string>& args, const solver::Ranks& ranks) {
  cli::Options o(args, {"--restart"}, {});
  const std::string case_file = o.single_positional("CASE file");
  if (const run::MpiLaunch launch = run::mpi_launch(); launch.ranks > ranks.size()) {
    if (launch.rank > 0) return 1;  // rank 0 says why
    throw std::runtime_error("started on " + std::to_string(launch.ranks) +
                             " MPI ranks, but this scree-solve was built without MPI: each would run the whole case");
  }
  formats::Case setup = formats::read_case(case_file);
  run::check_rank_count(setup, ranks.size());
  const bool restarting = o.has("--restart");
  const std::filesystem::path state_file = restarting ? std::filesystem::path(o.text("--restart")) : setup.initial_state;
  if (restarting) setup.initial_state = state_file;
  auto check_kind = [&](const formats::State& head) {
    if (restarting && head.kind != formats::StateKind::checkpoint)
      throw formats::FileError(state_file, "is a " + std::string(formats::to_string(head.kind)) + " file, not a checkpoint");
  };
  // The state read is let go before the run: a checkpoint's contact cache is as big as the
  // world's own store of it (docs/benchmarks.md, the seventh pass). On several ranks each
  // reads a slice of it.
  std::size_t grains = 0;
  run::Simulation sim = [&] {
    if (ranks.size() > 1) {
      const formats::StateReader in(state_file);
      check_kind(in.head());
      grains = in.body_count();
      return run::load_simulation_across_ranks(setup, in, ranks);
    }
    const formats::State state = formats::read_state(state_file);
    check_kind(state);
    grains = state.bodies.size();
    return run::load_simulation(setup, state);
  }();
  const bool speaks = ranks.rank() == 0;  // what a user reads comes from rank 0
  if (speaks)
    std::cout << "scree-solve: " << grains << (grains == 1 ? " grain, " : " grains, ")
              << (ranks.size() > 1 ? std::to_string(ranks.size()) + " MPI ranks × " : "") << cli::thread_layout()
              << (sim.share && !sim.share->paced ? "; more threads than cores: the ranks' shares even, not by their pace" : "")
              << std::endl;
  std::optional<cli::ProgressLine> line;
  if (speaks) line.emplace("scree-solve", "stepping", "steps");
  const std::size_t first_step = std::size_t(sim.world.step);
  const double first_time = sim.world.time;
  std::signal(SIGINT, request_stop);
  std::signal(SIGTERM, request_stop);
  const bool finished = run::run_simulation(
      sim, restarting,
      [&](double time, double duration) {
        if (line)
          line->update([&](double seconds) {
            return cli::stepping_text(std::size_t(sim.world.step), time, duration, first_step, first_time, seconds);
          });
      },
      [] { return stop_signal != 0; });
  const std::string times = run::times_table(sim.times, ranks);  // every rank's spread, on every rank
  if (!speaks) return finished ? 0 : 128 + int(stop_signal);
  line->finish();
  std::cout << "scree-solve: where the time went" << (ranks.size() > 1 ? " on rank 0" : "") << ", " << times << std::flush;
  if (!finished) {
    const std::filesystem::path checkpoint = setup.output.directory / "checkpoint.h5";
    std::cerr << "scree-solve: " << (stop_signal == SIGINT ? "SIGINT" : "SIGTERM") << " at step " << sim.world.step
              << ", t = " << sim.world.time << " s: wrote " << checkpoint.string() << "; continue with scree-solve "
              << case_file << " --restart " << checkpoint.string() << "\n";
    return 128 + int(stop_signal);
  }
  std::cout << case_file << ": " << sim.world.step << " steps to t = " << sim.world.time << " s, " << grains
            << (grains == 1 ? " grain" : " grains") << "; output in " << setup.output.directory.string() << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const cli::Tool tool{
      "scree-solve", "scree-solve CASE.yaml [--restart CHECKPOINT.h5]",
      "Runs the impulse-based LS-DEM of a case file: grains from its initial state (or a\n"
      "checkpoint), walls, gravity; collisions by the energy tracking method, resting contact\n"
      "by the predict-correct treatment (docs/theory.md). Writes frames (frame_NNNNNN.h5) at\n"
      "every frame interval, log.csv (energies by cause, contacts, islands, Courant number),\n"
      "checkpoints, and checkpoint.h5 at the end, into the case's output directory.\n"
      "SIGINT (Ctrl-C) or SIGTERM stops the run after the current step with a checkpoint\n"
      "(exit status 130 or 143); --restart from it continues bit for bit.\n"
      "It uses a node's cores through OpenMP threads (OMP_NUM_THREADS, default every core;\n"
      "waiting threads sleep unless OMP_WAIT_POLICY says otherwise), and nodes through MPI\n"
      "ranks (mpirun -n R, srun): each rank steps the grains of its region of space, the\n"
      "regions a grid (the case's parallel.ranks: [nx, ny, nz]) or cut so that each holds\n"
      "as many grains (auto, the default). Frames, log and checkpoints are the same files,\n"
      "to the last bit, on any number of ranks and threads (docs/parallel.md, docs/hpc.md).",
      "  --restart FILE   continue from a checkpoint written by an earlier run of this case\n",
      "  scree-solve incline.yaml\n"
      "  scree-solve incline.yaml --restart out/checkpoint.h5\n"
      "  OMP_NUM_THREADS=8 mpirun -n 4 scree-solve avalanche.yaml\n"};
  return cli::run(tool, argc, argv, [&](const std::vector<std::string>& args) {
    const solver::MpiSession session(argc, argv);
    const solver::Ranks ranks = solver::Ranks::world();
    if (ranks.size() == 1) return solve(args, ranks);
    // Every rank meets the same bad input (each reads and checks the same files, and a file
    // the ranks write fails on all of them): rank 0 says what it is, and the others wait until
    // it has, as mpirun stops every rank once one ends with an error.
    int status = 0;
    try {
      status = solve(args, ranks);
    } catch (const cli::UsageError& e) {
      if (ranks.rank() == 0) cli::print_error(tool, e.what(), "Try '" + tool.name + " --help'.");
      status = 2;
    } catch (const std::exception& e) {
      if (ranks.rank() == 0) cli::print_error(tool, e.what());
      status = 1;
    }
    if (status == 1 || status == 2) ranks.barrier();
    return status;
  });
}
