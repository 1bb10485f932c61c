#!/usr/bin/env bash
# What R ranks execute beyond one rank, counted in instructions, a step (issue 28;
# docs/benchmarks.md, "Instructions on sixteen ranks"): the case run under valgrind's
# cachegrind (instructions only, no cache simulated) on one rank and on R ranks, each to two
# end times, SHORT and LONG; the difference of the two is what the steps between them execute,
# free of the start (reading the state, MPI's start-up, the first step's caches). Unlike a
# time, an instruction count is the same from run to run and from machine to machine, and
# does not count what cores cost each other (a clock they share, memory): what it shows is the
# ranks' own work, function by function (instructions.py). MPI's own code counts too, and
# with it the polls of a rank that waits, which are waiting, not work: it is shown apart.
#
#   bench/ranks/instructions.sh CASE.yaml R SHORT LONG        (one thread a rank)
#   SOLVE="--restart $PWD/run1s/checkpoint.h5" bench/ranks/instructions.sh probe.yaml 16 1.004 1.012
#   KEEP=DIR ...                                               the counts kept in DIR
#
# scree-solve's own options follow SOLVE="..."; BUILD_DIR (default build) holds
# bin/scree-solve. A run takes about 50 times its time without valgrind.
set -euo pipefail
usage() { echo "usage: instructions.sh CASE.yaml R SHORT LONG" >&2; exit 2; }
(( $# == 4 )) || usage
case_file=$(realpath "$1")
[[ -f $case_file ]] || { echo "instructions.sh: error: $1: no such case" >&2; exit 1; }
ranks=$2 short=$3 long=$4
[[ $ranks =~ ^[1-9][0-9]*$ ]] || usage
[[ $short =~ ^[0-9]*\.?[0-9]+$ && $long =~ ^[0-9]*\.?[0-9]+$ ]] && awk -v a="$short" -v b="$long" 'BEGIN { exit !(a < b) }' ||
  { echo "instructions.sh: error: SHORT=$short, LONG=$long: not two end times in s, the first the earlier" >&2; exit 2; }
tool=instructions.sh
source "$(dirname "$0")/under_valgrind.sh"

# count NAME R DURATION: the case on R ranks to DURATION, each rank's counts in $work/NAME.<rank>.
count() {
  local name=$1 r=$2 copy
  copy=$(dirname "$case_file")/.instructions.$name.yaml
  scratch+=("$copy")
  sed -e "s|^  directory: .*|  directory: $work/$name|" -e "s|^  duration: .*|  duration: $3|" "$case_file" > "$copy"
  # Each rank names its own file (%q: the variable Open MPI gives each rank; empty on one).
  mpirun -np "$r" $(oversubscribe "$r") valgrind --tool=cachegrind --cache-sim=no \
    --cachegrind-out-file="$work/$name.%q{OMPI_COMM_WORLD_RANK}" "$solve" "$copy" "${options[@]}" > "$work/$name.log" 2>&1 ||
    { tail -5 "$work/$name.log" >&2; echo "instructions.sh: error: $name failed ($work/$name.log)" >&2; exit 1; }
}
count one-short 1 "$short"
count one-long 1 "$long"
count many-short "$ranks" "$short"
count many-long "$ranks" "$long"
python3 "$here/instructions.py" "$work" "$ranks"
