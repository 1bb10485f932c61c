// Frame output: scree's HDF5 frame (complete state, lossless, atomic) against the ASCII
// frames of the peer impulse LS-DEM code (positions "%.3f", quaternions "%.4f", two files,
// as in its InitState/*.dat), ASCII written losslessly ("%.17g"), and a raw fwrite of the
// same arrays (the floor). Counters: bodies/s and bytes on disk per body.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <random>

#include "formats/state.h"

namespace {

using namespace scree::formats;

const std::filesystem::path dir = std::filesystem::temp_directory_path() / "scree-bench-io";

State make_state(size_t n) {
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(-1, 1);
  State s;
  s.kind = StateKind::frame;
  s.templates = {"a.vdb", "b.vdb", "c.vdb"};
  s.bodies.resize(n);
  for (size_t i = 0; i < n; ++i) {
    s.bodies.id[i] = i;
    s.bodies.template_index[i] = uint32_t(i % 3);
    s.bodies.position[i] = {300 * u(rng), 300 * u(rng), 300 * u(rng)};
    double q[4] = {u(rng), u(rng), u(rng), u(rng)};
    double norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    s.bodies.orientation[i] = {q[0] / norm, q[1] / norm, q[2] / norm, q[3] / norm};
    s.bodies.velocity[i] = {u(rng), u(rng), u(rng)};
    s.bodies.angular_velocity[i] = {u(rng), u(rng), u(rng)};
  }
  return s;
}

void report(benchmark::State& st, size_t n, std::uintmax_t bytes) {
  st.counters["bodies/s"] = benchmark::Counter(double(n), benchmark::Counter::kIsIterationInvariantRate);
  st.counters["bytes/body"] = double(bytes) / double(n);
}

void BM_WriteFrameHdf5(benchmark::State& st) {
  std::filesystem::create_directories(dir);
  State s = make_state(size_t(st.range(0)));
  for (auto _ : st) write_state(dir / "frame.h5", s);
  report(st, s.bodies.size(), std::filesystem::file_size(dir / "frame.h5"));
}

void BM_ReadFrameHdf5(benchmark::State& st) {
  std::filesystem::create_directories(dir);
  State s = make_state(size_t(st.range(0)));
  write_state(dir / "frame.h5", s);
  for (auto _ : st) benchmark::DoNotOptimize(read_state(dir / "frame.h5"));
  report(st, s.bodies.size(), std::filesystem::file_size(dir / "frame.h5"));
}

// Positions and quaternions only, as the peer writes them.
void write_ascii(const State& s, const char* position_format, const char* rotation_format) {
  std::FILE* p = std::fopen((dir / "positions.dat").c_str(), "w");
  std::FILE* r = std::fopen((dir / "rotations.dat").c_str(), "w");
  for (size_t i = 0; i < s.bodies.size(); ++i) {
    const auto& x = s.bodies.position[i];
    const auto& q = s.bodies.orientation[i];
    std::fprintf(p, position_format, x[0], x[1], x[2]);
    std::fprintf(r, rotation_format, q[1], q[2], q[3], q[0]);
  }
  std::fclose(p);
  std::fclose(r);
}

std::uintmax_t ascii_bytes() {
  return std::filesystem::file_size(dir / "positions.dat") +
         std::filesystem::file_size(dir / "rotations.dat");
}

void BM_WriteFramePeerAscii(benchmark::State& st) {
  std::filesystem::create_directories(dir);
  State s = make_state(size_t(st.range(0)));
  for (auto _ : st) write_ascii(s, "%.3f %.3f %.3f\n", "%.4f %.4f %.4f %.4f\n");
  report(st, s.bodies.size(), ascii_bytes());
}

void BM_WriteFrameLosslessAscii(benchmark::State& st) {
  std::filesystem::create_directories(dir);
  State s = make_state(size_t(st.range(0)));
  for (auto _ : st) write_ascii(s, "%.17g %.17g %.17g\n", "%.17g %.17g %.17g %.17g\n");
  report(st, s.bodies.size(), ascii_bytes());
}

void BM_WriteFrameRawBinary(benchmark::State& st) {
  std::filesystem::create_directories(dir);
  State s = make_state(size_t(st.range(0)));
  const auto& b = s.bodies;
  const size_t n = b.size();
  for (auto _ : st) {
    std::FILE* f = std::fopen((dir / "frame.bin").c_str(), "wb");
    std::fwrite(b.id.data(), sizeof(b.id[0]), n, f);
    std::fwrite(b.template_index.data(), sizeof(b.template_index[0]), n, f);
    std::fwrite(b.scale.data(), sizeof(double), n, f);
    for (const auto* v : {&b.position, &b.velocity, &b.angular_velocity})
      std::fwrite(v->data(), sizeof((*v)[0]), n, f);
    std::fwrite(b.orientation.data(), sizeof(b.orientation[0]), n, f);
    std::fclose(f);
  }
  report(st, n, std::filesystem::file_size(dir / "frame.bin"));
}

const std::vector<int64_t> sizes{1000, 10000, 100000};
BENCHMARK(BM_WriteFrameHdf5)->ArgsProduct({sizes})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReadFrameHdf5)->ArgsProduct({sizes})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WriteFramePeerAscii)->ArgsProduct({sizes})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WriteFrameLosslessAscii)->ArgsProduct({sizes})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WriteFrameRawBinary)->ArgsProduct({sizes})->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
