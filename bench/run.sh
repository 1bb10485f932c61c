#!/usr/bin/env bash
# Runs every benchmark program; record the figures in docs/benchmarks.md.
set -euo pipefail
build=${1:-build}
for b in "$build"/bin/bench_*; do
  echo "== $(basename "$b")"
  "$b" --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
done
