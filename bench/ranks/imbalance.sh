#!/usr/bin/env bash
# How unevenly R ranks' work falls between the step's meetings of all ranks, counted in
# instructions (issue 28; docs/benchmarks.md, "Unevenness counted in instructions"): the case
# run on R ranks under valgrind's callgrind, which writes each rank's instructions at the end
# of each contact search, each resolution of collisions and each resting solve across the
# ranks; imbalance.py takes MPI's own code out (its polls while a rank waits) and prints, for
# each stretch between two such ends, its share of the work and how far its busiest rank was
# over the mean, summed over the run: what the ranks would wait there on cores of equal speed.
# Unlike a time, it is the same from run to run and free of what ranks sharing this machine's
# cores cost each other, whose noise swamps it in a replay here (critical_path.sh). Runs that
# share cores cut their regions, strips and collisions by work, not by pace
# (Ranks::share_cores): what it measures is that work's evenness.
#
#   bench/ranks/imbalance.sh CASE.yaml R [END]                END: the end time (s), else the case's
#   SOLVE="--restart $PWD/run1s/checkpoint.h5" bench/ranks/imbalance.sh probe.yaml 16 1.02
#   ENDS="island_solvers(*) Ranks::send_to_any(*)?const" ...  more ends: callgrind's patterns of
#                                                             functions of scree::solver that every rank
#                                                             calls as often ("?": the space before a
#                                                             member's const), the stretches cut there
#   KEEP=DIR ...                                              the counts kept in DIR
#   PACED=0 ...                                               the ranks not paced: they take turns on the
#                                                             cores, so scree shares the regions, strips
#                                                             and collisions by work alone, and the count
#                                                             is the same to the digit run after run (paced,
#                                                             the cuts follow paces read on CPU time, which
#                                                             this host's speed moves: 11–16 % of the probe's
#                                                             work in one afternoon); a change to a work
#                                                             model is measured so
#
# scree-solve's own options follow SOLVE="..."; BUILD_DIR (default build) holds
# bin/scree-solve. A run takes about 100 times its time without valgrind.
set -euo pipefail
usage() { echo "usage: imbalance.sh CASE.yaml R [END]" >&2; exit 2; }
(( $# == 2 || $# == 3 )) || usage
case_file=$(realpath "$1")
[[ -f $case_file ]] || { echo "imbalance.sh: error: $1: no such case" >&2; exit 1; }
ranks=$2 end=${3:-}
[[ $ranks =~ ^[1-9][0-9]*$ ]] || usage
[[ -z $end || $end =~ ^[0-9]*\.?[0-9]+$ ]] || { echo "imbalance.sh: error: END=$end: not an end time in s" >&2; exit 2; }
[[ ${PACED:-1} =~ ^[01]$ ]] || { echo "imbalance.sh: error: PACED=$PACED: not 0 (unpaced) or 1 (paced, the default)" >&2; exit 2; }
tool=imbalance.sh
source "$(dirname "$0")/under_valgrind.sh"

copy=$(dirname "$case_file")/.imbalance.yaml
scratch+=("$copy")
sed -e "s|^  directory: .*|  directory: $work/out|" ${end:+-e "s|^  duration: .*|  duration: $end|"} "$case_file" > "$copy"
# The ends of the three phases that every rank reaches together (a pattern ending in ")" leaves
# out the lambdas within them, whose names end in "const"), and ENDS's. One pattern a function:
# of two that begin alike, callgrind keeps the last.
read -r -a extra <<< "${ENDS:-}"
ends=()
for pattern in "find_contacts(*)" "resolve_collisions_across_ranks(*)" "rest_across_ranks(*)" "${extra[@]}"; do
  ends+=(--dump-after="scree::solver::$pattern")
done
# The ranks paced as on cores of their own (critical_path.c, as critical_path.sh runs them): each
# keeps its core until it waits (first in, first out: the machine's other work waits too), and
# the paces scree keeps are read on its CPU time.
mpicc -O2 -shared -fPIC "$here/critical_path.c" -o "$work/libcritical_path.so"
launch=(mpirun -np "$ranks" $(oversubscribe "$ranks") -x LD_PRELOAD="$work/libcritical_path.so" -x CRITICAL_PATH_OUT="$work/waits"
        -x CRITICAL_PATH_CLOCK=cpu)
if [[ ${PACED:-1} == 1 ]] && ((ranks > $(nproc))) && chrt -f 1 true 2> /dev/null; then launch+=(-x CRITICAL_PATH_FIFO=1); fi
# Each rank names its own files (%q: the variable Open MPI gives each rank; empty on one).
"${launch[@]}" valgrind --tool=callgrind "${ends[@]}" \
  --callgrind-out-file="$work/calls.%q{OMPI_COMM_WORLD_RANK}" "$solve" "$copy" "${options[@]}" > "$work/run.log" 2>&1 ||
  { tail -5 "$work/run.log" >&2; echo "imbalance.sh: error: the run failed ($work/run.log)" >&2; exit 1; }
python3 "$here/imbalance.py" "$work" "$ranks"
