#!/usr/bin/env python3
"""How unevenly R ranks' work falls between the step's meetings (bench/ranks/imbalance.sh):
from each rank's callgrind files, one for each end of a contact search, a resolution of
collisions and a resting solve across the ranks, the instructions each rank executed between
two such ends, less those in MPI's library and what it loads (its polls while the rank waits
there) and in the wrapper that paces the ranks. For each stretch, named by the ends it lies
between (the phases, or the functions imbalance.sh's ENDS adds): how often it came, its share of
the work, and the busiest rank's excess over the mean, summed over the run, in per cent of
the stretch's work and of all the work (what the ranks wait at its end, on cores of equal
speed); and the busiest rank's share over the whole run against the mean.

  imbalance.py DIR R       DIR as imbalance.sh KEEP= leaves it
"""
import glob
import re
import statistics
import sys

# The objects of the MPI library and what it loads, and the wrapper that paces the ranks
# (critical_path.c).
MPI_OBJECTS = re.compile(r"libcritical_path|openmpi|libmpi|libopen-(pal|rte)|mca_|libhwloc|libevent|libpmix|libuc[pst]|libfabric|libpsm")
PHASE = re.compile(r"--dump-after=scree::solver::([\w:]+)\(")
NAMES = {"find_contacts": "contact search", "resolve_collisions_across_ranks": "collisions",
         "rest_across_ranks": "resting solve"}


def read_part(path):
    """A callgrind file's trigger, and its instructions outside MPI's objects."""
    trigger, objects, current, instructions, call_cost = "", {}, "", 0, False
    with open(path) as lines:
        for line in lines:
            head = line[:1]
            if head.isdigit() or head in "+-*":
                if call_cost:  # the cost of a call, counted where it was spent
                    call_cost = False
                elif not MPI_OBJECTS.search(current):
                    fields = line.split()
                    if len(fields) >= 2:
                        instructions += int(fields[1])
            elif line.startswith(("ob=", "cob=")):
                match = re.match(r"c?ob=\((\d+)\)(?: (.*))?", line.strip())
                name = line.split("=", 1)[1].strip()
                if match:
                    if match.group(2):
                        objects[match.group(1)] = match.group(2)
                    name = objects.get(match.group(1), "")
                if line.startswith("ob="):
                    current = name
            elif line.startswith("calls="):
                call_cost = True
            elif line.startswith("desc: Trigger:"):
                trigger = line
    return trigger, instructions


def rank_stretches(folder, rank):
    """A rank's stretches: (the phase it ends with, its instructions), the start left out."""
    paths = sorted(glob.glob(f"{folder}/calls.{rank}.*"), key=lambda p: int(p.rsplit(".", 1)[1]))
    if not paths:
        sys.exit(f"imbalance.py: error: {folder}: no callgrind files of rank {rank}")
    stretches, last, phase, extra = [], "start", "start", 0
    for path in paths:
        trigger, instructions = read_part(path)
        match = PHASE.search(trigger)
        if not match:
            sys.exit(f"imbalance.py: error: {path}: not written at the end of a phase")
        if match.group(1) in NAMES:
            end = phase = NAMES[match.group(1)]
            extra = 0
        else:  # one of ENDS: named by its place after the last phase's end
            extra += 1
            end = f"{match.group(1)} {extra} after {phase}"
        if last != "start" and phase != "start":  # not the run's start: reading the case, the first hand-over
            stretches.append((f"{last} → {end}", instructions))
        last = end if phase != "start" else "start"
    return stretches


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    folder, ranks = sys.argv[1], int(sys.argv[2])
    runs = [rank_stretches(folder, r) for r in range(ranks)]
    count = len(runs[0])
    if any(len(run) != count or [s[0] for s in run] != [s[0] for s in runs[0]] for run in runs):
        sys.exit("imbalance.py: error: the ranks' phases do not line up")
    table = {}  # by phase: [calls, mean work, busiest over the mean, work by rank]
    for k in range(count):
        work = [run[k][1] for run in runs]
        mean = statistics.mean(work)
        row = table.setdefault(runs[0][k][0], [0, 0.0, 0.0, [0] * ranks])
        row[0] += 1
        row[1] += mean
        row[2] += max(work) - mean
        for r in range(ranks):
            row[3][r] += work[r]
    total = sum(row[1] for row in table.values())
    print(f"{ranks} ranks, {count} stretches; instructions a rank {total / 1e9:.3f} G (MPI's own code left out)")
    width = max(len(name) for name in table)
    print(f"  {'stretch':{width}s}  count   work   busiest over the mean, summed   over the run (busiest / mean)")
    for phase, (calls, mean, over, by_rank) in sorted(table.items(), key=lambda item: -item[1][1]):
        print(f"  {phase:{width}s} {calls:6d} {100 * mean / total:5.1f} %   {100 * over / mean:5.1f} % of it, {100 * over / total:4.1f} % of all"
              f"          {max(by_rank) / statistics.mean(by_rank):.3f}")
    print(f"  all: the busiest rank over the mean at each end, {100 * sum(row[2] for row in table.values()) / total:.1f} % of the work")


if __name__ == "__main__":
    main()
