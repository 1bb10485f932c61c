// Sampling a grain template near its surface, as contact detection does: the solver's flat
// template against OpenVDB's own trilinear sampler on the avatar (DESIGN §7).
#include <benchmark/benchmark.h>
#include <openvdb/tools/Interpolation.h>

#include <algorithm>
#include <random>

#include "levelset/avatar_builder.h"
#include "solver/template_from_avatar.h"

namespace {

using namespace scree;

struct Setup {
  formats::Avatar avatar;
  std::vector<Eigen::Vector3d> points;  // nodes jittered by up to a voxel, shuffled
};

const Setup& setup() {
  static Setup s = [] {
    openvdb::initialize();
    Setup out;
    formats::Shape shape = levelset::implicit_shape(
        levelset::make_superellipsoid(levelset::Vec3d(0.0058, 0.01, 0.0083), 0.1, 0.5), {});
    levelset::add_nodes(shape, 2000, levelset::NodeMethod::rays);
    levelset::MassProperties mass;
    out.avatar = levelset::make_avatar(shape, mass);
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> jitter(-1, 1);
    const double h = out.avatar.voxel_size();
    for (int round = 0; round < 50; ++round)
      for (const auto& n : out.avatar.nodes)
        out.points.emplace_back(n[0] + h * jitter(rng), n[1] + h * jitter(rng), n[2] + h * jitter(rng));
    std::shuffle(out.points.begin(), out.points.end(), rng);
    return out;
  }();
  return s;
}

void BM_FlatTemplate(benchmark::State& state) {
  const Setup& s = setup();
  const solver::ShapeTemplate shape = solver::template_from_avatar(s.avatar);
  double sum = 0;
  for (auto _ : state)
    for (const auto& p : s.points) sum += shape.value(p);
  benchmark::DoNotOptimize(sum);
  state.counters["samples/s"] = benchmark::Counter(double(s.points.size()) * double(state.iterations()),
                                                   benchmark::Counter::kIsRate);
  state.counters["bytes"] = double(shape.bytes());
}
BENCHMARK(BM_FlatTemplate)->Unit(benchmark::kMillisecond);

void BM_OpenVdbSampler(benchmark::State& state) {
  const Setup& s = setup();
  const openvdb::FloatGrid& phi = *s.avatar.phi;
  openvdb::tools::GridSampler<openvdb::FloatGrid::ConstAccessor, openvdb::tools::BoxSampler> sampler(
      phi.getConstAccessor(), phi.transform());
  double sum = 0;
  for (auto _ : state)
    for (const auto& p : s.points) sum += sampler.wsSample(openvdb::Vec3d(p[0], p[1], p[2]));
  benchmark::DoNotOptimize(sum);
  state.counters["samples/s"] = benchmark::Counter(double(s.points.size()) * double(state.iterations()),
                                                   benchmark::Counter::kIsRate);
  state.counters["bytes"] = double(phi.memUsage());
}
BENCHMARK(BM_OpenVdbSampler)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
