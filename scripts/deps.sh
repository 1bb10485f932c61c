#!/usr/bin/env bash
# Installs every Debian package that scree's build, tests, benchmarks and demo need.
# Idempotent: when all packages are present it only checks and exits (well under a second).
# Works as root, or through sudo otherwise.
set -euo pipefail

packages=(
  # toolchain
  g++ make cmake pkg-config
  # core libraries
  libopenvdb-dev libboost-iostreams-dev libtbb-dev libblosc-dev
  libeigen3-dev libhdf5-dev libyaml-cpp-dev
  libopenmpi-dev openmpi-bin
  libgtest-dev libgmock-dev libbenchmark-dev
  # ParaView files (VTK's XML writers)
  libvtk9-dev
  # optional libraries (SCREE_WITH_ITK, SCREE_WITH_CGAL, SCREE_WITH_GDAL)
  libinsighttoolkit5-dev libcgal-dev libgdal-dev
  # gdalinfo: tests read deposit maps back as a GIS user would
  gdal-bin
  # a virtual display for scree-plot's off-screen rendering on headless machines
  xvfb xauth
  # tests that read scree's files from Python, as a user would from docs/formats.md
  python3 python3-numpy python3-h5py python3-openvdb
  # GNU time: peak memory of the benchmark runs (bench/)
  time
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  echo "deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "deps: installing ${missing[*]}"
if ((EUID == 0)); then
  sudo=()
elif command -v sudo >/dev/null; then
  sudo=(sudo)
else
  echo "deps: error: not root and no sudo; install as root: apt-get install ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
