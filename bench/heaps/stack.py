"""Stacks copies of a settled heap (a scree checkpoint) into a new initial state, each copy
above the last by the heap's centroid span plus 3 cm, at rest: a deeper heap of the same
grains in the same box, to settle (bench/heaps/run.sh). Ids are renumbered copy by copy.
Usage: stack.py CHECKPOINT.h5 STATE.h5 COPIES"""
import sys

import h5py
import numpy as np

source, target, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
with h5py.File(source, "r") as f:
    bodies = {k: f["bodies"][k][()] for k in f["bodies"]}
    templates = f["templates"][()]
z = bodies["position"][:, 2]
rise = (z.max() - z.min()) + 0.03
ids = bodies["id"].astype(np.uint64)
stacked = {k: [] for k in bodies}
for c in range(copies):
    for k, v in bodies.items():
        v = v.copy()
        if k == "position":
            v[:, 2] += c * rise
        elif k == "id":
            v = ids + np.uint64(c) * ids.max()
        elif k in ("velocity", "angular_velocity"):
            v[:] = 0
        stacked[k].append(v)
with h5py.File(target, "w") as g:
    g.attrs.update({"format": "scree-state", "kind": "state", "step": 0, "time": 0.0, "version": 1})
    group = g.create_group("bodies")
    for k, parts in stacked.items():
        group.create_dataset(k, data=np.concatenate(parts))
    g.create_group("membranes")
    g.create_dataset("templates", data=templates)
print(f"{copies} copies of {len(ids)} grains, {rise:.4f} m apart")
