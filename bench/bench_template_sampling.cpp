// Sampling a grain template near its surface, as contact detection does: the solver's flat
// template against OpenVDB's own trilinear sampler on the avatar (DESIGN §7), and against
// the bound of a bare trilinear loop over a dense array of the same size.
#include <benchmark/benchmark.h>
#include <openvdb/tools/Interpolation.h>

#include <algorithm>
#include <random>

#include "geometry/template_from_avatar.h"
#include "levelset/avatar_builder.h"

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
  const geometry::ShapeTemplate shape = geometry::template_from_avatar(s.avatar);
  double sum = 0;
  for (auto _ : state)
    for (const auto& p : s.points) sum += shape.value(p);
  benchmark::DoNotOptimize(sum);
  state.counters["samples/s"] = benchmark::Counter(double(s.points.size()) * double(state.iterations()),
                                                   benchmark::Counter::kIsRate);
  state.counters["bytes"] = double(shape.bytes());
}
BENCHMARK(BM_FlatTemplate)->Unit(benchmark::kMillisecond);

// The bound: a plain trilinear loop over a dense float array of the template's size, at the
// same points already mapped to index space (no transform, no bounds check, no background):
// what sampling costs at the least on this machine.
void BM_DenseTrilinearBound(benchmark::State& state) {
  const Setup& s = setup();
  const geometry::ShapeTemplate shape = geometry::template_from_avatar(s.avatar);
  const auto [nx, ny, nz] = shape.dims();
  std::vector<float> dense(std::size_t(nx) * std::size_t(ny) * std::size_t(nz));
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> value(-1, 1);
  for (float& v : dense) v = value(rng);
  std::vector<Eigen::Vector3d> index;
  for (const auto& p : s.points) index.push_back(shape.index_of(p).cwiseMax(0.0).cwiseMin(Eigen::Vector3d(nx - 1.001, ny - 1.001, nz - 1.001)));
  const std::size_t yz = std::size_t(ny) * std::size_t(nz), z = std::size_t(nz);
  double sum = 0;
  for (auto _ : state)
    for (const auto& p : index) {
      const std::size_t i = std::size_t(p[0]), j = std::size_t(p[1]), k = std::size_t(p[2]);
      const double tx = p[0] - double(i), ty = p[1] - double(j), tz = p[2] - double(k);
      const float* c = dense.data() + i * yz + j * z + k;
      const double c00 = c[0] + (c[1] - c[0]) * tz, c01 = c[z] + (c[z + 1] - c[z]) * tz;
      const double c10 = c[yz] + (c[yz + 1] - c[yz]) * tz, c11 = c[yz + z] + (c[yz + z + 1] - c[yz + z]) * tz;
      const double c0 = c00 + (c01 - c00) * ty, c1 = c10 + (c11 - c10) * ty;
      sum += c0 + (c1 - c0) * tx;
    }
  benchmark::DoNotOptimize(sum);
  state.counters["samples/s"] = benchmark::Counter(double(index.size()) * double(state.iterations()),
                                                   benchmark::Counter::kIsRate);
  state.counters["bytes"] = double(dense.size() * sizeof(float));
}
BENCHMARK(BM_DenseTrilinearBound)->Unit(benchmark::kMillisecond);

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
