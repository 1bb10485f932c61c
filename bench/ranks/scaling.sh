#!/usr/bin/env bash
# Strong and weak scaling of scree-solve over MPI ranks on the dc7 avalanche (issue 28;
# docs/benchmarks.md, "Scaling on sixteen cores"), THREADS OpenMP threads a rank (default 1).
#
#   bench/ranks/scaling.sh prepare WORK    the cases, on a machine with the pipeline's tools:
#       WORK/strong: 50 000 rocks over 180 m × 110 m (bench/ranks/dc7_avalanche.sh) and its
#       checkpoint at 1 s (run on every local core); WORK/weak-R for each R of RANKS: 3125·R
#       rocks, as many a square metre, over the first 45 × 27.5 m of that area times R
#       (R = 2: 90 × 27.5, 4: 90 × 55, 8: 180 × 55, 16: the whole).
#   bench/ranks/scaling.sh run WORK        the runs, on R ranks for each R of RANKS:
#       dense  the 50 000 rocks' dense flow, 1 s to 1 s + DENSE_SPAN (default 0.1), restarted
#              from the checkpoint (strong scaling);
#       weak   each WORK/weak-R from its release to WEAK_SPAN (default 1.0) on R ranks;
#       fall   the 50 000 rocks from their release to FALL_SPAN (default 0.5) (strong);
#       busy   the dense flow on one rank, BUSY_COPIES copies at once (default: the largest of
#              RANKS), each on a core of its own: one rank's time while every core works, as
#              they do under R ranks (a clock the cores share, memory and caches shared), a
#              row a copy; scaling_plot sets the dense series against it too.
#     Prints and appends to WORK/scaling.csv a row a run: the series, ranks, threads a rank,
#     grains, the time it ran to (s), steps,
#     the stepping's wall time by scree-solve's own clock, the whole command's, and the
#     checksums of its log and of its checkpoint's grains and contacts (a series' rows must
#     agree: the same bits on any rank count, as bench/ranks/same_bits.sh compares them; the
#     file's attributes name the rank count). Starts no run once BUDGET s (default: none)
#     have passed since its start.
#
#   RANKS="1 2 4 8 16"  (default "1 2")
#   SOLVE="build/bin/scree-solve"      the command that runs scree-solve (a loader and its
#                                      options before the binary may stand in it)
#   MPIRUN="mpirun --oversubscribe"    the launcher and its options, before -np R (with
#                                      THREADS > 1, options that give a rank THREADS cores:
#                                      Open MPI's --map-by slot:PE=THREADS)
#   SERIES="dense weak fall"           which series to run, in that order (busy: named only)
#   BUSY_COPIES=16                     busy's copies (at most the cores)
set -euo pipefail
usage() { echo "usage: scaling.sh prepare|run WORK" >&2; exit 2; }
(( $# == 2 )) && [[ $1 == prepare || $1 == run ]] || usage
mode=$1
work=$(realpath -m "$2")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
ranks_list=${RANKS:-1 2}
fail() { echo "scaling.sh: error: $1" >&2; exit 1; }
[[ $ranks_list =~ ^[[:space:]]*[1-9][0-9]*([[:space:]]+[1-9][0-9]*)*[[:space:]]*$ ]] || fail "RANKS=\"$ranks_list\": not a list of rank counts"
cores=$(nproc)  # before OMP_NUM_THREADS is set, which nproc reads
threads=${THREADS:-1}
[[ $threads =~ ^[1-9][0-9]*$ ]] || fail "THREADS=$threads: not a count of threads"
layout=; if (( threads > 1 )); then layout=x$threads; fi  # a run's name: dense-R4x4
export OMP_NUM_THREADS=$threads OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive} OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
case_dir=dem-dc7_dem_1411slide
series_list=${SERIES:-dense weak fall}
dense_span=${DENSE_SPAN:-0.1} weak_span=${WEAK_SPAN:-1.0} fall_span=${FALL_SPAN:-0.5}
for series in $series_list; do
  [[ $series =~ ^(dense|weak|fall|busy)$ ]] || fail "SERIES: $series is not dense, weak, fall or busy"
done
if [[ " $series_list " == *" busy "* ]]; then
  command -v taskset > /dev/null || fail "taskset: not found (util-linux), which the busy series binds its copies with"
fi
busy_copies=${BUSY_COPIES:-$(printf '%s\n' $ranks_list | sort -n | tail -1)}
[[ $busy_copies =~ ^[1-9][0-9]*$ ]] && (( busy_copies <= cores )) || fail "BUSY_COPIES=$busy_copies: not a count of copies up to the $cores cores"

for span in "DENSE_SPAN=$dense_span" "WEAK_SPAN=$weak_span" "FALL_SPAN=$fall_span"; do
  [[ ${span#*=} =~ ^[0-9]*\.?[0-9]+$ ]] && awk -v s="${span#*=}" 'BEGIN { exit !(s > 0) }' || fail "$span: not a time in s above 0"
done

# The weak series' area for R ranks, "east south" in m: R quarters-by-quarters of 180 × 110.
weak_extent() {
  case $1 in
    1) echo "45 27.5" ;; 2) echo "90 27.5" ;; 4) echo "90 55" ;; 8) echo "180 55" ;; 16) echo "180 110" ;;
    *) fail "weak scaling takes RANKS from 1 2 4 8 16, not $1" ;;
  esac
}

