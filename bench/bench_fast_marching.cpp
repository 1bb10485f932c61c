// Fast marching against OpenVDB's fast sweeping on the same grid, and the memory of an
// avatar against YADE's dense grid (seed 004 §6: 8 bytes per grid point + 24 per node).
#include <benchmark/benchmark.h>
#include <openvdb/tools/FastSweeping.h>

#include <cmath>
#include <filesystem>
#include <map>

#include "levelset/avatar_builder.h"
#include "levelset/fast_marching.h"

namespace {

using namespace scree::levelset;

struct SphereCase {
  openvdb::FloatGrid::Ptr boundary, marched;
  double radius;
};

// A sphere of radius 1 at r_g grid points per diameter: its boundary values, and the marched
// result whose topology the sweeping run reuses.
const SphereCase& sphere_case(int r_g) {
  static std::map<int, SphereCase> cases;
  auto [it, added] = cases.try_emplace(r_g);
  if (added) {
    openvdb::initialize();
    auto samples = sample_implicit(make_sphere(1), 2.0 / r_g);
    it->second.boundary = interface_band(samples);
    it->second.marched = march(*it->second.boundary);
    it->second.radius = 1;
  }
  return it->second;
}

// Mean |φ − φ_exact| / |φ_exact| over the active voxels (seed 004 eq. 30).
double relative_error(const openvdb::FloatGrid& phi, double radius) {
  double sum = 0;
  std::size_t n = 0;
  for (auto it = phi.cbeginValueOn(); it; ++it) {
    double exact = phi.indexToWorld(it.getCoord()).length() - radius;
    if (std::abs(exact) < 1e-12) continue;
    sum += std::abs((*it - exact) / exact);
    ++n;
  }
  return sum / double(n);
}

void report(benchmark::State& state, const openvdb::FloatGrid& phi, double radius) {
  state.counters["voxels/s"] = benchmark::Counter(double(phi.activeVoxelCount()) * double(state.iterations()),
                                                  benchmark::Counter::kIsRate);
  state.counters["voxels"] = double(phi.activeVoxelCount());
  state.counters["err_avg"] = relative_error(phi, radius);
}

void BM_FastMarching(benchmark::State& state) {
  const auto& c = sphere_case(int(state.range(0)));
  MarchOptions options;
  options.order = int(state.range(1));
  openvdb::FloatGrid::Ptr phi;
  for (auto _ : state) phi = march(*c.boundary, options);
  report(state, *phi, c.radius);
}
BENCHMARK(BM_FastMarching)->ArgsProduct({{20, 40, 80}, {1, 2}})->ArgNames({"r_g", "order"})->Unit(benchmark::kMillisecond);

// OpenVDB's fast sweeping re-solving |∇φ| = 1 on the same active voxels, starting from the
// same boundary values (the rest set to ± the band width, as a sweeping user would).
void BM_FastSweeping(benchmark::State& state) {
  const auto& c = sphere_case(int(state.range(0)));
  auto start = c.marched->deepCopy();
  auto boundary = c.boundary->getConstAccessor();
  for (auto it = start->beginValueOn(); it; ++it) {
    float v;
    if (!boundary.probeValue(it.getCoord(), v)) it.setValue(*it < 0 ? -1.0f : 1.0f);
  }
  openvdb::FloatGrid::Ptr phi;
  for (auto _ : state) phi = openvdb::tools::sdfToSdf(*start, 0.0f, int(state.range(1)));
  report(state, *phi, c.radius);
}
BENCHMARK(BM_FastSweeping)->ArgsProduct({{20, 40, 80}, {1, 4}})->ArgNames({"r_g", "iterations"})->Unit(benchmark::kMillisecond);

// Bytes per avatar: scree's sparse level set (OpenVDB memUsage) plus float nodes, the file
// on disk, and YADE's dense grid over the shape's box plus one cell each side (8 bytes per
// point) plus 24 bytes per node, for seed 004's shapes at 20 voxels across and 2000 nodes.
void BM_AvatarMemory(benchmark::State& state) {
  struct Table1 {
    Vec3d r;
    double e, n;
  };
  static const Table1 shapes[] = {{{0.58, 1, 0.83}, 0.1, 0.5}, {{0.42, 1, 0.83}, 0.1, 1}, {{0.42, 1, 0.83}, 1, 0.5},
                                  {{0.5, 0.7, 1}, 1.4, 1.2}, {{0.4, 1, 0.8}, 0.4, 1.6}};
  const Table1& s = shapes[state.range(0)];
  const std::size_t nodes = 2000;
  Resolution resolution;
  resolution.voxels = double(state.range(1));
  scree::formats::Shape shape;
  for (auto _ : state) {
    shape = implicit_shape(make_superellipsoid(s.r * 0.01, s.e, s.n), resolution);
    add_nodes(shape, nodes, NodeMethod::rays);
  }
  const double h = shape.phi->voxelSize()[0];
  double points = 1;
  for (int a = 0; a < 3; ++a) points *= std::ceil(2 * s.r[a] * 0.01 / h) + 3;
  const double scree_bytes = double(shape.phi->memUsage()) + 12.0 * double(shape.nodes.size());
  const double yade_bytes = 8 * points + 24.0 * double(nodes);
  state.counters["scree_bytes"] = scree_bytes;
  state.counters["yade_bytes"] = yade_bytes;
  state.counters["yade/scree"] = yade_bytes / scree_bytes;
  state.counters["flat_float_bytes"] = 4 * points + 12.0 * double(nodes);
  MassProperties mass;
  const auto file = std::filesystem::temp_directory_path() / "scree_bench_avatar.vdb";
  scree::formats::write_avatar(file, make_avatar(shape, mass));
  state.counters["file_bytes"] = double(std::filesystem::file_size(file));
  std::filesystem::remove(file);
}
BENCHMARK(BM_AvatarMemory)->ArgsProduct({{0, 1, 2, 3, 4}, {20, 40}})->ArgNames({"shape", "voxels"})->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
