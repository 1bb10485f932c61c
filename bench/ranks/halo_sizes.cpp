// How big the ranks' halos are (issue 28's model of communication, docs/benchmarks.md): the
// grains of a state cut into R regions by bisection (weighted by one a grain), the halo as
// deep as the step needs it (two cells of the resting tiles and the contact search's reach:
// twice `largest_reach`, and the neighbour list's skin), and for each R the grains each rank
// owns and holds of others, its neighbours, and the bytes a refresh of the halo moves.
//
//   halo_sizes CASE.yaml STATE.h5 [R ...]      (R default 2 4 8 16)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

#include "formats/case.h"
#include "formats/state.h"
#include "run/simulation.h"
#include "solver/impulse/tiles.h"
#include "solver/ranks/decomposition.h"

using namespace scree;

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: halo_sizes CASE.yaml STATE.h5 [R ...]\n");
    return 2;
  }
  std::vector<int> counts;
  for (int k = 3; k < argc; ++k) {
    const int ranks = std::atoi(argv[k]);
    if (ranks < 1) {
      std::fprintf(stderr, "halo_sizes: error: %s is not a number of ranks\n", argv[k]);
      return 2;
    }
    counts.push_back(ranks);
  }
  run::Simulation sim;
  try {
    formats::Case setup = formats::read_case(argv[1]);
    setup.initial_state = argv[2];
    sim = run::load_simulation(setup, formats::read_state(argv[2]));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "halo_sizes: error: %s\n", e.what());
    return 1;
  }
  const solver::World& w = sim.world;
  if (counts.empty()) counts = {2, 4, 8, 16};

  double largest = 0, mean = 0;
  std::vector<solver::Vec3> places;
  for (std::uint32_t i = 0; i < w.grain_count(); ++i) {
    const double radius = w.shapes[w.shape[i]].bounding_radius * w.scale[i];
    largest = std::max(largest, radius);
    mean += radius / double(w.grain_count());
    places.push_back(w.bodies[i].position);
  }
  // The neighbour list's skin is half the mean bounding radius (solver/impulse/predict_correct.cpp).
  const double halo = 2 * solver::largest_reach(largest, 0) + 0.5 * mean;
  // What a refresh sends of a grain: place, turn, velocity, spin (refresh_halo()).
  constexpr double bytes_a_grain = 13 * 8;
  std::printf("%zu grains, largest bounding radius %.4g m, halo %.4g m\n", w.grain_count(), largest, halo);
  std::printf("%6s %10s %10s %10s %10s %10s %12s %14s\n", "ranks", "own_min", "own_max", "halo_mean", "halo_max",
              "neighbours", "halo/own", "refresh_kB_max");
  for (int ranks : counts) {
    const solver::Decomposition d =
        solver::Decomposition::bisection(places, std::vector<std::int64_t>(places.size(), 1), ranks);
    std::vector<std::size_t> own(std::size_t(ranks), 0), held(std::size_t(ranks), 0);
    for (const solver::Vec3& at : places) {
      ++own[std::size_t(d.owner(at))];
      for (int r : d.ranks_near(at, halo))
        if (r != d.owner(at)) ++held[std::size_t(r)];
    }
    std::size_t neighbours = 0;
    for (int r = 0; r < ranks; ++r) neighbours = std::max(neighbours, d.neighbours(r, halo).size());
    double halo_mean = 0;
    for (std::size_t h : held) halo_mean += double(h) / ranks;
    const std::size_t halo_max = *std::max_element(held.begin(), held.end());
    std::printf("%6d %10zu %10zu %10.1f %10zu %10zu %12.3f %14.1f\n", ranks, *std::min_element(own.begin(), own.end()),
                *std::max_element(own.begin(), own.end()), halo_mean, halo_max, neighbours,
                halo_mean / (double(w.grain_count()) / ranks), double(halo_max) * bytes_a_grain / 1024);
  }
  return 0;
}
