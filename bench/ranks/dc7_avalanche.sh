#!/usr/bin/env bash
# The dc7 avalanche of issue 28's memory and scaling runs: GRAINS rocks (default 50 000) of the
# rock-avalanche pipeline released over 180 m × 110 m of the dc7 DEM's upper slope, up to 8 m
# thick, placed without settling. Writes OUT/dem-dc7_dem_1411slide/{case.yaml,state.h5,...}.
#
#   bench/ranks/dc7_avalanche.sh OUT [GRAINS]
#   DATASETS=/path/to/datasets bench/ranks/dc7_avalanche.sh out/dc7
set -euo pipefail
out=$(realpath -m "${1:?usage: dc7_avalanche.sh OUT [GRAINS]}")
grains=${2:-50000}
root=$(cd "$(dirname "$0")/../.." && pwd)
datasets=$(realpath "${DATASETS:-$root/../shared/datasets}")
mkdir -p "$out"
printf '%s\n' "618089 3996450" "618269 3996450" "618269 3996340" "618089 3996340" > "$out/area.txt"
make -C "$root/pipelines/rock-avalanche" WORK="$out" SCREE_BIN="$(realpath "${BUILD_DIR:-$root/build}")/bin" \
  DEM="$datasets/geotaichi/dc7_dem_1411slide.asc" AREA="$out/area.txt" THICKNESS=8 GRAINS="$grains" SETTLE=0 \
  DURATION=1.0 FRAME_INTERVAL=0.5 "$out/dem-dc7_dem_1411slide/state.h5"
