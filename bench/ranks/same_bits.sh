#!/usr/bin/env bash
# A case run by scree-solve on one rank, then on each of RANKS ranks (one OpenMP thread a rank;
# mpirun --oversubscribe only for more ranks than cores), its frames, log and checkpoint compared with the one-rank run's to
# the last bit (docs/parallel.md); prints each run's wall time and its speed-up over one rank.
#
#   bench/ranks/same_bits.sh CASE.yaml [RANKS...]          default RANKS: 2 3 4
#   GRID="2 1 1" bench/ranks/same_bits.sh CASE.yaml 2      regions on a grid (parallel.ranks)
#   PAIRS=3 bench/ranks/same_bits.sh CASE.yaml 2           the speed-up as the median of 3 pairs
#
# A machine whose speed wanders (this one's by 1.7 × in a day, docs/benchmarks.md) compares
# only runs taken in turn: with PAIRS=n each rank count's run is paired with a one-rank run
# just before it, n times, and the speed-up printed is the median of the pairs' ratios.
#
# The runs write into bench/ranks/out/<case name>/R<ranks>[-grid]/ (the case's output
# directory is replaced); BUILD_DIR (default build) holds bin/scree-solve.
set -euo pipefail
case_file=$(realpath "${1:?usage: same_bits.sh CASE.yaml [RANKS...]}")
shift
ranks=("$@")
[[ ${#ranks[@]} -gt 0 ]] || ranks=(2 3 4)
here=$(cd "$(dirname "$0")" && pwd)
source "$here/oversubscribe.sh"
root=$(cd "$here/../.." && pwd)
solve=$(realpath "${BUILD_DIR:-$root/build}")/bin/scree-solve
out=$here/out/$(basename "$(dirname "$case_file")")
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# Writes a copy of the case beside the original (its relative paths still hold) whose output
# goes to $1, with parallel.ranks $2 when given; prints its path.
copy_case() {
  local copy
  copy=$(dirname "$case_file")/.same_bits.$(basename "$1").yaml
  sed -e "s|^  directory: .*|  directory: $1|" "$case_file" > "$copy"
  [[ -z ${2:-} ]] || printf 'parallel: {ranks: [%s]}\n' "$2" >> "$copy"
  echo "$copy"
}

run() {  # ranks, output folder, grid
  local copy start
  copy=$(copy_case "$2" "${3:-}")
  rm -rf "$2"
  start=$(date +%s.%N)
  if [[ $1 == 1 ]]; then "$solve" "$copy" > "$2.stdout"; else mpirun $(oversubscribe "$1") -np "$1" "$solve" "$copy" > "$2.stdout"; fi
  rm -f "$copy"
  awk -v a="$(date +%s.%N)" -v b="$start" 'BEGIN { print a - b }' 
}

mkdir -p "$out"
one=$(run 1 "$out/R1")
printf 'ranks %-8s wall %7.2f s\n' "1" "$one"
grid=${GRID:+$(echo "$GRID" | tr ' ' ',')}
for r in "${ranks[@]}"; do
  dir=$out/R$r${grid:+-grid}
  wall=$(run "$r" "$dir" "$grid")
  same=$(/usr/bin/python3 - "$out/R1" "$dir" <<'PY'
import filecmp, glob, os, sys
import h5py, numpy as np
a_dir, b_dir = sys.argv[1], sys.argv[2]
differ = [] if filecmp.cmp(f"{a_dir}/log.csv", f"{b_dir}/log.csv", shallow=False) else ["log.csv"]
files = sorted(glob.glob(f"{a_dir}/*.h5"))
for f in files:
    g = os.path.join(b_dir, os.path.basename(f))
    a, b = h5py.File(f, "r"), h5py.File(g, "r")
    groups = ["bodies"] + (["solver/contacts"] if "solver" in a else [])
    if not all(np.array_equal(a[grp][k][()], b[grp][k][()]) for grp in groups for k in a[grp]):
        differ.append(os.path.basename(f))
print(f"{len(files)} files and the log the same" if not differ else "DIFFER: " + " ".join(differ))
PY
)
  ratios=$(awk -v a="$one" -v b="$wall" 'BEGIN { print a / b }')
  for ((pair = 2; pair <= ${PAIRS:-1}; ++pair)); do  # the first pair is the runs above
    again=$(run 1 "$out/R1-again")
    ratios="$ratios $(awk -v a="$again" -v b="$(run "$r" "$dir" "$grid")" 'BEGIN { print a / b }')"
  done
  speed_up=$(tr ' ' '\n' <<< "$ratios" | sort -g | awk '{ x[NR] = $1 } END { print NR % 2 ? x[(NR + 1) / 2] : (x[NR / 2] + x[NR / 2 + 1]) / 2 }')
  printf 'ranks %-8s wall %7.2f s  speed-up %.2f%s  %s\n' "$r${grid:+ [$grid]}" "$wall" "$speed_up" \
    "$([[ ${PAIRS:-1} -gt 1 ]] && echo " (median of pairs: $ratios)")" "$same"
done
