# Sourced by bench/ranks/ scripts that run scree-solve under valgrind (`tool`: the script's name,
# for its error lines): `here` (bench/ranks), `root`, `solve` (BUILD_DIR's scree-solve, default
# build), `options` (SOLVE's words, scree-solve's own options), `oversubscribe`, the kept folder
# (kept_folder.sh), and one OpenMP thread a rank.
command -v valgrind > /dev/null || { echo "$tool: error: valgrind: not installed (apt-get install valgrind)" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
source "$here/oversubscribe.sh"
root=$(cd "$here/../.." && pwd)
solve=$(realpath "${BUILD_DIR:-$root/build}")/bin/scree-solve
source "$here/kept_folder.sh"
read -r -a options <<< "${SOLVE:-}"
# OMP_WAIT_POLICY set: scree-solve would otherwise run itself again to set it, which valgrind
# does not follow.
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
