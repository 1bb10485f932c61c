#!/usr/bin/env bash
# The settled heap's cost per step per grain at several sizes (issue 27): seed 004's
# discharge (pipelines/discharge) run to rest at 250 and 1000 grains, and 4000 grains as four
# 1000-grain heaps stacked in the same box and settled for 1.2 s; then 0.05 s more of each
# from its checkpoint on one and on two threads, the heaps in turn, REPEAT rounds. Prints, per
# heap and thread count, the median time of the stepping (the run less a run of one step, by
# scree-solve's own clock), its steps, the time per step per grain (and of it the resting
# passes' and the rest's), resting passes, peak RSS, the medians of the rounds' ratios one
# thread / two and this heap's time a step a grain / the first heap's, the contacts a grain
# and the time per step per contact (docs/benchmarks.md, "The settled heap at 250, 1000 and
# 4000 grains"); then each round's ratios, which the medians hide.
#
#   bench/heaps/run.sh [BUILD_DIR]      HEAPS="250 1000 4000" (default "250 1000"; 4000
#                                       adds about 25 minutes of settling on two cores)
#                                       REPEAT=5 (default 3)
#                                       SPAN=0.2 (s, default 0.05: a longer stretch averages
#                                       over the steps that take a second sweep)
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$here/out
heaps=${HEAPS:-250 1000}
repeat=${REPEAT:-3}
python=${PYTHON:-/usr/bin/python3}
span=${SPAN:-0.05}
mkdir -p "$work"

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# A settled heap's checkpoint for N grains: the discharge to 1.4 s, or for 4000 four stacked
# 1000-grain heaps settled for 1.2 s. The settling of the stack runs with restitution 0 and
# group tolerance 0: the landing of the copies is not what is measured, and elastic
# collisions of so large islands take the ETM far longer (docs/theory.md, the ETM's groups).
# At 0.5 s the stack still compacted, with 25 times the 1000-grain heap's kinetic energy a
# grain; at 1.2 s it has about the same (docs/benchmarks.md, "The ninth pass"). A checkpoint
# settled for less is run on to 1.2 s from where it is (a restart continues bit for bit).
settle_time=1.2
checkpoint_of() {
  local n=$1
  if [[ $n != 4000 ]]; then
    make --no-print-directory -C "$root/pipelines/discharge" SCREE_BIN="$build/bin" GRAINS="$n" WORK="$work" >&2
    echo "$work/N$n/run/checkpoint.h5"
    return
  fi
  local s=$work/S4000 restart=()
  if [[ -s $s/run/checkpoint.h5 ]]; then
    local settled
    settled=$("$python" -c "import h5py; print(int(h5py.File('$s/run/checkpoint.h5')['/'].attrs['time'] >= $settle_time - 1e-9))")
    if [[ $settled == 1 ]]; then
      echo "$s/run/checkpoint.h5"
      return
    fi
    mv "$s/run/checkpoint.h5" "$s/earlier.h5"
    restart=(--restart earlier.h5)
  else
    checkpoint_of 1000 > /dev/null
    mkdir -p "$s"
    "$python" "$here/stack.py" "$work/N1000/run/checkpoint.h5" "$s/state.h5" 4 >&2
  fi
  sed -e "s|duration: .*|duration: $settle_time|" -e 's|restitution: [0-9.]*}|restitution: 0}|' \
      -e 's|impulse: {boundary_iterations: \([0-9]*\)}|impulse: {boundary_iterations: \1, group_tolerance: 0}|' \
      "$work/N1000/case.yaml" > "$s/settle.yaml"
  rm -rf "$s/run"
  (cd "$s" && "$build/bin/scree-solve" settle.yaml "${restart[@]}" >&2)
  rm -f "$s/earlier.h5"
  echo "$s/run/checkpoint.h5"
}

# One run of heap N on THREADS threads from its checkpoint to its start + SPAN s, into TAG:
# prints the wall time of its stepping and of its resting passes (velocity and correction
# passes), both from scree-solve's table of where the time went (its own clock: neither the
# process's start nor the reading of shapes and checkpoint is in it), its peak RSS (kB) and
# its steps.
run_heap() {
  local n=$1 threads=$2 span=$3 tag=$4
  local out=$work/heap$n-$tag checkpoint=${checkpoints[$n]}
  rm -rf "$out" && mkdir -p "$out"
  sed -e "s|^  directory: .*|  directory: $out|" -e "s|duration: .*|duration: $(awk -v t="${starts[$n]}" -v s="$span" 'BEGIN { printf "%.6f", t + s }')|" \
      -e "s|^initial_state: .*|initial_state: $(dirname "$checkpoint")/../state.h5|" "$work/N$( [[ $n == 4000 ]] && echo 1000 || echo "$n")/case.yaml" > "$out.yaml"
  OMP_NUM_THREADS=$threads /usr/bin/time -f "%M" -o "$out.time" "$build/bin/scree-solve" "$out.yaml" --restart "$checkpoint" > "$out.out"
  echo "$(awk '/where the time went/ { for (k = 1; k < NF; ++k) if ($k == "in") print $(k + 1) }' "$out.out")" \
    "$(awk '/^  (velocity|correction) passes / { s += substr($0, 23, 10) } END { print s + 0 }' "$out.out")" \
    "$(tail -n 1 "$out.time")" \
    "$(( $("$python" -c "import h5py; print(h5py.File('$out/checkpoint.h5')['/'].attrs['step'])") - ${first_steps[$n]} ))"
}

