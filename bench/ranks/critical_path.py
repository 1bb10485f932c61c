#!/usr/bin/env python3
"""Replays the ranks of a run on a core each (bench/ranks/critical_path.sh): each rank's work
between MPI calls, as critical_path.c wrote it, on a clock of its own; a message received is
there no sooner than its sender's clock when it was sent plus the latency and its bytes' time;
a collective ends for every rank at the last rank's arrival plus its own latency. Prints the
replayed wall time (the latest rank's clock), each rank's work and waits, and, with
--one-rank T (the work of the same run on one rank), the speed-up and efficiency.

  critical_path.py OUT R [--one-rank T] [--latency s] [--collective-step s] [--bandwidth B/s] [--top N]
                   [--from-meeting TEXT K] [--spread TEXT] [--work-by-place] [--what-if even|overall|no-meetings]

--from-meeting TEXT K counts the wall time, work and waits from the K-th collective whose
place names TEXT on (the first steps' start left out; TEXT as the waits' table names places,
its spaces optional: "Ranks::sum<scree::solver::solve_by_impulses" 4 starts at the second
step's first search of a case of three sweeps a step); --spread TEXT prints, for the work each
rank did between meetings that end at a collective whose place names TEXT, each rank's median
share of the mean and the sum over those meetings of the most less the mean (what they waited), over the whole run, whatever --from-meeting says.
--what-if replays the calls changed, from --from-meeting's meeting on: "even", each rank's
work between two collectives their mean over the ranks (what balance from meeting to meeting
would give); "overall", that mean times the rank's share of all the work (the ranks' overall
unevenness alone); "no-meetings", every collective dropped, the messages between partners kept.
--work-by-place prints, for the places where the ranks' work ended (a collective, a wait, a
probe), each rank's work before them summed (from --from-meeting on where given): the mean, the
least and the most over the ranks, and the rank with the most; a rank that holds more of the
work before one place over the whole run shows there, where the waits' table shows only who
waited.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from code_places import function_at  # noqa: E402


def read(path):
    """A rank's calls, (kind, work, site, fields...) in its order (site -1 for a call that
    does not wait), and its sites' names (by the two callers above the call)."""
    calls, sites = [], {}
    with open(path) as lines:
        for line in lines:
            f = line.split()
            kind = f[0]
            if kind == "site":
                sites[int(f[1])] = " < ".join(function_at(place) for place in f[2:4])
                continue
            work = float(f[1])
            if kind in ("s", "r"):
                calls.append((kind, work, -1, int(f[2]), int(f[3]), int(f[4])))
            elif kind == "p":
                calls.append((kind, work, int(f[2]), int(f[3]), int(f[4])))
            elif kind == "w":
                calls.append((kind, work, int(f[2]), [int(x) for x in f[3:]]))
            elif kind == "c":
                calls.append((kind, work, int(f[2])))
            else:
                sys.exit(f"critical_path.py: error: {path}: a line of kind {kind!r}")
    sites[-1] = "MPI_Finalize"
    return calls, sites


