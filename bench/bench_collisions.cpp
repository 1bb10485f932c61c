// The energy tracking method on one island, as the solver meets it in a heap: contacts
// resolved per second. Spheres on a cubic lattice, each touching its neighbours, all moving
// at random: every lattice bond is a collision of the island, resolved together.
#include <benchmark/benchmark.h>

#include <numbers>
#include <random>

#include "solver/impulse/energy_tracking.h"

namespace {

using namespace scree::solver;

struct Island {
  std::vector<RigidBody> bodies;
  std::vector<Collision> collisions;
};

Island lattice(int side) {
  Island island;
  const double radius = 0.01, density = 2650, volume = 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
  std::mt19937 rng(11);
  std::normal_distribution<double> speed(0, 0.1);
  auto index = [&](int i, int j, int k) { return std::uint32_t((i * side + j) * side + k); };
  for (int i = 0; i < side; ++i)
    for (int j = 0; j < side; ++j)
      for (int k = 0; k < side; ++k) {
        RigidBody b = RigidBody::from_template(density, volume, Vec3::Constant(0.4 * volume * radius * radius), 1);
        b.position = 2 * radius * Vec3(i, j, k);
        b.velocity = Vec3(speed(rng), speed(rng), speed(rng));
        island.bodies.push_back(b);
      }
  for (int i = 0; i < side; ++i)
    for (int j = 0; j < side; ++j)
      for (int k = 0; k < side; ++k)
        for (int axis = 0; axis < 3; ++axis) {
          int n[3] = {i, j, k};
          if (++n[axis] == side) continue;
          const std::uint32_t a = index(n[0], n[1], n[2]), b = index(i, j, k);
          const Vec3 normal = Vec3::Unit(axis);  // from B towards A
          island.collisions.push_back({a, b, island.bodies[b].position + radius * normal, normal, 0.5, 0.5});
        }
  return island;
}

void BM_EnergyTrackingIsland(benchmark::State& state) {
  const Island island = lattice(int(state.range(0)));
  std::int64_t increments = 0;
  for (auto _ : state) {
    std::vector<RigidBody> bodies = island.bodies;
    increments += resolve_collisions(bodies, island.collisions, EnergyTrackingSettings{}).increments;
    benchmark::DoNotOptimize(bodies.data());
  }
  state.counters["contacts"] = double(island.collisions.size());
  state.counters["contacts/s"] = benchmark::Counter(double(island.collisions.size()) * double(state.iterations()),
                                                    benchmark::Counter::kIsRate);
  state.counters["increments/s"] = benchmark::Counter(double(increments), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_EnergyTrackingIsland)->Arg(2)->Arg(3)->Arg(4)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
