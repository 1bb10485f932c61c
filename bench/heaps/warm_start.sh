#!/usr/bin/env bash
# Seed 002's warm-start study on the settled heap of 1000 grains (issue 27, docs/validation.md
# "Warm starting"): 0.1 s more of the discharge's heap from its checkpoint under warm starts
# β = 0, 0.5, 0.85 and 1, with conjugate directions (the default) and with plain
# Gauss–Seidel, at the default pass budget; the floor's load logged every 2 ms against the
# grains' weight (the side walls are frictionless, so the floor carries it all).
#
#   bench/heaps/warm_start.sh [BUILD_DIR]     (about 5 minutes on two cores after the heap)
#
# Prints, per setting, the mean and largest passes a step and the floor load's mean and
# worst error over the 0.1 s; results in bench/heaps/out/warm_start/.
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
python=${PYTHON:-/usr/bin/python3}
work=$here/out
make --no-print-directory -C "$root/pipelines/discharge" SCREE_BIN="$build/bin" GRAINS=1000 WORK="$work" >&2
checkpoint=$work/N1000/run/checkpoint.h5
start=$("$python" -c "import h5py; print(h5py.File('$checkpoint')['/'].attrs['time'])")
out=$work/warm_start
rm -rf "$out" && mkdir -p "$out" && ln -s ../avatars "$out/avatars"
runs=()
for conjugate in true false; do
  for beta in 0 0.5 0.85 1; do
    name=$([[ $conjugate == true ]] && echo conjugate || echo gauss_seidel)_$beta
    mkdir -p "$out/$name"
    sed -e "s|^  directory: .*|  directory: run|" -e "s|log_interval: .*|log_interval: 0.002|" \
        -e "s|duration: .*|duration: $(awk -v t="$start" 'BEGIN { printf "%.6f", t + 0.1 }')|" \
        -e "s|impulse: {boundary_iterations: \([0-9]*\)}|impulse: {boundary_iterations: \1, warm_start: $beta, resting_conjugate: $conjugate}|" \
        -e "s|^initial_state: .*|initial_state: $work/N1000/state.h5|" "$work/N1000/case.yaml" > "$out/$name/case.yaml"
    (cd "$out/$name" && OMP_NUM_THREADS=${THREADS:-2} "$build/bin/scree-solve" case.yaml --restart "$checkpoint" > solve.txt)
    runs+=("$out/$name")
  done
done
"$python" "$here/warm_start.py" "$root/pipelines/discharge/f_rel.py" "${runs[@]}" | tee "$out/summary.txt"