def replay(ranks, latency, collective_latency, bandwidth):
    R = len(ranks)
    clock = [0.0] * R
    work = [0.0] * R
    waited = [0.0] * R
    waited_at = [dict() for _ in range(R)]  # by rank, site: [seconds, calls]

    def wait(r, until, site):
        waited_at[r].setdefault(site, [0.0, 0])[1] += 1
        if until > clock[r]:
            waited[r] += until - clock[r]
            waited_at[r][site][0] += until - clock[r]
            clock[r] = until
    at = [0] * R
    applied = [False] * R  # the current call's work added to the clock
    sent = {}  # (sender, receiver, tag): when each message is there, in order
    received = {}  # (sender, receiver, tag): messages matched so far
    posted = [dict() for _ in range(R)]  # by rank, receive id: (key, index)
    meetings = []  # by collective: the ranks' arrivals
    met = [0] * R  # collectives each rank has reached

    def there(key, index):
        times = sent.get(key)
        return times[index] if times is not None and index < len(times) else None

    progress = True
    while progress:
        progress = False
        for r in range(R):
            calls = ranks[r]
            while at[r] < len(calls):
                call = calls[at[r]]
                if not applied[r]:
                    clock[r] += call[1]
                    work[r] += call[1]
                    applied[r] = True
                kind = call[0]
                if kind == "s":
                    _, _, _, peer, tag, size = call
                    sent.setdefault((r, peer, tag), []).append(clock[r] + latency + size / bandwidth)
                elif kind == "r":
                    _, _, _, peer, tag, rid = call
                    key = (peer, r, tag)
                    index = received.get(key, 0)
                    received[key] = index + 1
                    posted[r][rid] = (key, index)
                elif kind == "p":
                    _, _, site, peer, tag = call
                    key = (peer, r, tag)
                    index = received.get(key, 0)
                    t = there(key, index)
                    if t is None:
                        break
                    received[key] = index + 1
                    wait(r, t, site)
                elif kind == "w":
                    latest, ready = clock[r], True
                    for rid in call[3]:
                        t = there(*posted[r][rid])
                        if t is None:
                            ready = False
                            break
                        latest = max(latest, t)
                    if not ready:
                        break
                    for rid in call[3]:
                        del posted[r][rid]
                    wait(r, latest, call[2])
                else:  # a collective
                    k = met[r]
                    if k == len(meetings):
                        meetings.append([None] * R)
                    if meetings[k][r] is None:
                        meetings[k][r] = clock[r]
                    if any(t is None for t in meetings[k]):
                        break
                    wait(r, max(meetings[k]) + collective_latency, call[2])
                    met[r] += 1
                at[r] += 1
                applied[r] = False
                progress = True
    stuck = [r for r in range(R) if at[r] < len(ranks[r])]
    if stuck:
        sys.exit(f"critical_path.py: error: the replay stops with ranks {stuck} waiting (calls not matched)")
    return clock, work, waited, waited_at


def names(text, site):
    """Whether a place's name holds `text`, spaces left out of both (so that TEXT passes
    through critical_path.sh's REPLAY unquoted)."""
    return text.replace(" ", "") in site.replace(" ", "")


def cut_at(read_ranks, text, k):
    """By rank, its calls up to and including its k-th collective at a place naming `text`."""
    cut = []
    for calls, sites in read_ranks:
        seen = [i for i, c in enumerate(calls) if c[0] == "c" and names(text, sites[c[2]])]
        if len(seen) < k:
            sys.exit(f"critical_path.py: error: fewer than {k} meetings at {text!r}")
        cut.append(calls[:seen[k - 1] + 1])
    return cut


