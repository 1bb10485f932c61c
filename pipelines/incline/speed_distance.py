"""Speed against distance slid, from the frames of the incline run, next to the analytic
v = sqrt(2 g d (sin θ − tan φ cos θ)); prints the worst relative error of v² over 0.1–1 m."""
import argparse
import csv
import glob
import math
import os

import h5py
import numpy as np

p = argparse.ArgumentParser()
p.add_argument("run")
p.add_argument("--slope", type=float, required=True)
p.add_argument("--friction-angle", type=float, required=True)
p.add_argument("-o", required=True)
a = p.parse_args()

theta, phi, g = math.radians(a.slope), math.radians(a.friction_angle), 9.81
accel = g * (math.sin(theta) - math.tan(phi) * math.cos(theta))
rows, start = [], None
for name in sorted(glob.glob(os.path.join(a.run, "frame_*.h5"))):
    with h5py.File(name, "r") as f:
        x = np.array(f["bodies/position"][0])
        v = np.array(f["bodies/velocity"][0])
        t = f.attrs["time"]
    start = x if start is None else start
    d = float(np.linalg.norm(x - start))
    analytic = math.sqrt(2 * accel * d) if accel > 0 else 0.0
    rows.append((t, d, float(np.linalg.norm(v)), analytic))

with open(a.o, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["time[s]", "distance[m]", "speed[m/s]", "analytic_speed[m/s]"])
    w.writerows(rows)
if accel > 0:
    errors = [abs(s * s / (2 * accel * d) - 1) for _, d, s, _ in rows if 0.1 <= d <= 1.0]
    print(f"{a.o}: {len(rows)} frames, slid {rows[-1][1]:.3f} m; "
          f"worst |v²/(2 g d (sin θ − tan φ cos θ)) − 1| over 0.1–1 m: {max(errors):.4f}")
else:
    # After it has landed (it starts 0.1 mm above the plane): from 0.1 s to the end.
    landed = next(d for t, d, _, _ in rows if t >= 0.1)
    print(f"{a.o}: {len(rows)} frames; friction holds the block: it moved "
          f"{abs(rows[-1][1] - landed):.3e} m from 0.1 s to the end")
