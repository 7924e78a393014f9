#!/usr/bin/env python3
"""Whole-process timing for scripts/bench.sh: runs CMD N times (after one untimed run that warms
the page cache) and appends one JSON line to OUTFILE: name, median / min wall ms, median user and
system CPU ms, peak RSS (KB) of the runs, and the 1-minute load average before and after.

Usage: wholeproc.py OUTFILE NAME N CMD [ARGS...]  (stdout of CMD discarded; exit 1 if CMD fails)."""
import json
import os
import statistics
import subprocess
import sys
import time


def main():
    out, name, n, cmd = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    load0 = os.getloadavg()[0]
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)  # warm-up: page cache, dynamic loader
    wall, user, sys_, rss = [], [], [], []
    for _ in range(n):
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        wall.append((time.perf_counter() - t0) * 1e3)
        if os.waitstatus_to_exitcode(status) != 0:
            print(f"wholeproc: {name}: {' '.join(cmd)} failed", file=sys.stderr)
            return 1
        user.append(ru.ru_utime * 1e3)
        sys_.append(ru.ru_stime * 1e3)
        rss.append(ru.ru_maxrss)
    rec = {"name": name, "n": n, "wall_ms": statistics.median(wall), "min_wall_ms": min(wall),
           "user_ms": statistics.median(user), "sys_ms": statistics.median(sys_), "max_rss_kb": max(rss),
           "load": [round(load0, 2), round(os.getloadavg()[0], 2)]}
    with open(out, "a") as f:
        f.write(json.dumps(rec) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
