"""The discharge's summary: F_rel = F_floor / (ρ g Σ V), the load on the floor over the
grains' weight (seed 004 eq. 34), as a mean over the last WINDOW seconds of the log and
over its last row; the kinetic energy left against the potential energy released.
Usage: f_rel.py RUN_FOLDER [--density 2650] [--gravity 9.8] [--window 0.1]
RUN_FOLDER holds case.yaml, run/log.csv and run/checkpoint.h5; the avatars are
../avatars/NAME.vdb for the template names the checkpoint lists."""
import argparse
import csv
import os
import sys

import h5py
import numpy as np
import pyopenvdb

p = argparse.ArgumentParser()
p.add_argument("work")
p.add_argument("--density", type=float, default=2650)
p.add_argument("--gravity", type=float, default=9.8)
p.add_argument("--window", type=float, default=0.1)
a = p.parse_args()

with h5py.File(os.path.join(a.work, "run", "checkpoint.h5"), "r") as f:
    names = [n.decode() if isinstance(n, bytes) else n for n in f["templates"][()]]
    template = np.array(f["bodies/template"])
    scale = np.array(f["bodies/scale"])
    end_time = float(f.attrs["time"])
avatars = os.path.join(a.work, os.pardir, "avatars")


def avatar_volume(path):
    return next(g["volume"] for g in pyopenvdb.readAllGridMetadata(path) if g.name == "phi")


volume = np.array([avatar_volume(os.path.join(avatars, n + ".vdb")) for n in names])
weight = a.density * a.gravity * float(np.sum(volume[template] * scale ** 3))

with open(os.path.join(a.work, "run", "log.csv")) as f:
    rows = list(csv.DictReader(f))
time = np.array([float(r["time[s]"]) for r in rows])
impulse = np.array([float(r["impulse_floor_z[N*s]"]) for r in rows])
kinetic = np.array([float(r["kinetic[J]"]) for r in rows])
potential = np.array([float(r["potential[J]"]) for r in rows])
if time[-1] < a.window:
    sys.exit(f"f_rel.py: error: {a.work}/run/log.csv: ends at t = {time[-1]} s, before the {a.window} s window")
start = int(np.searchsorted(time, time[-1] - a.window - 1e-9))
# The log's impulse is what the grains gave the floor (downwards: negative z).
f_window = -(impulse[-1] - impulse[start]) / (time[-1] - time[start])
f_last = -(impulse[-1] - impulse[-2]) / (time[-1] - time[-2])
print(f"== discharge: {a.work}")
print(f"grains        {len(template)} ({', '.join(f'{n} {int(np.sum(template == k))}' for k, n in enumerate(names))}), "
      f"weight {weight:.6g} N, to t = {end_time:g} s")
print(f"F_rel         {f_window / weight:.4f} (mean over the last {time[-1] - time[start]:.3g} s), "
      f"{f_last / weight:.4f} (last {time[-1] - time[-2]:.3g} s)")
print(f"energy        kinetic at the end {kinetic[-1]:.3g} J of {potential[0] - potential[-1]:.4g} J released "
      f"({kinetic[-1] / (potential[0] - potential[-1]):.2e})")
