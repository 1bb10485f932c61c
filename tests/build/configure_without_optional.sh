#!/usr/bin/env bash
# ITK, CGAL, GDAL and MPI switch off cleanly: a fresh configure without them succeeds,
# reports them off, and looks none of them up.
# Usage: configure_without_optional.sh SOURCE_DIR SCRATCH_DIR
set -u
src=$1 scratch=$2
rm -rf "$scratch"
trap 'rm -rf "$scratch"' EXIT
log=$(cmake -S "$src" -B "$scratch" -DSCREE_WITH_MPI=OFF -DSCREE_WITH_ITK=OFF \
        -DSCREE_WITH_CGAL=OFF -DSCREE_WITH_GDAL=OFF -DSCREE_BUILD_TESTS=OFF \
        -DSCREE_BUILD_BENCH=OFF 2>&1) || { echo "$log"; echo "FAIL: configure failed"; exit 1; }
status=0
for dep in MPI ITK CGAL GDAL; do
  grep -Eq -- "-- +$dep +OFF" <<<"$log" || { echo "FAIL: $dep not reported OFF"; status=1; }
done
for var in ITK_DIR CGAL_DIR GDAL_DIR MPI_CXX_COMPILER; do
  grep -Eq "^$var:[A-Z]+=/" "$scratch/CMakeCache.txt" && { echo "FAIL: $var was looked up"; status=1; }
done
[ $status -eq 0 ] && echo "optional dependencies switch off cleanly"
exit $status
