"""``python3 -m mmdkit dataset`` (also reached as ``mmdkit dataset`` from the C++ tool).

    mmdkit dataset MODEL MOTION... -o out.npz|FOLDER [--joints smpl24|coco17|h36m17|mediapipe33 | --bones a,b] [--fps 30]
                   [--frames 0-300:1] [--units mmd|m] [--scale 0.08] [--morphs] [--no-ik]
                   [--workers N | --scheduler ADDRESS] [--force] [-q]
    mmdkit dataset MODEL MOTION... --render -o FOLDER [--joints coco17|h36m17|smpl24|mediapipe33]
                   [--camera cam.vmd | --views N] [--seed S] [--backgrounds DIR] [--frames A-B]
                   [--step K] [--size WxH] [--fps F] [--mask] [--depth] [--light-jitter] [...]
                   (docs/DATASET.md)

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
                            "(docs/PYTHON.md). Positions (F,J,3), model-space rotations (F,J,4) [x,y,z,w] "
                            "(bones and smpl24; a keypoint layout has positions only), frames (F,) MMD frame numbers.")
    p.add_argument("model", help="PMD or PMX (or its mmdkit JSON)")
    p.add_argument("motions", nargs="+", metavar="MOTION", help="VMD or VPD files (each extracted on its own)")
    p.add_argument("-o", "--output", required=True, help="out.npz (one file) or a folder (one .npz per motion)")
    sel = p.add_mutually_exclusive_group()
    sel.add_argument("--joints", help="smpl24 (bones: positions and rotations) or a keypoint layout coco17, h36m17, "
                                      "mediapipe33 (points: positions only); with --render the layout drawn: coco17 "
                                      "(default), h36m17, smpl24, mediapipe33")
    sel.add_argument("--bones", help="comma-separated bone names (default: every bone)")
    p.add_argument("--fps", type=float, default=None,
                   help="samples per second (default 30 = every MMD frame); not with --frames")
    p.add_argument("--frames", help="frames for every motion: 0,15,30 or 0-300:1 (default: 0 .. last key at --fps); "
                                    "MMD frames (30 fps), so not with --fps; with --render A-B (inclusive)")
    p.add_argument("--units", choices=["mmd", "m"], default="mmd",
                   help="mmd: MMD units, left-handed (default); m: metres, right-handed Y-up")
    p.add_argument("--scale", type=float, default=0.08, help="metres per MMD unit with --units m (default 0.08)")
    p.add_argument("--morphs", action="store_true", help="also morph weights (F,M)")
    p.add_argument("--no-ik", action="store_true", help="switch IK off")
    r = p.add_argument_group("synthetic images (--render; docs/DATASET.md)")
    r.add_argument("--render", action="store_true",
                   help="draw every frame and write images, COCO keypoint JSON and one .npz per motion into -o FOLDER")
    r.add_argument("--camera", help="camera VMD for every motion (default: the motion's own camera)")
    r.add_argument("--views", type=int, default=0, help="N seeded random cameras around the dancer")
    r.add_argument("--seed", type=int, default=0, help="seed of --views and --backgrounds (default 0)")
    r.add_argument("--backgrounds", metavar="DIR", help="composite a seeded-random image of DIR behind the dancer")
    r.add_argument("--step", type=int, default=1, help="every K-th frame (default 1)")
    r.add_argument("--size", default="512x512", help="WxH pixels (default 512x512)")
    r.add_argument("--mask", action="store_true", help="also masks/…png (255 = the model)")
    r.add_argument("--depth", action="store_true", help="also depth/…npy (float32, MMD units along the view axis)")
    r.add_argument("--occlusion-tolerance", type=float, default=None,
                   help="MMD units a visible joint may lie behind the model's surface (default 1.5)")
    r.add_argument("--msaa", type=int, default=4, help="MSAA samples (default 4)")
    r.add_argument("--no-edge", action="store_true", help="no outlines")
    r.add_argument("--no-shadow", action="store_true", help="no ground shadow or self-shadow")
    r.add_argument("--light-jitter", action="store_true", help="a seeded random light per view")
    r.add_argument("--physics", action="store_true", help="simulate the rigid bodies (default off)")
    run = p.add_mutually_exclusive_group()
    run.add_argument("--workers", type=int, default=0, help="run on a local Dask cluster of N processes")
    run.add_argument("--scheduler", help="address of a running Dask scheduler (tcp://host:8786)")
    p.add_argument("--force", action="store_true", help="replace existing outputs")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="do not print warnings (motion tracks that match nothing) or the summary line")
    a = p.parse_args(argv)

    from . import dataset
    if a.render:
        return _render_main(p, a)
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
        results = _with_client(a, lambda client: dataset.extract(a.motions, a.model, client=client, **kw))
    except ArgumentError as e:
        print(f"mmdkit: error: {e}", file=sys.stderr)
        return 2
    if results is None:
        return 1
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


def _with_client(a, fn):
    """fn(client) on the Dask cluster --workers / --scheduler ask for (fn(None) without them);
    None when Dask is missing or the scheduler cannot be reached (the error printed)."""
    if not (a.workers or a.scheduler):
        return fn(None)
    from . import _dask
    try:
        with _dask.client(a.workers, a.scheduler) as client:
            return fn(client)
    except _dask.DaskUnavailable as e:
        print(f"mmdkit: error: {e.message}", file=sys.stderr)
        return None


def _render_main(p, a) -> int:
    """dataset --render: images, COCO JSON and NPZ (mmdkit.dataset.render)."""
    import os
    from . import dataset
    if a.bones:
        p.error("--render writes joints of a layout (--joints), not --bones")
    if a.morphs:
        p.error("--render writes no morph weights (--morphs is for the arrays)")
    if a.output.lower().endswith(".npz"):
        p.error("--render writes a folder (-o out/): images, coco_LAYOUT.json and one .npz per motion")
    frames = None
    if a.frames:
        lo, sep, hi = a.frames.partition("-")
        try:
            frames = (float(lo), float(hi if sep else lo))
        except ValueError:
            p.error(f"bad --frames '{a.frames}' with --render (use A-B, e.g. 0-300, with --step K)")
    try:
        w, _, h = a.size.lower().partition("x")
        size = (int(w), int(h))
    except ValueError:
        p.error(f"bad --size '{a.size}' (use WxH, e.g. 512x512)")
    if a.workers < 0:
        p.error("--workers must be >= 0")
    kw = dict(joints=a.joints or "coco17", camera=a.camera, views=a.views, seed=a.seed, backgrounds=a.backgrounds,
              frames=frames, step=a.step, fps=30.0 if a.fps is None else a.fps, size=size, mask=a.mask,
              depth=a.depth, units=a.units, scale=a.scale, msaa=a.msaa, edges=not a.no_edge,
              shadows=not a.no_shadow, light_jitter=a.light_jitter, physics=a.physics, ik=not a.no_ik, force=a.force)
    if a.occlusion_tolerance is not None:
        kw["occlusion_tolerance"] = a.occlusion_tolerance
    try:
        result = _with_client(a, lambda client: dataset.render(a.model, a.motions, a.output, client=client, **kw))
    except ArgumentError as e:
        print(f"mmdkit: error: {e}", file=sys.stderr)
        return 2
    except (Error, OSError) as e:
        print(f"mmdkit: error: {e}", file=sys.stderr)
        return 1
    if result is None:
        return 1
    if not a.quiet:
        for w_ in result.warnings:
            print(f"mmdkit: warning: {w_}", file=sys.stderr)
    for m, e in result.errors.items():
        print(f"mmdkit: error: {e}" if isinstance(e, Error) else f"mmdkit: error: {m}: {e}", file=sys.stderr)
    if not result.images:
        print("mmdkit: error: no motion could be rendered; nothing written", file=sys.stderr)
        return 1
    if not a.quiet:
        size_b = sum(os.path.getsize(f) for f in result.files)
        ok = len(a.motions) - len(result.errors)
        print(f"mmdkit dataset: wrote {len(result.files)} files in {a.output} ({_plural(ok, 'motions')}, "
              f"{_plural(result.images, 'images')}, {size_b} bytes)", file=sys.stderr)
    return 1 if result.errors else 0


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
