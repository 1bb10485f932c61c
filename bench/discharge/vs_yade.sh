#!/usr/bin/env bash
# Seed 004's discharge side by side: YADE's own examples/levelSet/discharge.py and scree's
# pipelines/discharge, the same grain count and simulated time, one after the other on this
# machine. Prints wall time, peak RSS and F_rel at the end for both, and their ratios.
#
#   bench/discharge/vs_yade.sh [GRAINS [SIMULATED_TIME [THREADS]]]    defaults 100, 1.4, 1
#
# YADE is installed (Debian package yade) when missing. Each code runs on THREADS OpenMP
# threads; YADE at its Δt = 25 µs, scree at the step its Courant rule chooses. Wall times
# are of the time stepping alone (YADE's O.run, scree-solve); building the grids or
# avatars and the initial cloud is excluded on both sides and reported apart for YADE.
# Results go to bench/discharge/out/N<GRAINS>/ (compare.txt, and each code's files).
set -euo pipefail
grains=${1:-100}
duration=${2:-1.4}
threads=${3:-1}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-$root/build}
out=$here/out/N$grains
examples=/usr/share/doc/yade/examples/levelSet

if ! command -v yade >/dev/null; then
  echo "vs_yade.sh: installing YADE (apt-get install yade)" >&2
  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q yade
fi
for f in discharge.py ramFP.py spaceRot.py; do
  [[ -f $examples/$f ]] || { echo "vs_yade.sh: error: $examples/$f: missing (the yade package ships it)" >&2; exit 1; }
done

# GNU time's "Maximum resident set size (kbytes)" and wall clock of a command.
peak_rss_mb() { awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$1"; }

# ---- YADE (an hour's run at several hundred grains: REUSE_YADE=1 keeps an earlier one) ----
if [[ ${REUSE_YADE:-0} == 1 && -s $out/yade/results.txt ]]; then
  echo "== YADE: reusing $out/yade/results.txt" >&2
else
  rm -rf "$out/yade" && mkdir -p "$out/yade"
  cp "$examples"/{discharge.py,ramFP.py,spaceRot.py} "$here/yade_discharge.py" "$out/yade/"
  echo "== YADE $(yade --version 2>/dev/null | head -1 | awk '{print $NF}'): $grains grains, $duration s, $threads thread(s)" >&2
  (cd "$out/yade" && /usr/bin/time -v -o time.txt yade -j"$threads" -n -x yade_discharge.py "$grains" "$duration" results.txt > log.txt 2>&1)
fi
yade_value() { awk -v key="$1" '$1 == key { print $2 }' "$out/yade/results.txt"; }

# ---- scree ------------------------------------------------------------------------------
echo "== scree: $grains grains, $duration s, $threads thread(s)" >&2
pipeline=(make --no-print-directory -C "$root/pipelines/discharge" SCREE_BIN="$build/bin" GRAINS="$grains"
          DURATION="$duration" WORK="$out/scree")
"${pipeline[@]}" "$out/scree/N$grains/state.h5" >&2
rm -rf "$out/scree/N$grains/run"
OMP_NUM_THREADS=$threads /usr/bin/time -v -o "$out/scree/time.txt" \
  "$build/bin/scree-solve" "$out/scree/N$grains/case.yaml" > "$out/scree/solve.txt"
"${pipeline[@]}" >&2
steps=$(awk -F, 'END { print $1 }' "$out/scree/N$grains/run/log.csv")
scree_run=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; ++i) s = 60 * s + t[i]; print s }' "$out/scree/time.txt")
scree_f_rel=$(awk '/^F_rel/ { print $2 }' "$out/scree/N$grains/summary.txt")

yade_run=$(yade_value run_s)
{
  printf 'discharge, %s grains, %s s simulated, %s thread(s), on %s\n' "$grains" "$duration" "$threads" "$(hostname)"
  printf '%-32s %14s %14s %10s\n' "" "YADE" "scree" "YADE/scree"
  printf '%-32s %14s %14s\n' "steps" "$(yade_value iterations)" "$steps"
  printf '%-32s %14.2f %14.2f %10.1f\n' "wall time of the stepping, s" "$yade_run" "$scree_run" "$(awk -v a="$yade_run" -v b="$scree_run" 'BEGIN { print a / b }')"
  printf '%-32s %14.1f %14.1f %10.1f\n' "peak RSS, MB" "$(peak_rss_mb "$out/yade/time.txt")" "$(peak_rss_mb "$out/scree/time.txt")" \
    "$(awk -v a="$(peak_rss_mb "$out/yade/time.txt")" -v b="$(peak_rss_mb "$out/scree/time.txt")" 'BEGIN { print a / b }')"
  printf '%-32s %14.4f %14.4f\n' "F_rel, mean of the last 0.1 s" "$(yade_value f_rel_mean_last_0.1s)" "$scree_f_rel"
  printf '%-32s %14.4f\n' "F_rel, YADE's last sample" "$(yade_value f_rel_last)"
  printf '%-32s %14.1f\n' "YADE's set-up (grids, bodies), s" "$(awk -v a="$(yade_value wall_s)" -v b="$yade_run" 'BEGIN { print a - b }')"
} | tee "$out/compare.txt"
