#!/usr/bin/env bash
# The rock avalanche's summary: what ran, the key numbers, where each output is.
# Usage: summary.sh WORK_FOLDER   (the Makefile's $(W))
set -euo pipefail
w=$1
yaml=$w/runout/runout.yaml
log=$w/run/log.csv
field() { awk -v key="$1:" '$1 == key { print $2; exit }' "$yaml"; }
nested() { awk -v group="$1:" -v key="$2:" '$1 == group { inside = 1; next } /^[^ ]/ { inside = 0 } inside && $1 == key { sub(/^[^:]*: /, ""); print; exit }' "$yaml"; }

# Energy bookkeeping: the largest |error| over the log against the energy the run released
# (the largest drop of potential energy since the start).
energy=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) { if ($i ~ /^potential/) p = i; if ($i ~ /^energy_error/) e = i }; next }
  NR == 2 { start = $p }
  { drop = start - $p; if (drop > released) released = drop; err = $e < 0 ? -$e : $e; if (err > worst) worst = err }
  END { printf "%.4g J released, largest bookkeeping error %.3g J (%.4f %%)", released, worst, (released > 0 ? 100 * worst / released : 0) }' "$log")

cat <<EOF
== rock avalanche: $w
grains        $(field grains), from t = $(field first_time) to $(field last_time) s ($(field frames) frames)
$(sed -n '1,4p' "$w/pack.txt" | sed 's/^/pack          /; s/^pack            /              /')
runout        $(field runout_distance) m (source rear to deposit front, $(field percentile)th percentile), front travel $(field front_travel) m
deposit       lateral spread $(field lateral_spread) m (the source $(field source_lateral_spread) m), area $(field deposit_area) m², volume $(field deposit_volume) m³
elongation    axis $(nested elongation axis) $(nested elongation angle_to_travel)° from the travel, aspect $(nested elongation aspect)
centre        drop H $(nested centre_of_mass drop) m over L $(nested centre_of_mass horizontal_distance) m: H/L $(nested centre_of_mass h_over_l)
energy        $energy
integrity     $(nested integrity grains_lost) grains lost, $(nested integrity non_finite) non-finite, deepest below ground $(nested integrity deepest_below_ground_voxels) voxels
outputs
  ParaView    $w/paraview/grains.pvd (grains), $w/ground.vtp (the ground)
  runout      $w/runout/runout.yaml, $w/runout/runout.csv
  deposit map $w/runout/deposit.tif (on the DEM's grid)
  plots       $w/plots/*.png
  run         $w/run/ (frames, log.csv, checkpoint.h5), case $w/case.yaml
EOF