def spread(read_ranks, text):
    """Each rank's median share of the mean work between meetings ending at `text`, and the
    sum over those meetings of the most work less the mean."""
    rows = []
    for calls, sites in read_ranks:
        work, row = 0.0, []
        for c in calls:
            work += c[1]
            if c[0] in ("c", "w", "p"):
                if c[0] == "c" and names(text, sites[c[2]]):
                    row.append(work)
                work = 0.0
        rows.append(row)
    R, n = len(rows), min(map(len, rows))
    shares, over, mean_sum = [[] for _ in rows], 0.0, 0.0
    for k in range(n):
        mean = sum(row[k] for row in rows) / R
        if mean <= 2e-4:  # a meeting with next to no work before it
            continue
        for r in range(R):
            shares[r].append(rows[r][k] / mean)
        over += max(row[k] for row in rows) - mean
        mean_sum += mean
    medians = [sorted(x)[len(x) // 2] if x else 0.0 for x in shares]
    return medians, over, mean_sum, len(shares[0])


def meeting_index(read_ranks, text, k):
    """The place among all collectives (the same on every rank) of the k-th at a place naming
    `text`."""
    calls, sites = read_ranks[0]
    n = seen = 0
    for c in calls:
        if c[0] == "c":
            if names(text, sites[c[2]]):
                seen += 1
                if seen == k:
                    return n
            n += 1
    sys.exit(f"critical_path.py: error: fewer than {k} meetings at {text!r}")


def what_if(read_ranks, kind, first):
    """The ranks' calls as they would be (--what-if), those up to collective `first` (-1: none)
    as they were: "no-meetings" drops every collective but MPI_Finalize, its work carried to the
    next call (the messages between partners kept); "even" sets each rank's work between two
    collectives to their mean over the ranks; "overall" to that mean times the rank's share of
    all the work after `first`, each call of the stretch scaled alike."""
    segments = []  # by rank: its work before each collective, then after the last
    for calls, _ in read_ranks:
        segment, work = [], 0.0
        for c in calls:
            work += c[1]
            if c[0] == "c":
                segment.append(work)
                work = 0.0
        segments.append(segment + [work])
    if len({len(s) for s in segments}) != 1:
        sys.exit("critical_path.py: error: the ranks met at different numbers of collectives")
    R, n = len(segments), len(segments[0])
    mean = [sum(s[j] for s in segments) / R for j in range(n)]
    after = [sum(s[first + 1:]) for s in segments]
    share = [a * R / sum(after) if sum(after) > 0 else 1.0 for a in after]
    changed = []
    for r, (calls, sites) in enumerate(read_ranks):
        out, j, carried = [], 0, 0.0
        for c in calls:
            if kind == "no-meetings":
                if j > first and c[0] == "c" and c[2] != -1:
                    carried += c[1]
                    j += 1
                    continue
                if carried:
                    c = (c[0], c[1] + carried) + tuple(c[2:])
                    carried = 0.0
            elif j > first and segments[r][j] > 0:
                target = mean[j] * (1.0 if kind == "even" else share[r])
                c = (c[0], c[1] * target / segments[r][j]) + tuple(c[2:])
            out.append(c)
            j += c[0] == "c"
        changed.append((out, sites))
    return changed


def work_by_place(read_ranks, starts):
    """By place (its name): each rank's work before its calls at that place, summed from call
    starts[rank] on."""
    by_place = {}
    for r, ((calls, sites), start) in enumerate(zip(read_ranks, starts)):
        work = 0.0
        for c in calls[start:]:
            work += c[1]
            if c[0] in ("c", "w", "p"):
                by_place.setdefault(sites[c[2]], [0.0] * len(read_ranks))[r] += work
                work = 0.0
    return by_place


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", help="the files' prefix: OUT.0 .. OUT.R-1")
    parser.add_argument("ranks", type=int)
    parser.add_argument("--one-rank", type=float, help="the work of the same run on one rank, in seconds")
    parser.add_argument("--latency", type=float, default=1.3e-6,
                        help="a message's latency, in seconds (1.3e-6: a round of the phases' exchange on two ranks here)")
    parser.add_argument("--collective-step", type=float, default=0.53e-6,
                        help="a collective's latency for each halving of the ranks (0.53e-6: an MPI_Allreduce on two "
                             "ranks here)")
    parser.add_argument("--bandwidth", type=float, default=5e9, help="bytes a second a message moves at (5e9)")
    parser.add_argument("--top", type=int, default=10, help="the places where the ranks waited the most listed (10)")
    parser.add_argument("--from-meeting", nargs=2, metavar=("TEXT", "K"),
                        help="count from the K-th collective at a place naming TEXT on")
    parser.add_argument("--spread", metavar="TEXT", help="the ranks' work before the meetings at a place naming TEXT")
    parser.add_argument("--work-by-place", action="store_true",
                        help="each rank's work before each place's calls, summed: mean, least - most")
    parser.add_argument("--what-if", choices=("even", "overall", "no-meetings"),
                        help="replay the calls changed so (after --from-meeting's meeting where given)")
    args = parser.parse_args()
    collective = args.collective_step * max(1, math.ceil(math.log2(args.ranks)))
    read_ranks = [read(f"{args.out}.{r}") for r in range(args.ranks)]
    if args.what_if:
        first = meeting_index(read_ranks, args.from_meeting[0], int(args.from_meeting[1])) if args.from_meeting else -1
        read_ranks = what_if(read_ranks, args.what_if, first)
    ranks = [calls for calls, _ in read_ranks]
    clock, work, waited, waited_at = replay(ranks, args.latency, collective, args.bandwidth)
    start = 0.0
    if args.from_meeting:
        # What the replay of the calls up to that meeting took, taken off.
        before = replay(cut_at(read_ranks, args.from_meeting[0], int(args.from_meeting[1])), args.latency, collective,
                        args.bandwidth)
        start = max(before[0])
        work = [w - b for w, b in zip(work, before[1])]
        waited = [w - b for w, b in zip(waited, before[2])]
        for r in range(args.ranks):
            for site, (seconds, calls) in before[3][r].items():
                waited_at[r][site][0] -= seconds
                waited_at[r][site][1] -= calls
    # The waits by where they were called from, over the ranks (by name: each rank numbers its
    # own sites).
    by_name, calls_by_name = {}, {}
    for r, (_, sites) in enumerate(read_ranks):
        for site, (seconds, calls) in waited_at[r].items():
            by_name.setdefault(sites[site], [0.0] * args.ranks)[r] += seconds
            calls_by_name[sites[site]] = calls_by_name.get(sites[site], 0) + calls
    wall = max(clock) - start
    print(f"replayed on {args.ranks} cores: {wall:.3f} s (latency {args.latency:g} s, collectives {collective:g} s, "
          f"{args.bandwidth:g} B/s){' from ' + ' '.join(args.from_meeting) if args.from_meeting else ''}"
          f"{', what if ' + args.what_if if args.what_if else ''}")
    print(f"  work a rank {min(work):.3f} - {max(work):.3f} s, summed {sum(work):.3f} s; "
          f"waiting {min(waited):.3f} - {max(waited):.3f} s; calls a rank {min(map(len, ranks))} - {max(map(len, ranks))}")
    print("  waits, a rank (mean, least - most; calls a rank), where the rank waited:")
    for name, seconds in sorted(by_name.items(), key=lambda x: -sum(x[1]))[:args.top]:
        print(f"    {sum(seconds) / args.ranks:7.3f} s  {min(seconds):.3f} - {max(seconds):.3f} s  "
              f"{calls_by_name[name] / args.ranks:9.0f}  {name}")
    print(f"  the ranks' mean work {sum(work) / args.ranks / wall:.3f} of the wall time")
    if args.spread:
        medians, over, mean_sum, meetings = spread(read_ranks, args.spread)
        print(f"  before {meetings} meetings at {args.spread}: mean work {mean_sum:.3f} s, the most over it "
              f"{over:.3f} s; each rank's median share: {' '.join(f'{m:.2f}' for m in medians)}")
    if args.work_by_place:
        starts = ([len(cut) for cut in cut_at(read_ranks, args.from_meeting[0], int(args.from_meeting[1]))]
                  if args.from_meeting else [0] * args.ranks)
        print("  work before each place, a rank (mean, least - most, the rank with the most):")
        places = work_by_place(read_ranks, starts)
        for name, seconds in sorted(places.items(), key=lambda x: -sum(x[1]))[:args.top]:
            print(f"    {sum(seconds) / args.ranks:7.3f} s  {min(seconds):.3f} - {max(seconds):.3f} s  "
                  f"rank {seconds.index(max(seconds)):<4d} {name}")
    if args.one_rank and not args.from_meeting:
        speedup = args.one_rank / wall
        print(f"  one rank {args.one_rank:.3f} s: {speedup:.2f} x, efficiency {100 * speedup / args.ranks:.0f} %; "
              f"work summed {sum(work) / args.one_rank:.3f} x one rank's")


if __name__ == "__main__":
    main()
