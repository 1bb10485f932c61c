#!/usr/bin/env bash
# The memory of a run on R ranks (issue 28): every scree-solve process's /proc/PID/smaps_rollup
# polled every 0.1 s, and each one's largest resident set (Rss: every page it maps, libraries
# and shared memory counted again in each process) and proportional set (Pss: a page shared by
# k processes counted 1/k in each, so the processes' sum is what the node holds for them).
# A poll misses a peak shorter than its interval (a step's contact search on one rank lasts a
# fraction of a second: polled peaks of the same run wandered by 8 %), so each process's peak
# is also taken from the kernel's own high-water mark of its resident set (VmHWM, every page
# counted) less what its shared pages count again in it (Rss − Pss at its last poll: the
# libraries and shared memory, mapped from the start). Prints each process's peaks and the
# sums (kB).
#
# One process's own peak wanders by 7 % between identical runs (docs/benchmarks.md, "Arrays
# at their size"), so with PAIRS=n it takes n pairs in turn, R ranks then one, and prints the
# medians of the sums and their ratio.
#
#   bench/ranks/memory.sh R CASE.yaml [scree-solve options]     (one thread a rank)
#   bench/ranks/memory.sh 4 avalanche.yaml --restart run/checkpoint.h5
#   PAIRS=4 bench/ranks/memory.sh 4 avalanche.yaml --restart run/checkpoint.h5
set -euo pipefail
ranks=${1:?usage: memory.sh R CASE.yaml [options]}
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
solve=$(realpath "${BUILD_DIR:-$root/build}")/bin/scree-solve
solve_file=$(realpath "$solve")  # what /proc/PID/exe names
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
measure() {  # measure R [options]: each process's peaks, then their sums
  local ranks=$1 launcher p r s h peak total_rss=0 total_pss=0 total_peak=0
  local -A rss pss hwm shared
  shift
  if [[ $ranks == 1 ]]; then "$solve" "$@" > /dev/null 2>&1 &
  else mpirun -np "$ranks" --oversubscribe "$solve" "$@" > /dev/null 2>&1 &
  fi
  launcher=$!
  while kill -0 $launcher 2>/dev/null; do
    for p in $(pgrep -f "bin/scree-solve" || true); do
      # This run's solver processes alone: not mpirun, nor a shell whose command line names it,
      # nor another run's (the launcher itself on one rank, its children on several).
      [[ $(readlink /proc/$p/exe 2>/dev/null) == "$solve_file" ]] || continue
      [[ $p == "$launcher" || $(awk '{print $4}' /proc/$p/stat 2>/dev/null) == "$launcher" ]] || continue
      read -r r s < <(awk '/^Rss:/ {r = $2} /^Pss:/ {s = $2} END {print r, s}' /proc/$p/smaps_rollup 2>/dev/null) || continue
      h=$(awk '/^VmHWM:/ {print $2}' /proc/$p/status 2>/dev/null) || continue
      [[ -n $r && -n $h ]] || continue
      (( ${rss[$p]:-0} < r )) && rss[$p]=$r
      (( ${pss[$p]:-0} < s )) && pss[$p]=$s
      hwm[$p]=$h shared[$p]=$((r - s))
    done
    sleep 0.1
  done
  wait $launcher || { echo "memory.sh: scree-solve failed" >&2; exit 1; }
  for p in "${!rss[@]}"; do
    peak=$((hwm[$p] - shared[$p]))
    echo "process $p: polled peak rss ${rss[$p]} kB, pss ${pss[$p]} kB; peak (VmHWM ${hwm[$p]} less ${shared[$p]} shared) $peak kB"
    total_rss=$((total_rss + rss[$p])) total_pss=$((total_pss + pss[$p])) total_peak=$((total_peak + peak))
  done
  echo "$ranks ranks: polled rss $total_rss kB, pss $total_pss kB; peak $total_peak kB (sums of each process's peak)"
}
if [[ -z ${PAIRS:-} ]]; then measure "$ranks" "$@"; exit; fi
many=() one=()
for ((pair = 1; pair <= PAIRS; ++pair)); do
  many+=("$(measure "$ranks" "$@" | awk 'END {print $(NF - 6)}')")
  one+=("$(measure 1 "$@" | awk 'END {print $(NF - 6)}')")
  echo "pair $pair: $ranks ranks ${many[-1]} kB, one rank ${one[-1]} kB"
done
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }
m=$(median "${many[@]}") o=$(median "${one[@]}")
echo "medians of $PAIRS pairs: $ranks ranks $m kB, one rank $o kB, $(awk -v m="$m" -v o="$o" 'BEGIN {printf "%.2f", m / o}') x"
