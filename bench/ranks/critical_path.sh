#!/usr/bin/env bash
# What a run would take with a core a rank, on a machine with fewer cores (docs/parallel.md,
# "What it costs"): the case run on one rank, then on each of RANKS ranks (one OpenMP thread a
# rank; mpirun --oversubscribe where they outnumber the cores), every MPI call wrapped by a PMPI library
# preloaded into scree-solve (bench/ranks/critical_path.c, built here with mpicc) that writes
# each rank's CPU time between its calls and what each call waits for; critical_path.py
# replays the ranks on a clock each, a rank's work taking its CPU time, a message there a
# latency after its send, a collective ending at its last rank's arrival (the latencies this
# machine's two ranks measure, bench/ranks/mpi_latency.c: a round of the phases' exchange for a
# message, an MPI_Allreduce for each halving of the ranks a collective). Prints, for each
# rank count, the replayed wall time, the ranks' work and waits, and the speed-up over one
# rank's work. The replay leaves out what cores of one machine cost each other (shared caches,
# memory bandwidth, a host's other guests), which a run on as many cores measures
# (docs/benchmarks.md, "The ranks replayed on a core each").
#
#   bench/ranks/critical_path.sh CASE.yaml [RANKS...]          default RANKS: 2 4 8 16
#   REPLAY="--latency 4e-6" bench/ranks/critical_path.sh CASE.yaml 16
#   REPLAY="--from-meeting Ranks::sum<scree::solver::solve_by_impulses 4 --spread send_to_any<scree::solver::resolve_collisions" \
#     bench/ranks/critical_path.sh CASE.yaml 16                from the second step on; the collisions' spread
#   REPLAY="--work-by-place" bench/ranks/critical_path.sh CASE.yaml 16
#                                                              each rank's work before each place
#   REPLAY="--what-if even" bench/ranks/critical_path.sh CASE.yaml 16
#                                                              as if each stretch between meetings were even
#   KEEP=DIR ...                                               the calls written kept in DIR
#
# scree-solve's own options follow SOLVE="..." (e.g. SOLVE="--restart run1s/checkpoint.h5");
# BUILD_DIR (default build) holds bin/scree-solve. Each run's output goes to a folder of its
# own under the work folder, not to the case's.
set -euo pipefail
case_file=$(realpath "${1:?usage: critical_path.sh CASE.yaml [RANKS...]}")
[[ -f $case_file ]] || { echo "critical_path.sh: error: $1: no such case" >&2; exit 1; }
shift
ranks=("$@")
[[ ${#ranks[@]} -gt 0 ]] || ranks=(2 4 8 16)
here=$(cd "$(dirname "$0")" && pwd)
source "$here/oversubscribe.sh"
root=$(cd "$here/../.." && pwd)
solve=$(realpath "${BUILD_DIR:-$root/build}")/bin/scree-solve
source "$here/kept_folder.sh"
mpicc -O2 -shared -fPIC "$here/critical_path.c" -o "$work/libcritical_path.so"
mpicc -O2 "$here/mpi_latency.c" -o "$work/mpi_latency"
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
read -r latency collective < <(mpirun -np 2 "$work/mpi_latency")
printf 'two ranks here: a message %.2f µs, a collective %.2f µs\n' "$(awk -v x="$latency" 'BEGIN { print x * 1e6 }')" \
  "$(awk -v x="$collective" 'BEGIN { print x * 1e6 }')"

# The case with its output in $work/R<ranks> (its relative paths still hold beside it).
run() {
  local copy=$(dirname "$case_file")/.critical_path.R$1.yaml
  scratch+=("$copy")
  sed -e "s|^  directory: .*|  directory: $work/R$1|" "$case_file" > "$copy"
  local launch=(mpirun $(oversubscribe "$1"))
  # More ranks than cores: each rank keeps a core until it waits (first in, first out, at the
  # least real-time priority, where this user may), rather than being cut into time slices by
  # the others and finding its caches cold; sixteen ranks of the dc7 probe then take 13 s here
  # rather than 30 (docs/benchmarks.md, "The ranks replayed on a core each"). The library makes
  # them so once every rank has started (critical_path.c): launched so, a rank could wait forever
  # behind one spinning in MPI's start-up on its core.
  if (($1 > $(nproc))) && chrt -f 1 true 2> /dev/null; then launch+=(-x CRITICAL_PATH_FIFO=1); fi
  # The paces scree keeps (the seconds its work takes a rank) read on the clock the replay
  # gives each rank, its CPU time: read on the wall clock, a rank held off its core by the
  # others here counts as slow and is given less work, which on a core of its own it is not.
  launch+=(-x CRITICAL_PATH_CLOCK=cpu)
  "${launch[@]}" -np "$1" -x LD_PRELOAD="$work/libcritical_path.so" -x CRITICAL_PATH_OUT="$work/calls.R$1" \
    "$solve" "$copy" ${SOLVE:-} > "$work/R$1.log" 2>&1 || { cat "$work/R$1.log" >&2; exit 1; }
  rm -f "$copy"
}

run 1
one=$(awk '$1 != "site" { s += $2 } END { printf "%.6f", s }' "$work/calls.R1.0")
printf 'one rank: its work %.3f s\n' "$one"
for r in "${ranks[@]}"; do
  run "$r"
  python3 "$here/critical_path.py" "$work/calls.R$r" "$r" --one-rank "$one" --latency "$latency" \
    --collective-step "$collective" ${REPLAY:-}
done
