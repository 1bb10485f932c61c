"""Writes the incline case (case.yaml) and its initial state (state.h5): the block resting on
a plane through the origin tilted by the slope about y (downhill along +x), 0.1 mm above it."""
import argparse
import math
import os

import h5py
import numpy as np

p = argparse.ArgumentParser()
p.add_argument("--slope", type=float, required=True)
p.add_argument("--friction-angle", type=float, required=True)
p.add_argument("--step", type=float, required=True)
p.add_argument("--duration", type=float, required=True)
p.add_argument("--avatar", required=True, help="avatar path (absolute, or relative to the output folder)")
p.add_argument("--out", required=True)
a = p.parse_args()

theta = math.radians(a.slope)
normal = (math.sin(theta), 0.0, math.cos(theta))
os.makedirs(a.out, exist_ok=True)
with open(os.path.join(a.out, "case.yaml"), "w") as f:
    f.write(f"""# Block on a {a.slope}° incline, friction angle {a.friction_angle}° (written by make_case.py)
time:
  step: {a.step}
  duration: {a.duration}
output:
  directory: .
  frame_interval: 0.01
scheme:
  type: impulse
materials:
  - name: rock
    density: 2650
    friction: {math.tan(math.radians(a.friction_angle))!r}
    restitution: 0
templates:
  - name: block
    file: {a.avatar}
    material: rock
initial_state: state.h5
walls:
  - name: incline
    type: plane
    point: [0, 0, 0]
    normal: [{normal[0]!r}, 0, {normal[2]!r}]
    material: rock
""")

half_thickness, gap = 0.05, 1e-4
centre = [(half_thickness + gap) * c for c in normal]
with h5py.File(os.path.join(a.out, "state.h5"), "w") as f:
    f.attrs["format"] = "scree-state"
    f.attrs["version"] = np.int64(1)
    f.attrs["kind"] = "state"
    f.attrs["time"] = 0.0
    f.attrs["step"] = np.int64(0)
    f.create_dataset("templates", data=["block"], dtype=h5py.string_dtype())
    b = f.create_group("bodies")
    b["id"] = np.array([1], dtype=np.uint64)
    b["template"] = np.array([0], dtype=np.uint32)
    b["scale"] = np.array([1.0])
    b["position"] = np.array([centre])
    b["orientation"] = np.array([[math.cos(theta / 2), 0.0, math.sin(theta / 2), 0.0]])
    b["velocity"] = np.zeros((1, 3))
    b["angular_velocity"] = np.zeros((1, 3))
    f.create_group("membranes")
