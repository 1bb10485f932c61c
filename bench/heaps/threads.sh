#!/usr/bin/env bash
# The settled heaps on more threads than two (issue 27; docs/benchmarks.md, "The eighteenth
# pass"): each heap that bench/heaps/run.sh has settled, run SPAN s on from its checkpoint on
# each of THREADS threads, less a run of one step, as run.sh times it (scree-solve's own
# clock), REPEAT rounds. Prints per heap and thread count the median time a step a grain, the
# median of the rounds' speed-ups over one thread, and where a step went (scree-solve's phases,
# ms a step, the stepping less the one-step run). Meant for a machine with many cores; the
# heaps' files travel in OUT_DIR (run.sh's out/: N<n>/case.yaml, N<n>/state.h5 and
# N<n>/run/checkpoint.h5, S4000/ for 4000 grains, avatars/).
#
#   bench/heaps/threads.sh [SCREE_SOLVE]   THREADS="1 2 4 8 16" (default "1 2")
#                                          HEAPS="1000 4000" (default "250 1000")
#                                          REPEAT=3 (default 3)
#                                          SPAN=0.2 (s, default 0.05, as run.sh)
#                                          OUT_DIR (default bench/heaps/out)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
solve=${1:-build/bin/scree-solve}
heaps=${HEAPS:-250 1000}
threads_list=${THREADS:-1 2}
repeat=${REPEAT:-3}
span=${SPAN:-0.05}
fail() { echo "threads.sh: error: $1" >&2; exit 1; }
[[ -x $solve ]] || fail "$solve: no scree-solve there (build first, or give its path)"
[[ -d ${OUT_DIR:-$here/out} ]] || fail "${OUT_DIR:-$here/out}: no heaps (bench/heaps/run.sh settles them)"
work=$(cd "${OUT_DIR:-$here/out}" && pwd)
[[ $threads_list =~ ^[[:space:]]*[1-9][0-9]*([[:space:]]+[1-9][0-9]*)*[[:space:]]*$ ]] || fail "THREADS=\"$threads_list\": not a list of thread counts"
[[ $repeat =~ ^[1-9][0-9]*$ ]] || fail "REPEAT=$repeat: not a count of rounds"
[[ $span =~ ^[0-9]*\.?[0-9]+$ ]] && awk -v s="$span" 'BEGIN { exit !(s > 0.002) }' || fail "SPAN=$span: not a time in s above 0.002"
# The first Python that reads HDF5 (h5py): PYTHON, else python3, else the system's.
python=
for candidate in ${PYTHON:-python3 /usr/bin/python3}; do
  if "$candidate" -c "import h5py" 2> /dev/null; then python=$candidate; break; fi
done
[[ -n $python ]] || fail "${PYTHON:-python3}: no Python with h5py (set PYTHON)"

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
attribute() { "$python" -c "import h5py; print(h5py.File('$1')['/'].attrs['$2'])"; }
directory_of() { [[ $1 == 4000 ]] && echo "$work/S4000" || echo "$work/N$1"; }

# One run of heap N on T threads for SPAN s into out/threads-N-T-TAG: prints its stepping's
# wall time and its steps, then each phase's seconds (name=seconds).
run_heap() {
  local n=$1 threads=$2 length=$3 tag=$4
  local dir out case_dir
  dir=$(directory_of "$n")
  case_dir=$work/N$([[ $n == 4000 ]] && echo 1000 || echo "$n")
  out=$work/threads-$n-$threads-$tag
  rm -rf "$out" && mkdir -p "$out"
  sed -e "s|^  directory: .*|  directory: $out|" \
      -e "s|duration: .*|duration: $(awk -v t="${starts[$n]}" -v s="$length" 'BEGIN { printf "%.6f", t + s }')|" \
      -e "s|^initial_state: .*|initial_state: $dir/state.h5|" \
      -e "s|file: [^,]*/avatars/|file: $work/avatars/|" "$case_dir/case.yaml" > "$out.yaml"
  OMP_NUM_THREADS=$threads "$solve" "$out.yaml" --restart "$dir/run/checkpoint.h5" > "$out.out"
  awk '/where the time went/ { for (k = 1; k < NF; ++k) { if ($k == "in") w = $(k + 1); if ($k == "steps") s = $(k - 1) } }
       /^  [a-z]/ && / s / { name = substr($0, 3, 24); gsub(/ +$/, "", name); gsub(/[ ()]/, "_", name); p = p " " name "=" substr($0, 27, 10) + 0 }
       END { print w, s p }' "$out.out"
}

declare -A starts=() per_grain=() speedups=() phases=()
for n in $heaps; do
  checkpoint=$(directory_of "$n")/run/checkpoint.h5
  [[ -s $checkpoint ]] || fail "$checkpoint: no settled heap of $n grains (HEAPS=\"$n\" bench/heaps/run.sh settles it)"
  starts[$n]=$(attribute "$checkpoint" time)
done
first_threads=${threads_list%% *}
for ((r = 0; r < repeat; ++r)); do
  for n in $heaps; do
    declare -A this_round=()
    for threads in $threads_list; do
      read -r wall steps rest < <(run_heap "$n" "$threads" "$span" long)
      read -r short short_steps short_rest < <(run_heap "$n" "$threads" 0.002 short)
      value=$(awk -v w="$wall" -v s="$short" -v k="$(( steps - short_steps ))" -v n="$n" 'BEGIN { printf "%.5f", 1000 * (w - s) / k / n }')
      per_grain[$n,$threads]+="$value "
      this_round[$threads]=$value
      speedups[$n,$threads]+="$(awk -v a="${this_round[$first_threads]}" -v b="$value" 'BEGIN { printf "%.3f", a / b }') "
      phases[$n,$threads]=$(awk -v long="$rest" -v short="$short_rest" -v k="$(( steps - short_steps ))" 'BEGIN {
          m = split(long, l, " "); split(short, s, " ");
          for (i = 1; i <= m; ++i) { split(l[i], a, "="); split(s[i], b, "="); printf "%s %.2f  ", a[1], 1000 * (a[2] - b[2]) / k } }')
    done
    unset this_round
  done
done

printf '%-6s %-8s %18s %10s   %s\n' grains threads ms_step_per_grain speedup "phases, ms a step (the last round)"
for n in $heaps; do
  for threads in $threads_list; do
    printf '%-6s %-8s %18.4f %10.3f   %s\n' "$n" "$threads" "$(median ${per_grain[$n,$threads]})" "$(median ${speedups[$n,$threads]})" "${phases[$n,$threads]}"
  done
done
