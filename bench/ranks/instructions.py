#!/usr/bin/env python3
"""What R ranks execute beyond one rank, a step (bench/ranks/instructions.sh): from the
cachegrind counts of the case on one and on R ranks, each to a short and a long end time,
the instructions of the steps between the two, by function (the R ranks' summed), printed as
one rank's a step, the R ranks' over it, the functions that grow most, and how the largest of
one rank's grow.

  instructions.py DIR R       DIR as instructions.sh KEEP= leaves it
"""
import collections
import glob
import re
import sys

# Code of the MPI library and what it loads (its polls while a rank waits among it), and code
# no symbol names.
MPI_PREFIXES = ("???", "0x", "opal_", "mca_", "ompi_", "pmix", "PMPI_", "MPI_", "__sched_yield", "sched_yield")


def function_counts(path):
    """Instructions by function (the name without its parameters) in one cachegrind file."""
    counts, function = collections.Counter(), None
    with open(path) as lines:
        for line in lines:
            if line.startswith("fn="):
                name = line[3:].strip().replace("(anonymous namespace)", "(anon)")
                function = re.sub(r"\((?!anon\)).*", "", name)
            elif function is not None and line[:1].isdigit():
                fields = line.split()
                if len(fields) >= 2:
                    counts[function] += int(fields[1])
    return counts


def run_counts(folder, name):
    """A run's instructions by function, summed over its ranks, and its steps."""
    counts = collections.Counter()
    paths = sorted(glob.glob(f"{folder}/{name}.*[0-9]")) + glob.glob(f"{folder}/{name}.")
    if not paths:
        sys.exit(f"instructions.py: error: {folder}: no counts of {name}")
    for path in paths:
        counts.update(function_counts(path))
    with open(f"{folder}/{name}.log") as log:
        steps = [int(m.group(1)) for m in re.finditer(r"(\d+) steps to t", log.read())]
    if not steps:
        sys.exit(f"instructions.py: error: {folder}/{name}.log: no steps")
    return counts, steps[-1]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: instructions.py DIR R")
    folder, ranks = sys.argv[1], int(sys.argv[2])
    one_short, one_short_steps = run_counts(folder, "one-short")
    one_long, one_long_steps = run_counts(folder, "one-long")
    many_short, many_short_steps = run_counts(folder, "many-short")
    many_long, many_long_steps = run_counts(folder, "many-long")
    steps = one_long_steps - one_short_steps
    if steps <= 0 or many_long_steps - many_short_steps != steps:
        sys.exit("instructions.py: error: the runs took different steps between the two end times")
    names = set(one_short) | set(one_long) | set(many_short) | set(many_long)
    one = {f: (one_long[f] - one_short[f]) / steps for f in names}
    many = {f: (many_long[f] - many_short[f]) / steps for f in names}
    extra = {f: many[f] - one[f] for f in names}
    total_one, total_extra = sum(one.values()), sum(extra.values())
    mpi = sum(v for f, v in extra.items() if f.startswith(MPI_PREFIXES))
    print(f"{steps} steps: one rank {total_one / 1e9:.3f} G instructions a step; {ranks} ranks together "
          f"{(total_one + total_extra) / 1e9:.3f} G ({100 * total_extra / total_one:+.1f} %)")
    print(f"  of what they add, MPI's own code (its polls while a rank waits among it) {mpi / 1e9:.3f} G, "
          f"the rest {(total_extra - mpi) / 1e9:.3f} G ({100 * (total_extra - mpi) / total_one:+.1f} % of one rank's)")
    print("  the functions that grow most, M instructions a step (one rank's, then the ranks' over it):")
    for f in sorted(names, key=lambda f: -extra[f])[:20]:
        print(f"    {one[f] / 1e6:9.2f}  {extra[f] / 1e6:+9.2f}  {f[:110]}")
    print("  one rank's largest, and the ranks' summed over them:")
    for f in sorted(names, key=lambda f: -one[f])[:12]:
        print(f"    {one[f] / 1e6:9.2f}  x{many[f] / one[f]:.3f}  {f[:110]}")


if __name__ == "__main__":
    main()
