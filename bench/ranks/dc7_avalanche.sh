#!/usr/bin/env bash
# The dc7 avalanche of issue 28's memory and scaling runs: GRAINS rocks (default 50 000) of the
# rock-avalanche pipeline released over 180 m × 110 m of the dc7 DEM's upper slope, up to 8 m
# thick, placed without settling. Writes OUT/dem-dc7_dem_1411slide/{case.yaml,state.h5,...}.
# EXTENT="X Y" (m) releases them over the first X m east and Y m south of that area's
# north-west corner instead (weak scaling: as many rocks a square metre on a smaller area).
#
#   bench/ranks/dc7_avalanche.sh OUT [GRAINS]
#   DATASETS=/path/to/datasets bench/ranks/dc7_avalanche.sh out/dc7
#   EXTENT="45 27.5" bench/ranks/dc7_avalanche.sh out/dc7-quarter 3125
set -euo pipefail
out=$(realpath -m "${1:?usage: dc7_avalanche.sh OUT [GRAINS]}")
grains=${2:-50000}
root=$(cd "$(dirname "$0")/../.." && pwd)
datasets=$(realpath "${DATASETS:-$root/../shared/datasets}")
read -r east south <<< "${EXTENT:-180 110}"
awk -v x="$east" -v y="$south" 'BEGIN { exit !(x > 0 && x <= 180 && y > 0 && y <= 110) }' 2> /dev/null ||
  { echo "dc7_avalanche.sh: error: EXTENT=\"${EXTENT:-}\": not two lengths in m within 180 × 110" >&2; exit 2; }
mkdir -p "$out"
awk -v x="$east" -v y="$south" 'BEGIN { x0 = 618089; y0 = 3996450
  printf "%.3f %.3f\n%.3f %.3f\n%.3f %.3f\n%.3f %.3f\n", x0, y0, x0 + x, y0, x0 + x, y0 - y, x0, y0 - y }' > "$out/area.txt"
make -C "$root/pipelines/rock-avalanche" WORK="$out" SCREE_BIN="$(realpath "${BUILD_DIR:-$root/build}")/bin" \
  DEM="$datasets/geotaichi/dc7_dem_1411slide.asc" AREA="$out/area.txt" THICKNESS=8 GRAINS="$grains" SETTLE=0 \
  DURATION=1.0 FRAME_INTERVAL=0.5 "$out/dem-dc7_dem_1411slide/state.h5"
