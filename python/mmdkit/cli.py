"""``python3 -m mmdkit dataset`` (also reached as ``mmdkit dataset`` from the C++ tool).

    mmdkit dataset MODEL MOTION... -o out.npz|FOLDER [--joints smpl24 | --bones a,b] [--fps 30]
                   [--frames 0-300:1] [--units mmd|m] [--scale 0.08] [--morphs] [--no-ik]
                   [--workers N | --scheduler ADDRESS] [--force] [-q]

Exit codes (docs/CONVENTIONS.md): 0 every motion extracted, 1 a motion failed (the others are
written, each failure is printed with its error) or the output could not be written, 2 usage.
"""
from __future__ import annotations

import argparse
import sys
from typing import List, Optional

import numpy as np

from .errors import ArgumentError, Error


def _frames(text: str) -> np.ndarray:
    """'0,15,30' or 'A-B:STEP' (inclusive, as `mmdkit sample --frames`)."""
    out: List[float] = []
    for part in text.split(","):
        if "-" in part[1:]:
            rng, _, step = part.partition(":")
            a, _, b = rng.partition("-") if not rng.startswith("-") else ("", "", "")
            a, b, s = float(a), float(b), float(step) if step else 1.0
            if not s > 0 or b < a:
                raise ValueError(part)
            n = int(np.floor((b - a) / s + 1e-9)) + 1
            out.extend(a + s * np.arange(n))
        else:
            out.append(float(part))
    return np.asarray(out, dtype=np.float64)


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # usage errors exit 2 with mmdkit's prefix
        self.print_usage(sys.stderr)
        print(f"mmdkit: error: {message}", file=sys.stderr)
        sys.exit(2)


def dataset_main(argv: Optional[List[str]] = None) -> int:
    p = _Parser(prog="mmdkit dataset",
                description="Evaluate motions on a model and write joint or bone arrays (.npz) for training "
                            "(docs/PYTHON.md). Positions (F,J,3), model-space rotations (F,J,4) [x,y,z,w], "
                            "frames (F,) MMD frame numbers.")
    p.add_argument("model", help="PMD or PMX (or its mmdkit JSON)")
    p.add_argument("motions", nargs="+", metavar="MOTION", help="VMD or VPD files (each extracted on its own)")
    p.add_argument("-o", "--output", required=True, help="out.npz (one file) or a folder (one .npz per motion)")
    sel = p.add_mutually_exclusive_group()
    sel.add_argument("--joints", help="joint set: smpl24")
    sel.add_argument("--bones", help="comma-separated bone names (default: every bone)")
    p.add_argument("--fps", type=float, default=None,
                   help="samples per second (default 30 = every MMD frame); not with --frames")
    p.add_argument("--frames", help="frames for every motion: 0,15,30 or 0-300:1 (default: 0 .. last key at --fps); "
                                    "MMD frames (30 fps), so not with --fps")
    p.add_argument("--units", choices=["mmd", "m"], default="mmd",
                   help="mmd: MMD units, left-handed (default); m: metres, right-handed Y-up")
    p.add_argument("--scale", type=float, default=0.08, help="metres per MMD unit with --units m (default 0.08)")
    p.add_argument("--morphs", action="store_true", help="also morph weights (F,M)")
    p.add_argument("--no-ik", action="store_true", help="switch IK off")
    run = p.add_mutually_exclusive_group()
    run.add_argument("--workers", type=int, default=0, help="run on a local Dask cluster of N processes")
    run.add_argument("--scheduler", help="address of a running Dask scheduler (tcp://host:8786)")
    p.add_argument("--force", action="store_true", help="replace existing outputs")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="do not print warnings (motion tracks that match nothing) or the summary line")
    a = p.parse_args(argv)

    from . import dataset
    try:
        frames = _frames(a.frames) if a.frames else None
    except ValueError:
        p.error(f"bad --frames '{a.frames}' (use e.g. 0,15,30 or 0-300:10)")
    if a.frames and a.fps is not None:
        # --frames lists MMD frames (30 fps) itself: an --fps beside it would be ignored.
        p.error("--fps and --frames exclude each other (--frames lists MMD frames at 30 fps; "
                "e.g. --frames 0-300:2 samples at 15 fps)")
    fps = 30.0 if a.fps is None else a.fps
    if a.workers < 0:
        p.error("--workers must be >= 0")
    kw = dict(frames=frames, fps=fps, joints=a.joints, bones=a.bones.split(",") if a.bones else None,
              units=a.units, scale=a.scale, morphs=a.morphs, ik=not a.no_ik)
    try:
        if a.workers or a.scheduler:
            from . import _dask
            try:
                with _dask.client(a.workers, a.scheduler) as client:
                    results = dataset.extract(a.motions, a.model, client=client, **kw)
            except _dask.DaskUnavailable as e:
                print(f"mmdkit: error: {e.message}", file=sys.stderr)
                return 1
        else:
            results = dataset.extract(a.motions, a.model, **kw)
    except ArgumentError as e:
        print(f"mmdkit: error: {e}", file=sys.stderr)
        return 2
    if not a.quiet:  # the words of `mmdkit sample` (anim::unmatched_messages)
        for r in results:
            for w in r.warnings:
                print(f"mmdkit: warning: {w}", file=sys.stderr)
    failed = [r for r in results if not r.ok]
    for r in failed:
        print(f"mmdkit: error: {r.error}" if isinstance(r.error, Error) else f"mmdkit: error: {r.motion}: {r.error}",
              file=sys.stderr)
    if len(failed) == len(results):
        print("mmdkit: error: no motion could be extracted; nothing written", file=sys.stderr)
        return 1
    try:
        written = dataset._save(results, a.output, a.force, "use --force to replace it")
    except (Error, OSError) as e:
        print(f"mmdkit: error: {e}", file=sys.stderr)
        return 1
    if not a.quiet:
        print(_summary(results, written, a.output, "joints" if a.joints else "bones"), file=sys.stderr)
    return 1 if failed else 0


def _plural(n: int, word: str) -> str:
    return f"{n} {word if n != 1 else word[:-1]}"


def _summary(results, written: List[str], output: str, kind: str) -> str:
    """The summary line of every writing command (cli/progress.hpp summary()):
    "mmdkit dataset: wrote OUTPUT (counts, B bytes)"."""
    import os
    ok = [r for r in results if r.ok]
    motions = _plural(len(ok), "motions") + ("" if len(ok) == len(results) else f" of {len(results)}")
    frames = sum(len(r.frames) for r in ok)
    size = sum(os.path.getsize(w) for w in written)
    where = ", ".join(written) if len(written) <= 3 else f"{len(written)} files in {output}"
    return (f"mmdkit dataset: wrote {where} ({motions}, {_plural(frames, 'frames')} x "
            f"{_plural(len(ok[0].names), kind)}, {size} bytes)")


def main(argv: Optional[List[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: python3 -m mmdkit dataset MODEL MOTION... -o OUT [options]  (see dataset --help)")
        return 0 if argv else 2
    if argv[0] == "_render_farm":  # `mmdkit render --workers/--scheduler` (src/cli/render/render_farm.cpp)
        from .farm import _cli_main
        return _cli_main(argv[1:])
    if argv[0] != "dataset":
        print(f"mmdkit: unknown command '{argv[0]}' (the Python entry has: dataset)", file=sys.stderr)
        return 2
    return dataset_main(argv[1:])