if [[ $mode == prepare ]]; then
  for r in $ranks_list; do weak_extent "$r" > /dev/null; done
  solve=$(realpath "${BUILD_DIR:-$root/build}")/bin/scree-solve
  "$here/dc7_avalanche.sh" "$work/strong" 50000
  sed -e 's|^  directory: .*|  directory: run1s|' "$work/strong/$case_dir/case.yaml" > "$work/strong/$case_dir/case1s.yaml"
  (cd "$work/strong/$case_dir" && mpirun --oversubscribe -np "$cores" "$solve" case1s.yaml)
  for r in $ranks_list; do
    EXTENT=$(weak_extent "$r") "$here/dc7_avalanche.sh" "$work/weak-$r" $((3125 * r))
  done
  exit 0
fi
[[ -s $work/strong/$case_dir/run1s/checkpoint.h5 ]] || fail "$work: no cases (scaling.sh prepare $work makes them)"
# The first Python that reads HDF5 (h5py): PYTHON, else python3, else the system's.
python=
for candidate in ${PYTHON:-python3 /usr/bin/python3}; do
  if "$candidate" -c "import h5py" 2> /dev/null; then python=$candidate; break; fi
done
[[ -n $python ]] || fail "${PYTHON:-python3}: no Python with h5py (set PYTHON)"
# checksum FILE: of a checkpoint's datasets of grains and contacts, in the order of their names.
checksum() {
  "$python" - "$1" <<'PY'
import hashlib, sys
import h5py
f, digest = h5py.File(sys.argv[1], "r"), hashlib.md5()
for group in ["bodies"] + (["solver/contacts"] if "solver" in f else []):
    for name in sorted(f[group]):
        digest.update(name.encode()); digest.update(f[group][name][()].tobytes())
print(digest.hexdigest()[:12])
PY
}
read -r -a solve <<< "${SOLVE:-$root/build/bin/scree-solve}"
read -r -a mpirun <<< "${MPIRUN:-mpirun --oversubscribe}"
budget=${BUDGET:-0}
started=$SECONDS
csv=$work/scaling.csv
[[ -s $csv ]] || echo "series,ranks,threads,grains,until_s,steps,stepping_s,command_s,log_md5,checkpoint_md5" > "$csv"

# write_case DIR OUT DURATION: DIR's case as OUT.yaml, its output in OUT, run to DURATION.
write_case() {
  # The avatars where this WORK lies now (prepare wrote absolute paths).
  sed -e "s|^  directory: .*|  directory: $2|" -e "s|duration: .*|duration: $3|" \
      -e "s|file: [^,]*/avatars/|file: $(dirname "$1")/avatars/|" "$1/case.yaml" > "$2.yaml"
}

