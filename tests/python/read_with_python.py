"""Reads every scree format with h5py, pyopenvdb and csv, using only docs/formats.md,
and checks the values write_samples.cpp put in. Usage: read_with_python.py DIR"""
import csv
import math
import sys

import h5py
import numpy as np
import pyopenvdb as vdb

d = sys.argv[1]
failures = []


def check(what, ok):
    if not ok:
        failures.append(what)


# State / checkpoint
with h5py.File(f"{d}/checkpoint.h5", "r") as f:
    check("format", f.attrs["format"] == "scree-state")
    check("version", f.attrs["version"] == 1)
    check("kind", f.attrs["kind"] == "checkpoint")
    check("time", f.attrs["time"] == 0.125)
    check("step", f.attrs["step"] == 500)
    check("templates", list(f["templates"].asstr()[:]) == ["a.vdb", "b.vdb"])
    b = f["bodies"]
    i = np.arange(5)
    check("id", b["id"].dtype == np.uint64 and (b["id"][:] == 10 + i).all())
    check("template", b["template"].dtype == np.uint32 and (b["template"][:] == i % 2).all())
    check("scale", (b["scale"][:] == 1 + 0.5 * i).all())
    check("position", (b["position"][:] == np.stack([0.25 * i, 0.5 * i, -0.25 * i], 1)).all())
    q = b["orientation"][:]
    check("orientation shape", q.shape == (5, 4))
    check("orientation w", (q[1] == [0.6, 0, 0.8, 0]).all() and (q[0] == [1, 0, 0, 0]).all())
    check("velocity", (b["velocity"][:, 0] == i).all())
    check("angular_velocity", (b["angular_velocity"][:, 2] == i).all())
    net = f["membranes/net"]
    check("membrane springs", (net["springs"][:] == [[0, 1], [1, 2]]).all())
    check("membrane anchored", list(net["anchored"][:]) == [1, 0, 1])
    check("membrane velocity", net["velocity"][1, 2] == -1)
    s = f["solver"]
    check("rng_state", s.attrs["rng_state"] == "12345")
    check("next_frame_index", s.attrs["next_frame_index"] == 3)
    c = s["contacts"]
    check("contact body_b is the terrain id 2^63", int(c["body_b"][1]) == 2**63)
    check("contact node", list(c["node"][:]) == [5, -1])
    check("contact impulse", (c["impulse"][1] == [4, 5, 6]).all())
    check("tangential displacement", c["tangential_displacement"][1, 0] == 1e-3)

with h5py.File(f"{d}/net.h5", "r") as f:
    check("membrane format", f.attrs["format"] == "scree-membrane")
    check("one membrane", list(f["membranes"].keys()) == ["net"])
    check("membrane stiffness", (f["membranes/net/stiffness"][:] == 100).all())

# Avatar
phi = vdb.read(f"{d}/grain.vdb", "phi")
check("avatar class", phi.gridClass == "level set")
check("avatar format", phi["scree_format"] == "avatar" and phi["scree_version"] == 1)
check("voxel size", abs(phi.transform.voxelSize()[0] - 0.05) < 1e-9
      and phi["voxel_size"] == phi.transform.voxelSize()[0])
check("volume", phi["volume"] == 0.5)
check("inertia", tuple(phi["inertia_per_density"]) == (0.1, 0.2, 0.25))
m = np.array(phi["source_to_body"])
check("source_to_body", m.shape == (4, 4) and m[0, 3] == 1 and m[2, 3] == 3 and m[1, 1] == 0.001)
check("negative inside", phi.getConstAccessor().getValue((0, 0, 0)) < 0)
check("positive outside", phi.getConstAccessor().getValue((20, 0, 0)) > 0)
n = phi["node_count"]
box = np.zeros((math.ceil(n / 64), 8, 8, 3), dtype=np.float32)
vdb.read(f"{d}/grain.vdb", "nodes").copyToArray(box, ijk=(0, 0, 0))
nodes = box.reshape(-1, 3)[:n]
k = np.arange(100, dtype=np.float32)
expected = np.stack([np.float32(0.001) * k, np.float32(-0.002) * k, np.full(100, 0.5, np.float32)], 1)
check("node count", n == 100)
check("nodes", (nodes == expected).all())

# Shape (before nodes)
s = vdb.read(f"{d}/shape.vdb", "phi")
check("shape format", s["scree_format"] == "shape" and s["scree_version"] == 1)
check("shape scale", s["source_scale"] == 0.001 and s["node_count"] == 0)
check("shape nodes grid", vdb.read(f"{d}/shape.vdb", "nodes").activeVoxelCount() == 0)

# Terrain
t = vdb.read(f"{d}/terrain.vdb", "phi")
check("terrain format", t["scree_format"] == "terrain")
check("crs", t["crs_wkt"] == 'LOCAL_CS["test"]')
check("origin offset", tuple(t["origin_offset"]) == (618049.5, 3996199.5, 1597.25))

# CSV log
with open(f"{d}/log.csv", newline="") as f:
    rows = list(csv.reader(f))
check("csv header", rows[0] == ["time[s]", "kinetic_energy[J]"])
check("csv values", float(rows[2][0]) == 0.5 and float(rows[2][1]) == 1 / 3)

if failures:
    print("FAILED:", ", ".join(failures))
    sys.exit(1)
print("python reader: every format read as docs/formats.md describes")
