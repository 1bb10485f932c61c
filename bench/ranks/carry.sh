#!/usr/bin/env bash
# scree-solve, Open MPI and the scaling cases carried to a machine that has no MPI (issue 28;
# docs/benchmarks.md, "Scaling on sixteen cores", "How it was carried"): a loaned machine
# with many cores but none of this project's packages.
#
#   bench/ranks/carry.sh pack WORK BUNDLE.tar.xz     here, after scaling.sh prepare WORK:
#       build/bin/scree-solve and every library that it, Open MPI's launcher (orterun, orted)
#       or Open MPI's components load (by ldd), Open MPI's and PMIx's own folders, and WORK's
#       cases (strong: the case, its rocks, terrain, avatars and checkpoint at 1 s; weak-R:
#       each case) in one archive.
#   ALSO="NAME=PATH ..." bench/ranks/carry.sh pack ...   other builds of scree-solve beside it
#       (a change to time against main there), each as bin/scree-solve-NAME.
#   bench/ranks/carry.sh unpack BUNDLE.tar.xz DIR    there: the bundle under DIR, Open MPI's
#       folders and launcher put at their paths (/usr/lib/x86_64-linux-gnu/openmpi, …,
#       /usr/bin/orterun), and DIR/env.sh
#       written: source it, then run bench/ranks/scaling.sh run DIR/work as on this machine
#       (it sets SOLVE and MPIRUN to run through the bundle's own loader, LOADER to the
#       loader alone: SOLVE="$LOADER DIR/bin/scree-solve-NAME" runs another build).
#
# Each program runs through the bundle's loader (ld-linux-x86-64.so.2 --library-path), Open
# MPI starts its ranks on the machine itself (OMPI_MCA_plm=isolated: no ssh there) and copies
# between ranks through shared memory alone (no kernel module there: single copy off).
set -euo pipefail
usage() { echo "usage: carry.sh pack WORK BUNDLE.tar.xz | unpack BUNDLE.tar.xz DIR" >&2; exit 2; }
fail() { echo "carry.sh: error: $1" >&2; exit 1; }
(( $# == 3 )) || usage
root=$(cd "$(dirname "$0")/../.." && pwd)
mpi_libraries=(/usr/lib/x86_64-linux-gnu/openmpi /usr/lib/x86_64-linux-gnu/pmix2)  # its components
mpi_dirs=("${mpi_libraries[@]}" /usr/share/openmpi /etc/openmpi)
launchers=(/usr/bin/orterun /usr/bin/orted)
case_dir=dem-dc7_dem_1411slide

pack() {
  local work bundle solve name path dir
  work=$(realpath "$1") bundle=$(realpath -m "$2")
  solve=$(realpath "${BUILD_DIR:-$root/build}")/bin/scree-solve
  [[ -x $solve ]] || fail "$solve: not built (cmake --build build)"
  [[ -s $work/strong/$case_dir/run1s/checkpoint.h5 ]] || fail "$work: no cases (bench/ranks/scaling.sh prepare $work)"
  for path in "${launchers[@]}"; do [[ -x $path ]] || fail "$path: Open MPI is not installed here"; done
  stage=$(mktemp -d)
  trap 'rm -rf "$stage"' EXIT
  mkdir -p "$stage/lib" "$stage/bin" "$stage/sys" "$stage/work"
  cp -L "$solve" "$stage/bin/"
  local also=() entry
  for entry in ${ALSO:-}; do
    [[ $entry =~ ^([A-Za-z0-9_-]+)=(.+)$ && -x ${BASH_REMATCH[2]} ]] || fail "ALSO: $entry is not NAME=PATH of a built scree-solve"
    cp -L "${BASH_REMATCH[2]}" "$stage/bin/scree-solve-${BASH_REMATCH[1]}"
    also+=("${BASH_REMATCH[2]}")
  done
  # scaling.sh's busy series binds its copies with taskset, should the machine lack it.
  cp -L "$(command -v taskset)" "$stage/bin/"
  # Every library that a program or one of Open MPI's components loads, and the loader.
  local files=("$solve" "${also[@]}" "${launchers[@]}")
  for dir in "${mpi_libraries[@]}"; do
    [[ -d $dir ]] || fail "$dir: not here (Debian's openmpi-bin and libpmix2 put it there)"
    while IFS= read -r -d '' path; do files+=("$path"); done < <(find "$dir" -name '*.so*' -type f -print0)
  done
  for path in "${files[@]}"; do
    ldd "$path" 2>/dev/null | awk '/=> \// { print $1, $3 } /^\t\/.*ld-linux/ { print "ld-linux-x86-64.so.2", $1 }'
  done | sort -u | while read -r name path; do
    [[ -e $stage/lib/$name ]] || cp -L "$path" "$stage/lib/$name"
  done
  for dir in "${mpi_dirs[@]}" "${launchers[@]}"; do
    mkdir -p "$stage/sys$(dirname "$dir")"
    cp -a "$dir" "$stage/sys$dir"
  done
  # The cases: what scaling.sh run reads of each.
  for dir in "$work"/strong "$work"/weak-*; do
    [[ -d $dir/$case_dir ]] || continue
    name=$(basename "$dir")
    mkdir -p "$stage/work/$name/$case_dir"
    cp -a "$dir/avatars" "$stage/work/$name/"
    cp "$dir/$case_dir"/{case.yaml,state.h5,terrain.vdb} "$stage/work/$name/$case_dir/"
  done
  mkdir -p "$stage/work/strong/$case_dir/run1s"
  cp "$work/strong/$case_dir/run1s/checkpoint.h5" "$stage/work/strong/$case_dir/run1s/"
  mkdir -p "$(dirname "$bundle")"
  tar -C "$stage" -cJf "$bundle.part" . && mv "$bundle.part" "$bundle"
  du -h "$bundle"
}

unpack() {
  local bundle dir
  bundle=$(realpath "$1") dir=$(realpath -m "$2")
  [[ -s $bundle ]] || fail "$bundle: no bundle"
  mkdir -p "$dir"
  tar -C "$dir" -xJf "$bundle" || fail "$bundle: not a bundle of carry.sh pack"
  # Open MPI finds its components and settings at the paths it was built with.
  tar -C "$dir/sys" -cf - . | tar -C / --no-overwrite-dir -xf -
  local loader="$dir/lib/ld-linux-x86-64.so.2 --library-path $dir/lib"
  cat > "$dir/env.sh" <<EOF
# Made by bench/ranks/carry.sh unpack: source it before bench/ranks/scaling.sh run $dir/work.
export HOME=\${HOME:-/root} OMPI_MCA_plm=isolated OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# scree-solve's default, set here: without it scree-solve sets it and runs itself again from
# /proc/self/exe, which under the loader is the loader, and fails.
export OMP_WAIT_POLICY=\${OMP_WAIT_POLICY:-passive}
export LOADER="$loader"
export SOLVE="$loader $dir/bin/scree-solve" PATH="\$PATH:$dir/bin"
export MPIRUN="$loader ${launchers[0]} --bind-to core"
EOF
  echo "carry.sh: unpacked in $dir; source $dir/env.sh, then bench/ranks/scaling.sh run $dir/work"
}

case $1 in
  pack) pack "$2" "$3" ;;
  unpack) unpack "$2" "$3" ;;
  *) usage ;;
esac
