#!/usr/bin/env bash
# Runs every benchmark program, then the resting solve's warm-start study, then the discharge macro scene in scree alone (GRAINS,
# default 100) on one rank and on two MPI ranks, then the settled heaps' cost per step per grain (bench/heaps/run.sh), then runs that share
# cores (bench/shared_cores/run.sh); record the figures
# in docs/benchmarks.md. The side-by-side run against YADE
# takes an hour at the grain count the acceptance asks for: bench/discharge/vs_yade.sh.
set -euo pipefail
build=${1:-build}
for b in "$build"/bin/bench_*; do
  echo "== $(basename "$b")"
  "$b" --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
done
echo "== resting_study: seed 002's warm-start study, columns of 10-100 balls (docs/validation.md)"
mkdir -p bench/out
xvfb-run -a "$build/bin/resting_study" bench/out/resting_study.png | tee bench/out/resting_study.csv
grains=${GRAINS:-100}
work=$(pwd)/bench/discharge/out/scree-only
echo "== discharge, $grains grains, 1.4 s (pipelines/discharge)"
make --no-print-directory -C pipelines/discharge SCREE_BIN="$(cd "$build" && pwd)/bin" GRAINS="$grains" WORK="$work" \
  "$work/N$grains/state.h5" > /dev/null
rm -rf "$work/N$grains/run"
/usr/bin/time -f "scree-solve: %e s wall, %M kB peak RSS, OMP_NUM_THREADS=${OMP_NUM_THREADS:-all}" \
  "$build/bin/scree-solve" "$work/N$grains/case.yaml"
make --no-print-directory -C pipelines/discharge SCREE_BIN="$(cd "$build" && pwd)/bin" GRAINS="$grains" WORK="$work"
if command -v mpirun > /dev/null; then
  echo "== the discharge on 1 and 2 MPI ranks, one thread each: the same files, and the speed-up (bench/ranks/same_bits.sh)"
  BUILD_DIR="$(cd "$build" && pwd)" bash bench/ranks/same_bits.sh "$work/N$grains/case.yaml" 2
fi
echo "== settled heaps: cost per step per grain at 250 and 1000 grains (bench/heaps/run.sh; HEAPS=\"250 1000 4000\" adds 4000)"
bash bench/heaps/run.sh "$build"
echo "== the warm-start study on the settled 1000-grain heap (bench/heaps/warm_start.sh)"
bash bench/heaps/warm_start.sh "$build"
echo "== shared cores: three one-boulder runs side by side (bench/shared_cores/run.sh)"
BUILD_DIR="$(cd "$build" && pwd)" bash bench/shared_cores/run.sh
