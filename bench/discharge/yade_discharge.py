# Runs YADE's own discharge scene (examples/levelSet/discharge.py, seed 004 §6) unchanged
# except for three settings, then prints one line of results for bench/discharge/vs_yade.sh.
# Usage (from a scratch folder holding the example's files):
#   yade -j1 -n -x yade_discharge.py GRAINS SIMULATED_TIME RESULTS_FILE
# The scene is read from the installed example, not copied: the grain count (nB), the
# number of iterations (nIter, from the simulated time at its Δt = 25 µs) and a run that
# stops after them (the example runs on until stopped and then plots).
import re
import sys
import time

grains, simulated_time, results_file = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
script = open('discharge.py').read()
patches = [
    (r'^nB = 1000$', 'nB = %d' % grains),
    (r'^nIter = 56000 .*$', 'nIter = int(round(%r / O.dt))' % simulated_time),
    (r'^O\.run\(\).*$', 'run_start = time.time(); O.run(nIter, True); run_seconds = time.time() - run_start'),
    (r'^plot\.plot\(\)$', ''),
]
for pattern, replacement in patches:
    script, count = re.subn(pattern, replacement, script, flags=re.M)
    if count != 1:
        sys.exit('yade_discharge.py: error: discharge.py: no single line matches %r (another YADE version?)' % pattern)

start = time.time()
exec(compile(script, 'discharge.py', 'exec'))
wall = time.time() - start

# F_rel as the example records it every 50 iterations; the mean over the last 0.1 s smooths
# the contact chatter of a penalty method (the final sample is given too).
times, f_rel = plot.data['time'], plot.data['fOnWallRel']
tail = [f for t, f in zip(times, f_rel) if t >= times[-1] - 0.1]
with open(results_file, 'w') as out:
    out.write('grains %d\nsimulated_time %.6g\niterations %d\nwall_s %.3f\nrun_s %.3f\nf_rel_last %.6f\nf_rel_mean_last_0.1s %.6f\n'
              'coordination %.4f\nnodes_total %d\ngrid_points_total %d\n'
              % (len(O.bodies) - 5, O.time, O.iter, wall, run_seconds, f_rel[-1], sum(tail) / len(tail), plot.data['zc'][-1], nNtot, nGP))
