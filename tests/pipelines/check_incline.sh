#!/bin/sh
# Runs pipelines/incline for φ = 20°, 25° and 35° and checks what it prints.
set -e
pipeline=$1 bin=$2 work=$3
rm -rf "$work"
for phi in 20 25; do
  line=$(make --no-print-directory -s -C "$pipeline" SCREE_BIN="$bin" WORK="$work" FRICTION_ANGLE=$phi | tail -n 1)
  echo "$line"
  worst=$(echo "$line" | sed -n 's/.*over 0.1–1 m: \([0-9.]*\)$/\1/p')
  [ -n "$worst" ] && awk "BEGIN { exit !($worst < 0.02) }" || { echo "φ = $phi: worst error '$worst' not below 0.02"; exit 1; }
done
line=$(make --no-print-directory -s -C "$pipeline" SCREE_BIN="$bin" WORK="$work" FRICTION_ANGLE=35 | tail -n 1)
echo "$line"
moved=$(echo "$line" | sed -n 's/.*it moved \([0-9.e+-]*\) m.*/\1/p')
[ -n "$moved" ] && awk "BEGIN { exit !($moved < 1e-6) }" || { echo "φ = 35: moved '$moved' m, not below 1e-6"; exit 1; }
