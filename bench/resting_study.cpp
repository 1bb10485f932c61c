// Seed 002's study of warm starting, on scree's resting solve (docs/validation.md, "Warm
// starting"): a column of N balls (r = 1 cm, ρ = 2650, μ = 0.5) set down touching on the
// floor settles for 0.3 s at Δt = 1 ms with the default tolerance, warm started with
// β = 0, 0.5, 0.85 and 1, by plain projected Gauss–Seidel, by conjugate passes, and by
// conjugate passes with the coarse step (the defaults). Per run: the passes a step takes on
// average over the run and over its last 0.1 s, and the floor's load over its last 0.1 s
// against the weight. Writes CSV to stdout and, given a file name, the chart of mean passes
// against N (β = 0 and 1) as a PNG.
//
//   xvfb-run -a build/bin/resting_study docs/images/resting_study.png > resting_study.csv
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "geometry/grain_shape.h"
#include "plot/plots.h"
#include "solver/step.h"
#include "solver/world.h"

namespace {

using namespace scree::solver;

struct Outcome {
  double mean_passes = 0, settled_passes = 0, worst_load = 0;
};

enum class Solver { gauss_seidel, conjugate, coarse };
const char* name_of(Solver solver) {
  return solver == Solver::gauss_seidel ? "gauss_seidel"
         : solver == Solver::conjugate  ? "conjugate"
                                        : "conjugate_coarse";
}

Outcome settle_column(int balls, double beta, Solver solver) {
  World w;
  const double r = 0.01;
  w.shapes.push_back(scree::geometry::GrainShape::sphere(r));
  w.laws = {{0.5, 0.5}};
  for (int k = 0; k < balls; ++k) w.add_grain(std::uint64_t(k + 1), 0, 0, 2650, 1, Vec3(0, 0, r + 2 * r * k), Quat::Identity());
  w.add_wall(Wall{});
  StepSettings s;
  s.impulse.warm_start = beta;
  s.impulse.resting_conjugate = solver != Solver::gauss_seidel;
  if (solver != Solver::coarse) s.impulse.resting_coarse_every = 0;
  const double weight_impulse = balls * s.gravity.norm() * s.time_step / w.bodies[0].inverse_mass;
  constexpr int steps = 300, settled_from = 200;
  Outcome o;
  for (int step = 0; step < steps; ++step) {
    const StepReport report = advance(w, s);
    o.mean_passes += report.passes / double(steps);
    if (step < settled_from) continue;
    o.settled_passes += report.passes / double(steps - settled_from);
    o.worst_load = std::max(o.worst_load, std::abs(-report.wall_impulse[0].z() / weight_impulse - 1));
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const int columns[] = {10, 20, 50, 100};
  const double betas[] = {0, 0.5, 0.85, 1};
  scree::post::LineChart chart{"Resting solve: a column of N balls settling (0.3 s, dt 1 ms)", "balls in the column",
                               "passes a step, mean over the run", {}, false};
  std::printf("solver,beta,balls,mean_passes,settled_passes,worst_load_error\n");
  for (Solver solver : {Solver::gauss_seidel, Solver::conjugate, Solver::coarse})
    for (double beta : betas) {
      scree::post::Series series{std::string(name_of(solver)) + ", beta " + std::to_string(beta).substr(0, 4), {}, {}};
      for (int balls : columns) {
        const Outcome o = settle_column(balls, beta, solver);
        std::printf("%s,%g,%d,%.1f,%.1f,%.2g\n", name_of(solver), beta, balls, o.mean_passes,
                    o.settled_passes, o.worst_load);
        std::fflush(stdout);
        series.x.push_back(balls);
        series.y.push_back(o.mean_passes);
      }
      if (beta == 0 || beta == 1) chart.series.push_back(series);  // the chart's colours tell six apart
    }
  if (argc > 1) scree::post::plot_lines(argv[1], chart, {});
}
