#!/usr/bin/env bash
# Runs that share cores (issue 26): three runs of one boulder dropped on the dc7 terrain, 20 s
# of simulated time each, started side by side as `make -j`, a parameter sweep or a job array
# on a shared node starts them: once with default settings, once with OMP_NUM_THREADS=1 each.
# Prints both wall times and their ratio, and one run alone for scale.
#
#   bench/shared_cores/run.sh [RUNS]       default 3
#
# Results in bench/shared_cores/out/. Needs the shared datasets (DATASETS, default ../shared/datasets).
set -euo pipefail
runs=${1:-3}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${BUILD_DIR:-$root/build}/bin
datasets=${DATASETS:-$root/../shared/datasets}
out=$here/out
mkdir -p "$out"

if [[ ! -s $out/dc7.vdb ]]; then
  "$bin/scree-terrain" "$datasets/geotaichi/dc7_dem_1411slide.asc" --crop 618107,3996242,618147,3996282 \
    --origin 618127,3996262,1609 -o "$out/dc7.vdb" > /dev/null
  "$bin/scree-shape" box --size 1.2,0.8,0.6 --voxels 20 --avatar --nodes 1000 --node-method grid -o "$out/block.vdb" > /dev/null
fi
cat > "$out/case.yaml" <<CASE
time: {step: 2.0e-3, duration: 20}
output: {directory: run, frame_interval: 5}
scheme: {type: impulse}
materials:
  - {name: rock, density: 2650, friction: 0.5, restitution: 0.2}
  - {name: ground, friction: 0.5, restitution: 0.2}
templates:
  - {name: block, file: block.vdb, material: rock}
initial_state: state.h5
terrain: {file: dc7.vdb, material: ground}
CASE
[[ -s $out/state.h5 ]] || "$bin/scree-pack" "$out/case.yaml" --count 1 --box -1,-1,3,1,1,5 -o "$out/state.h5" > /dev/null

# Wall time of RUNS copies of the case started together, each in its own folder, with the
# given environment.
side_by_side() {
  local start end
  for k in $(seq "$runs"); do
    mkdir -p "$out/copy$k" && cp "$out/case.yaml" "$out/copy$k/" && ln -sf ../state.h5 ../dc7.vdb ../block.vdb "$out/copy$k/"
  done
  start=$(date +%s.%N)
  for k in $(seq "$runs"); do env "$@" "$bin/scree-solve" "$out/copy$k/case.yaml" > "$out/copy$k/stdout" & done
  wait
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }'
}
alone=$(runs=1 side_by_side OMP_NUM_THREADS=1)
default=$(side_by_side)
layout=$(head -1 "$out/copy1/stdout" | sed 's/^scree-solve: //')
single=$(side_by_side OMP_NUM_THREADS=1)
echo "one run alone, 1 thread:                       $alone s"
echo "$runs runs side by side, default settings:        $default s   ($layout)"
echo "$runs runs side by side, OMP_NUM_THREADS=1 each:  $single s"
echo "ratio default / one thread each:                $(awk -v a="$default" -v b="$single" 'BEGIN { printf "%.2f", a / b }')"
