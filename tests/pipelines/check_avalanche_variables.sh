#!/bin/sh
# pipelines/rock-avalanche/Makefile redoes what a variable changed on the command line needs,
# and nothing else (issue 26). The tools are stand-ins that log their name and write their
# output (-o), so the test checks make's decisions in a second, not the tools.
# Usage: check_avalanche_variables.sh PIPELINE_DIR WORK_DIR
set -eu
pipeline=$1
work=$2
rm -rf "$work" && mkdir -p "$work/bin"
for tool in dem terrain shape pack solve vtk runout plot; do
  cat > "$work/bin/scree-$tool" <<TOOL
#!/bin/sh
echo scree-$tool >> "$work/ran"
out=""
while [ \$# -gt 0 ]; do
  case "\$1" in -o) out=\$2; shift ;; esac
  shift
done
case "\$out" in
  */run) ;;
  *.h5|*.vdb|*.asc|*.tif|*.yaml|*.txt) touch "\$out" ;;
  ?*) mkdir -p "\$out" ;;
esac
case "$tool" in
  solve) mkdir -p "\$(dirname "\$out")/run"; touch "$work/out/valley-flat/run/checkpoint.h5" ;;
  vtk) touch "\$out/grains.pvd" ;;
  runout) touch "\$out/runout.yaml" ;;
  plot) touch "\$out/energy.png" ;;
esac
TOOL
  chmod +x "$work/bin/scree-$tool"
done
# scree-solve takes the case, not -o: its stand-in writes the run's checkpoint itself.
sed -i 's|^out=""|out="'"$work"'/out/valley-flat/run"|' "$work/bin/scree-solve"

run() {  # make with the given variables; prints the tools that ran, in order
  rm -f "$work/ran"
  # Everything but summary.txt, which reads the run's real log.
  make --no-print-directory -s -C "$pipeline" SCREE_BIN="$work/bin" WORK="$work/out" "$@" \
    "$work/out/valley-flat/paraview/grains.pvd" "$work/out/valley-flat/plots/energy.png" >/dev/null
  if [ -f "$work/ran" ]; then tr '\n' ' ' < "$work/ran"; fi
}
expect() {  # expect WHAT RAN -- the tools that must have run, in order
  what=$1; shift
  if [ "$1" != "$2" ]; then echo "FAIL $what: ran '$1', expected '$2'"; exit 1; fi
  echo "ok   $what: $1"
}
expect "first run"         "$(run)"                  "scree-dem scree-terrain scree-shape scree-shape scree-pack scree-solve scree-vtk scree-runout scree-plot "
expect "nothing changed"   "$(run)"                  ""
expect "GRAINS=300"        "$(run GRAINS=300)"       "scree-pack scree-solve scree-vtk scree-runout scree-plot "
expect "GRAINS=300 again"  "$(run GRAINS=300)"       ""
expect "SETTLE=2"          "$(run GRAINS=300 SETTLE=2)" "scree-pack scree-solve scree-vtk scree-runout scree-plot "
expect "DIAMETER"          "$(run GRAINS=300 SETTLE=2 DIAMETER=lognormal:3,0.2)" "scree-pack scree-solve scree-vtk scree-runout scree-plot "
expect "THICKNESS=5"       "$(run GRAINS=300 SETTLE=2 DIAMETER=lognormal:3,0.2 THICKNESS=5)" "scree-pack scree-solve scree-vtk scree-runout scree-plot "
expect "NODES=200"         "$(run GRAINS=300 SETTLE=2 DIAMETER=lognormal:3,0.2 THICKNESS=5 NODES=200)" "scree-shape scree-shape scree-pack scree-solve scree-vtk scree-runout scree-plot "
expect "SLOPE=30"          "$(run GRAINS=300 SETTLE=2 DIAMETER=lognormal:3,0.2 THICKNESS=5 NODES=200 SLOPE=30)" "scree-dem scree-terrain scree-pack scree-solve scree-vtk scree-runout scree-plot "
expect "DURATION=6"        "$(run GRAINS=300 SETTLE=2 DIAMETER=lognormal:3,0.2 THICKNESS=5 NODES=200 SLOPE=30 DURATION=6)" "scree-pack scree-solve scree-vtk scree-runout scree-plot "
expect "ROCK_FRICTION=0.6"  "$(run GRAINS=300 SETTLE=2 DIAMETER=lognormal:3,0.2 THICKNESS=5 NODES=200 SLOPE=30 DURATION=6 ROCK_FRICTION=0.6)" "scree-pack scree-solve scree-vtk scree-runout scree-plot "
expect "all kept"          "$(run GRAINS=300 SETTLE=2 DIAMETER=lognormal:3,0.2 THICKNESS=5 NODES=200 SLOPE=30 DURATION=6 ROCK_FRICTION=0.6)" ""