# row SERIES R DURATION OUT T0 T1: the row of the run whose output is OUT (and OUT.out).
row() {
  local steps wall grains
  read -r steps wall < <(awk '/where the time went/ { for (k = 1; k < NF; ++k) { if ($k == "in") w = $(k + 1); if ($k == "steps") s = $(k - 1) } } END { print s, w }' "$4.out")
  grains=$(awk '/^scree-solve: [0-9]+ grains/ { print $2; exit }' "$4.out")
  printf '%s,%d,%d,%d,%s,%d,%.3f,%.3f,%s,%s\n' "$1" "$2" "$threads" "$grains" "$3" "$steps" "$wall" "$(awk -v a="$5" -v b="$6" 'BEGIN { print b - a }')" \
    "$(md5sum < "$4/log.csv" | cut -c1-12)" "$(checksum "$4/checkpoint.h5")" | tee -a "$csv"
}

# run_case SERIES R DIR DURATION [scree-solve options]: one run of DIR's case on R ranks to DURATION.
run_case() {
  local series=$1 r=$2 dir=$3 duration=$4 out t0 t1
  shift 4
  out=$dir/$series-R$r$layout
  rm -rf "$out"
  write_case "$dir" "$out" "$duration"
  t0=$(date +%s.%N)
  # One rank under the launcher too: a singleton's MPI_Init starts a daemon of its own.
  (cd "$dir" && "${mpirun[@]}" -np "$r" "${solve[@]}" "$out.yaml" "$@") > "$out.out" 2>&1 ||
    { tail -5 "$out.out" >&2; fail "$series on $r ranks failed ($out.out)"; }
  t1=$(date +%s.%N)
  row "$series" "$r" "$duration" "$out" "$t0" "$t1"
}

# busy_copies DIR DURATION [scree-solve options]: BUSY_COPIES one-rank runs of DIR's case at
# once, copy k on core k alone (each its own launcher; taskset binds the rank over whatever
# core the launcher chose, and MPIRUN's own binding is left as it is: two would conflict).
busy_copies() {
  local dir=$1 duration=$2 k t0
  shift 2
  local outs=() ends=()
  t0=$(date +%s.%N)
  for ((k = 0; k < busy_copies; ++k)); do
    outs+=("$dir/busy-$k$layout")
    rm -rf "${outs[k]}" "${outs[k]}.end"
    write_case "$dir" "${outs[k]}" "$duration"
    (cd "$dir" && "${mpirun[@]}" -np 1 taskset -c "$k" "${solve[@]}" "${outs[k]}.yaml" "$@" > "${outs[k]}.out" 2>&1 &&
       date +%s.%N > "${outs[k]}.end") &
  done
  wait
  for ((k = 0; k < busy_copies; ++k)); do
    [[ -s ${outs[k]}.end ]] || { tail -5 "${outs[k]}.out" >&2; fail "busy copy $k failed (${outs[k]}.out)"; }
    row busy 1 "$duration" "${outs[k]}" "$t0" "$(cat "${outs[k]}.end")"
  done
}

for series in $series_list; do
  if [[ $series == busy ]]; then
    if (( budget > 0 && SECONDS - started > budget )); then echo "busy,1,skipped: past BUDGET=$budget s"; continue; fi
    busy_copies "$work/strong/$case_dir" "$(awk -v s="$dense_span" 'BEGIN { print 1 + s }')" --restart "$work/strong/$case_dir/run1s/checkpoint.h5"
    continue
  fi
  for r in $ranks_list; do
    if (( budget > 0 && SECONDS - started > budget )); then echo "$series,$r,skipped: past BUDGET=$budget s"; continue; fi
    case $series in
      dense) run_case dense "$r" "$work/strong/$case_dir" "$(awk -v s="$dense_span" 'BEGIN { print 1 + s }')" --restart "$work/strong/$case_dir/run1s/checkpoint.h5" ;;
      weak)  [[ -d $work/weak-$r ]] || fail "$work/weak-$r: no weak case for $r ranks (prepare with RANKS naming $r)"
             run_case weak "$r" "$work/weak-$r/$case_dir" "$weak_span" ;;
      fall)  run_case fall "$r" "$work/strong/$case_dir" "$fall_span" ;;
    esac
  done
done
