#!/usr/bin/env python3
"""A/B of two builds' Google Benchmark programs on one machine: runs each program of build A, then
the same program of build B, round after round (A, B, A, B, ...), one repetition per run, so that a
change of machine load hits both alike. Prints, per benchmark both builds have, the median real
time of each side over the rounds, B / A, each side's spread (max / min over the rounds) and a
verdict: "slower" only when B's fastest round is slower than A's slowest (the ranges do not overlap),
"faster" the other way round, else "same" (within the noise).

  python3 tools/bench/ab_bench.py --a OLD_BUILD --b NEW_BUILD [--rounds 5] [--min-time 0.3]
      [--programs bench_vmd,bench_pmd,bench_pmx,bench_eval,bench_skin] [--filter REGEX] [--json out.json]

A and B are build folders holding the programs (searched below them, as scripts/bench.sh does).
A program missing from either side is skipped with a note. Take an otherwise idle machine.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile


def find_program(build: str, name: str):
    for root, _dirs, files in os.walk(build):
        if name in files:
            path = os.path.join(root, name)
            if os.access(path, os.X_OK):
                return path
    return None


def run_once(program: str, min_time: float, bench_filter: str) -> dict:
    """{benchmark name: real time in ns} of one run of `program` (one repetition each)."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run([program, f"--benchmark_min_time={min_time}", f"--benchmark_out={out.name}",
                        "--benchmark_out_format=json", f"--benchmark_filter={bench_filter}"], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        data = json.load(open(out.name))
    scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
    return {b["name"]: b["real_time"] * scale[b.get("time_unit", "ns")]
            for b in data["benchmarks"] if b.get("run_type", "iteration") == "iteration"}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True, help="build folder before the change")
    ap.add_argument("--b", required=True, help="build folder after the change")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--min-time", type=float, default=0.3, help="--benchmark_min_time of every run (s)")
    ap.add_argument("--programs", default="bench_vmd,bench_pmd,bench_pmx,bench_eval,bench_skin")
    ap.add_argument("--filter", default=".", help="--benchmark_filter of every run (a regex)")
    ap.add_argument("--json", help="write the raw times here")
    args = ap.parse_args()
    raw: dict = {}
    for name in args.programs.split(","):
        pa, pb = find_program(args.a, name), find_program(args.b, name)
        if not pa or not pb:
            print(f"note: {name} missing in {'A' if not pa else 'B'}; skipped", file=sys.stderr)
            continue
        times = {"A": {}, "B": {}}
        for r in range(args.rounds):
            for side, prog in (("A", pa), ("B", pb)):
                print(f"[ab] {name} round {r + 1}/{args.rounds} {side}", file=sys.stderr, flush=True)
                for bench, t in run_once(prog, args.min_time, args.filter).items():
                    times[side].setdefault(bench, []).append(t)
        raw[name] = times
    rows = []
    print("| benchmark | A median | B median | B / A | A max/min | B max/min | verdict |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, times in raw.items():
        for bench in times["A"]:
            a, b = times["A"][bench], times["B"].get(bench)
            if not b:
                continue
            ma, mb = statistics.median(a), statistics.median(b)
            verdict = "slower" if min(b) > max(a) else "faster" if max(b) < min(a) else "same"
            rows.append((bench, ma, mb, verdict))
            print(f"| {name}/{bench} | {fmt(ma)} | {fmt(mb)} | {mb / ma:.3f} | {max(a) / min(a):.3f} | "
                  f"{max(b) / min(b):.3f} | {verdict} |")
    counts = {v: sum(r[3] == v for r in rows) for v in ("same", "faster", "slower")}
    print(f"\n{len(rows)} benchmarks: {counts['same']} within the noise, {counts['faster']} faster, "
          f"{counts['slower']} slower (ranges over {args.rounds} alternated rounds not overlapping)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(raw, f, indent=1)
    return 0


def fmt(ns: float) -> str:
    for unit, div in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= div:
            return f"{ns / div:.3g} {unit}"
    return f"{ns:.3g} ns"


if __name__ == "__main__":
    sys.exit(main())