# The stepping's time: a run of 0.05 s less a run of one step (2 ms), both from the
# checkpoint, so that the first step, which builds the neighbour lists and the nodes' caches
# afresh, is not counted either (docs/benchmarks.md, "The ninth pass"). Its time a step a
# grain is split into the resting passes' (velocity and correction passes, whose count may
# grow with a heap's depth) and the rest of the step's (docs/benchmarks.md, "The thirteenth
# pass").
#
# Every round runs each heap on one and on two threads in turn, REPEAT rounds: this machine's
# speed and its second core come and go over minutes (one heap's time a step a grain moved by
# up to 30 % within the hour, and a single pair can put two threads anywhere from 1.2x to 1.9x,
# docs/benchmarks.md, the eighth and fifteenth passes). The medians are printed, and the
# medians of each round's ratios: one thread over two (two_vs_one), and a heap's time a step a
# grain over the first heap's on as many threads (vs_first; docs/benchmarks.md, "The fifteenth
# pass"). Each round's ratios follow the table.
declare -A checkpoints=() starts=() first_steps=()
for n in $heaps; do
  checkpoints[$n]=$(checkpoint_of "$n")
  starts[$n]=$("$python" -c "import h5py; print(h5py.File('${checkpoints[$n]}')['/'].attrs['time'])")
  first_steps[$n]=$("$python" -c "import h5py; print(h5py.File('${checkpoints[$n]}')['/'].attrs['step'])")
done
first_heap=${heaps%% *}
declare -A times=() in_passes=() peaks=() steps_of=() two_vs_one=() vs_first=() per_grain_of=()
for ((r = 0; r < repeat; ++r)); do
  for n in $heaps; do
    for threads in 1 2; do
      read -r wall passes_s peak steps < <(run_heap "$n" "$threads" "$span" "$threads")
      read -r short short_passes_s _ short_steps < <(run_heap "$n" "$threads" 0.002 "$threads-short")
      stepping=$(awk -v w="$wall" -v s="$short" 'BEGIN { printf "%.3f", w - s }')
      steps_of[$n]=$(( steps - short_steps ))
      times[$n,$threads]+="$stepping "
      in_passes[$n,$threads]+="$(awk -v p="$passes_s" -v s="$short_passes_s" 'BEGIN { printf "%.3f", p - s }') "
      peaks[$n,$threads]+="$peak "
      per_grain_of[$n,$threads]=$(awk -v w="$stepping" -v s="${steps_of[$n]}" -v n="$n" 'BEGIN { print w / s / n }')
      vs_first[$n,$threads]+="$(awk -v x="${per_grain_of[$n,$threads]}" -v f="${per_grain_of[$first_heap,$threads]}" 'BEGIN { printf "%.3f", x / f }') "
    done
    two_vs_one[$n]+="$(awk -v one="${per_grain_of[$n,1]}" -v two="${per_grain_of[$n,2]}" 'BEGIN { printf "%.3f", one / two }') "
  done
done

printf '%-6s %-8s %10s %6s %18s %10s %10s %7s %10s %10s %10s %12s %12s\n' grains threads stepping_s steps ms_step_per_grain \
  in_passes the_rest passes peak_MB two_vs_one vs_first contacts_per_grain ms_step_per_contact
for n in $heaps; do
  steps=${steps_of[$n]}
  for threads in 1 2; do
    out=$work/heap$n-$threads
    stepping=$(median ${times[$n,$threads]})
    passes_s=$(median ${in_passes[$n,$threads]})
    peak=$(median ${peaks[$n,$threads]})
    passes=$(awk -F, 'NR > 1 && $17 > m { m = $17 } END { print m }' "$out/log.csv")
    # The contacts a grain, over the run's log rows: a step's cost a contact is what the
    # issue asks to be linear; a grain's also grows with the contacts a grain (a monolayer's
    # grains touch fewer than a heap's).
    contacts=$(awk -F, -v n="$n" 'NR > 1 { c += $13; k++ } END { print c / k / n }' "$out/log.csv")
    ratio=$([[ $threads == 2 ]] && printf %.3f "$(median ${two_vs_one[$n]})" || echo -)
    per_grain() { awk -v w="$1" -v s="$steps" -v n="$n" 'BEGIN { print 1000 * w / s / n }'; }
    printf '%-6s %-8s %10.2f %6d %18.4f %10.4f %10.4f %7d %10.1f %10s %10.3f %12.2f %12.4f\n' "$n" "$threads" "$stepping" "$steps" \
      "$(per_grain "$stepping")" "$(per_grain "$passes_s")" "$(per_grain "$(awk -v w="$stepping" -v p="$passes_s" 'BEGIN { print w - p }')")" \
      "$passes" "$(awk -v k="$peak" 'BEGIN { print k / 1024 }')" "$ratio" "$(median ${vs_first[$n,$threads]})" "$contacts" \
      "$(awk -v g="$(per_grain "$stepping")" -v c="$contacts" 'BEGIN { print g / c }')"
  done
done

# Each round's ratios, whose medians the table gives: on this machine they spread by a tenth
# and more within the hour (docs/benchmarks.md, "The twenty-first pass").
echo "each round's ratios:"
for n in $heaps; do
  printf '%-6s one / two threads: %s| a grain over %s grains, one thread: %s\n' "$n" "${two_vs_one[$n]}" "$first_heap" "${vs_first[$n,1]}"
done
