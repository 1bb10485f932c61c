"""The warm-start study's table (bench/heaps/warm_start.sh): for each run folder, the passes a
step (mean and largest over the logged steps) and the floor's load over each 2 ms log
interval against the grains' weight (f_rel.py's, from the run's checkpoint): mean and worst
|F/W - 1|, and the kinetic energy at the end.
Usage: warm_start.py F_REL_PY RUN_FOLDER..."""
import csv
import os
import re
import subprocess
import sys

import numpy as np

f_rel_py, folders = sys.argv[1], sys.argv[2:]
print(f"{'setting':<20} {'passes mean':>11} {'max':>5} {'load error mean':>16} {'worst':>9} {'kinetic end, J':>15}")
for folder in folders:
    summary = subprocess.run([sys.executable, f_rel_py, folder], check=True, capture_output=True, text=True).stdout
    weight = float(re.search(r"weight ([0-9.e+-]+) N", summary).group(1))
    with open(os.path.join(folder, "run", "log.csv")) as f:
        rows = list(csv.DictReader(f))[1:]  # the first row is the checkpoint's step
    time = np.array([float(r["time[s]"]) for r in rows])
    impulse = np.array([float(r["impulse_floor_z[N*s]"]) for r in rows])
    passes = np.array([float(r["passes[1]"]) for r in rows[1:]])
    load = -np.diff(impulse) / np.diff(time) / weight
    error = np.abs(load - 1)
    print(f"{os.path.basename(folder):<20} {passes.mean():>11.1f} {passes.max():>5.0f} {error.mean():>16.2e} "
          f"{error.max():>9.2e} {float(rows[-1]['kinetic[J]']):>15.2e}")
