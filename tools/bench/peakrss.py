#!/usr/bin/env python3
"""Fallback for /usr/bin/time -v: run CMD, write the child's peak RSS in KB to OUTFILE.
Usage: peakrss.py OUTFILE CMD [ARGS...]  (exit status = CMD's)."""
import resource
import subprocess
import sys

rc = subprocess.call(sys.argv[2:])
kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KB on Linux
with open(sys.argv[1], "w") as f:
    f.write(f"{kb}\n")
sys.exit(rc)
