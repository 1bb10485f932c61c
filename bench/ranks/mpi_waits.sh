#!/usr/bin/env bash
# Where the ranks of a run wait (docs/benchmarks.md, "A rank lets go as it goes"): every
# blocking MPI call that scree's communicator makes (reductions, exchanges, gathers) timed on
# each rank by a PMPI wrapper preloaded into scree-solve (bench/ranks/mpi_waits.c, built here
# with mpicc), summed by the functions it was called from; prints each rank's time in MPI and
# the places that took the most. A rank waits in MPI for the slower one, so a place where both
# ranks wait is one whose work is now the longer on one rank and now on the other.
#
#   bench/ranks/mpi_waits.sh R CASE.yaml [scree-solve options]     (one thread a rank)
#   TOP=20 bench/ranks/mpi_waits.sh 2 avalanche.yaml
set -euo pipefail
ranks=${1:?usage: mpi_waits.sh R CASE.yaml [options]}
shift
here=$(cd "$(dirname "$0")" && pwd)
source "$here/oversubscribe.sh"
root=$(cd "$here/../.." && pwd)
solve=$(realpath "${BUILD_DIR:-$root/build}")/bin/scree-solve
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpicc -O2 -shared -fPIC "$here/mpi_waits.c" -o "$work/libmpi_waits.so"
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun -np "$ranks" $(oversubscribe "$ranks") -x LD_PRELOAD="$work/libmpi_waits.so" -x MPI_WAITS_OUT="$work/waits" \
  "$solve" "$@" > "$work/solve.log" 2>&1 || { cat "$work/solve.log" >&2; exit 1; }
grep "where the time went" "$work/solve.log" || true
python3 - "$work/waits" "$ranks" "${TOP:-12}" "$here" <<'PY'
import sys
base, ranks, top = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
sys.path.insert(0, sys.argv[4])
from code_places import function_at as name
for rank in range(ranks):
    rows = [line.split() for line in open(f"{base}.{rank}")]
    sites = {}
    for seconds, calls, *places in rows:
        key = " < ".join(name(p) for p in places[:2])
        s, c = sites.get(key, (0.0, 0))
        sites[key] = (s + float(seconds), c + int(calls))
    print(f"rank {rank}: {sum(s for s, c in sites.values()):.2f} s in MPI")
    for key, (s, c) in sorted(sites.items(), key=lambda x: -x[1][0])[:top]:
        print(f"  {s:7.3f} s {c:8d} calls  {key}")
PY
