#!/usr/bin/env python3
# Runs whole-process commands alternately (A, B, A, B, ...) N times each and prints, per command,
# the median and minimum of its CPU time (user + system of the child, from wait4) and wall time.
# For A/B comparisons of two builds on a shared machine where perf has no counters: alternating
# spreads the machine's load over both, CPU time is less disturbed by other processes than wall.
#
#   python3 tools/bench/alternate.py 30 main -- OLD/mmdkit sample ... ';;' branch -- NEW/mmdkit sample ...
#
# The commands' stdout and stderr go to /dev/null. Take the bench lock (docs/BENCHMARKS.md).
import os
import statistics
import sys
import time

args = sys.argv[1:]
if len(args) < 3:
    sys.exit(__doc__ or "usage: alternate.py N LABEL -- CMD... [';;' LABEL -- CMD...]")
n = int(args.pop(0))
cmds = []
cur = None
for a in args:
    if a == ';;':
        cur = None
        continue
    if cur is None:
        cur = [a, []]
        cmds.append(cur)
        continue
    if a == '--' and not cur[1]:
        continue
    cur[1].append(a)
res = {label: ([], []) for label, _ in cmds}
devnull = os.open(os.devnull, os.O_WRONLY)
for _ in range(n):
    for label, argv in cmds:
        t0 = time.perf_counter()
        pid = os.fork()
        if pid == 0:
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            try:
                os.execv(argv[0], argv)
            finally:
                os._exit(127)
        _, status, ru = os.wait4(pid, 0)
        t1 = time.perf_counter()
        if status != 0:
            sys.exit(f"{label}: exit status {status}")
        res[label][0].append((ru.ru_utime + ru.ru_stime) * 1000)
        res[label][1].append((t1 - t0) * 1000)
for label, (cpu, wall) in res.items():
    print(f"{label:28s} cpu median {statistics.median(cpu):7.2f} ms  min {min(cpu):7.2f}   "
          f"wall median {statistics.median(wall):7.2f} ms  min {min(wall):7.2f}  (n={n})")
