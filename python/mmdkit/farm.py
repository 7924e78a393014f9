"""mmdkit.render_farm: ``mmdkit render`` drawn by the workers of a Dask cluster
(docs/RENDER.md "Render farm"; ``mmdkit render ... --workers N | --scheduler ADDR``).

    from distributed import Client, LocalCluster
    with Client(LocalCluster(n_workers=2, threads_per_worker=1)) as client:
        mmdkit.render_farm("out.mp4", "model.pmx", ["dance.vmd"], audio="song.wav", client=client)

How it goes:
1. On the client: the inputs are opened once (a Renderer of 2x2 pixels) for the last frame, whether
   physics is on (as ``render``: on when the model has rigid bodies) and the scene's audio. With
   physics, the simulation runs once here: ``mmdkit bake`` writes the motions plus a key on every
   frame for every physics bone into a VMD in the job's folder, and the workers draw that motion
   with physics off (docs/PHYSICS.md "Bake": the replay differs from the simulation by < 1e-5 units).
2. The frames are cut into ranges (``chunk`` frames each; default about four ranges per worker,
   a video's in whole 2-second GOPs unless that leaves a worker idle), one Dask task each. A worker draws its range
   with a Renderer (kept per worker process for the next range of the same job) into the job's
   folder: one PNG per frame, or one video segment (its own encoder run: it starts on a key frame).
3. On the client: a video's segments are joined by stream copy (no re-encoding; C++
   render::join_video_segments), the audio encoded once over the whole; PNG files are renamed into
   place. Progress on stderr counts the frames drawn across workers (PNG frames as the workers
   publish them, Dask Pub/Sub; video frames as segments end).

Failures: a task that raises is retried (``retries``); a worker process that dies loses its task,
which Dask gives to another worker (up to distributed's ``allowed-failures``). The output is
complete or not written: everything goes to a hidden folder beside the output, renamed into place
at the end, removed on any error. Inputs and output are read and written by path by the workers:
with ``--scheduler`` they must see the same files (a shared filesystem)."""
from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from .errors import ArgumentError, Error

PathLike = Union[str, "os.PathLike[str]"]

__all__ = ["render_farm", "FarmResult"]


@dataclass
class FarmResult:
    """What render_farm() wrote: ``files`` (the video, or the PNG files in frame order), ``frames``
    drawn, ``ranges`` (Dask tasks), ``seconds`` of wall time, ``baked`` (physics baked on the
    client), ``workers`` (the cluster's worker count at the start), ``warnings`` (the inputs'
    warnings as mmdkit.Renderer gives them: textures not found, motion tracks that match nothing,
    a project's files; printed on stderr unless quiet, as `mmdkit render` prints them)."""
    files: List[str]
    frames: int
    ranges: int
    seconds: float
    baked: bool
    workers: int
    warnings: List[Dict[str, Any]] = field(default_factory=list)

    @property
    def frames_per_second(self) -> float:
        return self.frames / max(self.seconds, 1e-9)


# Renderers a worker process keeps between ranges of one job (key: the job's render settings).
_worker_renderers: Dict[str, Any] = {}


def _worker_renderer(spec: Dict[str, Any]):
    from .render import Renderer
    key = json.dumps({k: spec[k] for k in ("source", "motions", "camera", "size", "msaa", "aa", "shadow_map", "background", "edges",
                                          "shadows", "physics", "toon_dir", "fps")}, sort_keys=True)
    r = _worker_renderers.get(key)
    if r is None:
        _worker_renderers.clear()  # one job's renderer at a time (GL memory)
        r = Renderer(spec["source"], spec["motions"], spec["camera"], tuple(spec["size"]), msaa=spec["msaa"],
                     aa=spec["aa"], shadow_map=spec["shadow_map"], background=spec["background"], edges=spec["edges"], shadows=spec["shadows"],
                     physics=spec["physics"], toon_dir=spec["toon_dir"], fps=spec["fps"])
        _worker_renderers[key] = r
    return r


def _inject_fault(spec: Dict[str, Any], index: int) -> None:
    """The tests' fault injection: the first attempt at range `index` fails ('raise': an exception;
    'exit': the worker process dies) once, remembered by a marker file."""
    f = spec.get("_fault")
    if not f or f["range"] != index or os.path.exists(f["marker"]):
        return
    with open(f["marker"], "w") as m:
        m.write(str(os.getpid()))
    if f["mode"] == "exit":
        os._exit(1)
    raise RuntimeError("injected fault (test)")


def _draw_range(spec: Dict[str, Any], index: int, first_index: int, count: int) -> int:
    """One Dask task: output frames first_index .. first_index + count - 1 of the job into its
    folder (PNG files named by frame index, or segment `index`). Returns the frames drawn."""
    _inject_fault(spec, index)
    r = _worker_renderer(spec)
    step = 0.5 if spec["fps"] == 60 else 1.0
    first = spec["first"] + first_index * step
    if spec["kind"] == "png":
        from .render import _write_bytes
        pub = None
        if spec.get("progress"):
            from distributed import Pub
            pub = Pub(spec["progress"])
        for i in range(first_index, first_index + count):
            _write_bytes(os.path.join(spec["job"], f"{i:09d}.png"), r.png(spec["first"] + i * step), True)
            if pub is not None:
                pub.put((index, i - first_index + 1))  # frames of this range drawn so far
    else:
        seg = os.path.join(spec["job"], f"segment{index:06d}.{spec['kind']}")
        r.write(seg, frames=(first, first + (count - 1) * step), force=True)  # no audio: muxed once at the join
    return count


def _cli_path() -> str:
    p = os.environ.get("MMDKIT_CLI") or shutil.which("mmdkit")
    if not p:
        raise Error("physics is baked by the mmdkit tool, which was not found: set MMDKIT_CLI or put mmdkit on PATH",
                    "unsupported")
    return p


def _bake(source: str, motions: Sequence[str], last: float, out: str) -> None:
    """Physics simulated once: `mmdkit bake` of the model and motions, keyed to `last`. A physics
    bone the bake cannot key (a name longer than a VMD's 15 bytes in CP932, which MMD cannot
    bind either) would be drawn without its physics by every worker, unlike the one-process
    render: refused (ArgumentError), naming the bones and what to do instead."""
    cmd = [_cli_path(), "bake", source, *motions, "-o", out, "--frames", f"0-{int(math.ceil(last))}", "--force"]
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise Error(f"physics could not be baked for the farm: {p.stderr.strip() or 'mmdkit bake failed'}",
                    "invalid_value", source)
    for line in p.stderr.splitlines():
        if "cannot be keyed in VMD" in line:  # cli/physics/cmd_bake.cpp's warning
            what = line.split("warning: ", 1)[-1]
            raise ArgumentError(f"the farm draws baked physics, and {what}: the workers would draw them without "
                                "physics. Render in one process (without --workers / workers=), or with "
                                "--no-physics (physics=False)", "unsupported", source)


def _ranges(count: int, workers: int, video: bool, fps: int, chunk: Optional[int]) -> List[Tuple[int, int]]:
    workers = max(1, workers)
    if chunk is None:
        chunk = max(1, math.ceil(count / (4 * workers)))  # about four ranges per worker
        if video:
            # Every segment starts on a key frame: whole GOPs (VideoWriter's key frame every 2 s)
            # add none, unless that leaves a worker idle.
            gop = 2 * fps
            chunk = min(max(gop, gop * round(chunk / gop)), math.ceil(count / workers))
    if chunk < 1:
        raise ArgumentError(f"chunk must be >= 1, not {chunk}")
    return [(s, min(chunk, count - s)) for s in range(0, count, chunk)]


def render_farm(output: PathLike, model_or_scene: PathLike, motions: Union[PathLike, Sequence[PathLike]] = (),
                camera: Optional[PathLike] = None, *, frames: Optional[Tuple[float, float]] = None,
                size: Tuple[int, int] = (1280, 720), msaa: Optional[int] = None, aa: Optional[str] = None,
                shadow_map: Optional[int] = None, background="ffffff", edges: bool = True,
                shadows: bool = True, physics: Optional[bool] = None, toon_dir: Optional[PathLike] = None,
                fps: int = 30, audio: Optional[PathLike] = None, force: bool = False, client=None,
                workers: int = 0, scheduler: Optional[str] = None, chunk: Optional[int] = None, retries: int = 2,
                quiet: bool = False, _fault: Optional[Dict[str, Any]] = None) -> FarmResult:
    """Writes what ``mmdkit render -o OUTPUT`` writes, drawn by Dask workers (module docstring).

    output: "x.mp4" (H.264), "x.webm" (VP9), a pattern "dir/%05d.png" (one PNG per frame, numbered
    from 0) or "x.png" (one frame). model_or_scene, motions, camera, size, aa, msaa, shadow_map, background, edges,
    shadows, physics (None: on when the model has rigid bodies), toon_dir, fps (30 or 60): as
    mmdkit.Renderer; paths only (the workers open them). frames: (first, last) inclusive, default
    0 to the last key (one frame 0 for "x.png"). audio: muxed into a video (default the scene's).
    client: a distributed.Client; else ``workers`` (a local cluster of that many single-threaded
    processes, made and stopped here) or ``scheduler`` (an address). chunk: frames per task.
    retries: times a failing task is tried again. quiet: no progress on stderr.
    With physics: a model file (not a scene file) at fps 30, whole frames (the bake keys whole
    frames). Raises ArgumentError (options), Error (inputs, bake, join, output exists: pass
    force=True), RenderError (no EGL on the client), mmdkit._dask.DaskUnavailable."""
    from . import _dask
    from .render import Renderer, _background
    t0 = time.monotonic()
    if isinstance(motions, (str, os.PathLike)):
        motions = [motions]
    output = os.fspath(output)
    source = os.fspath(model_or_scene)
    motions = [os.fspath(m) for m in motions]
    ext = os.path.splitext(output)[1].lower()
    pattern = "%" in output
    if pattern and ext == ".png":
        kind = "png"
        try:
            output % 0
        except (TypeError, ValueError):
            raise ArgumentError("a frame pattern needs one %d (e.g. frames/%05d.png)") from None
    elif ext in (".mp4", ".webm"):
        kind = ext[1:]
    elif ext == ".png":
        kind = "png"
    else:
        raise ArgumentError("the output must end in .png, .mp4 or .webm, or be a PNG pattern with %d")
    if fps not in (30, 60):
        raise ArgumentError("fps must be 30 or 60")
    if audio and kind == "png":
        raise ArgumentError("audio needs a video output (.mp4 or .webm)")
    if client is None and not workers and not scheduler:
        raise ArgumentError("give client=, workers=N or scheduler=ADDRESS")
    if workers < 0:
        raise ArgumentError("workers must be >= 1")
    _background(background)  # checked here, before any worker starts

    probe = Renderer(source, motions, camera, (2, 2), msaa=1, background=background, edges=edges, shadows=shadows,
                     physics=physics, toon_dir=toon_dir, fps=fps)
    first, last = frames if frames is not None else (0.0, 0.0 if (kind == "png" and not pattern) else float(probe.last_frame))
    first, last = float(first), float(last)
    if not (first >= 0 and last >= first):
        raise ArgumentError("frames must be (first, last) with 0 <= first <= last")
    if kind == "png" and not pattern and last > first:
        raise ArgumentError("a .png output is one frame: use a pattern such as frames/%05d.png for several")
    step = 0.5 if fps == 60 else 1.0
    count = int((last - first) / step + 1e-9) + 1
    baked = probe.physics
    warnings = list(probe.warnings)  # the workers' Renderers read the same inputs: said once, here
    audio = os.fspath(audio) if audio else (probe._native.audio if kind != "png" else "")
    if baked:
        if _is_scene_file(source):
            raise ArgumentError("with physics the farm draws a model file, not a scene (it bakes one model's "
                                "physics): pass physics=False (--no-physics), or bake each model with `mmdkit "
                                "bake` and name the baked motions in the scene")
        if fps != 30 or first != math.floor(first):
            raise ArgumentError("with physics the farm draws whole frames at 30 fps (the bake keys whole frames): "
                                "pass fps=30 (--fps 30) and whole frames, or physics=False (--no-physics)")
    del probe
    if not quiet:
        for w in warnings:
            print(f"mmdkit: warning: {_warning_text(w)}", file=sys.stderr)

    targets = ([output % i for i in range(count)] if pattern else [output])
    if not force:
        for t in targets:
            if os.path.exists(t):
                raise Error("output exists; pass force=True (--force) to replace it", "io_error", t)
    out_dir = os.path.dirname(os.path.abspath(targets[0]))
    for t in targets[:1] + targets[-1:]:
        if not os.path.isdir(os.path.dirname(os.path.abspath(t))):
            raise Error(f"cannot write the output: folder {os.path.dirname(t)} does not exist", "io_error", t)
    job = tempfile.mkdtemp(prefix="." + os.path.basename(targets[0]) + ".farm-", dir=out_dir)
    try:
        spec: Dict[str, Any] = dict(source=os.path.abspath(source), motions=[os.path.abspath(m) for m in motions],
                                    camera=os.path.abspath(camera) if camera else None, size=[int(size[0]), int(size[1])],
                                    msaa=None if msaa is None else int(msaa), aa=aa,
                                    shadow_map=None if shadow_map is None else int(shadow_map), background=background, edges=bool(edges), shadows=bool(shadows),
                                    physics=physics, toon_dir=os.path.abspath(toon_dir) if toon_dir else None,
                                    fps=fps, first=first, kind=kind, job=job, _fault=_fault)
        if baked:
            baked_vmd = os.path.join(job, "baked.vmd")
            _bake(source, motions, last, baked_vmd)
            spec.update(motions=[baked_vmd], physics=False)
        with (_nullcontext(client) if client is not None else _dask.client(workers, scheduler)) as c:
            nworkers = max(1, len(c.scheduler_info().get("workers", {})))
            ranges = _ranges(count, nworkers, kind != "png", fps, chunk)
            _run(c, spec, ranges, count, retries, quiet)
        written = _finish(spec, ranges, targets, output, kind, audio, fps)
    finally:
        shutil.rmtree(job, ignore_errors=True)
    return FarmResult(written, count, len(ranges), time.monotonic() - t0, baked, nworkers, warnings)


class _nullcontext:
    def __init__(self, value):
        self.value = value

    def __enter__(self):
        return self.value

    def __exit__(self, *exc):
        return False


def _is_scene_file(path: str) -> bool:
    """A scene file (docs/SCENE.md): a .json that is not the JSON of a model or motion."""
    if os.path.splitext(path)[1].lower() != ".json":
        return False
    from . import _mmdkit
    try:
        with open(path, "rb") as f:
            return _mmdkit.sniff(f.read(1 << 16)) is None
    except OSError:
        return False


def _warning_text(w: Dict[str, Any]) -> str:
    """A warning dict (mmdkit.Renderer.warnings) in the words `mmdkit render` prints."""
    return str(Error(w.get("message", ""), w.get("code") or "invalid_value", w.get("file") or None,
                     w.get("section") or None, w.get("record"), w.get("offset")))


def _run(client, spec: Dict[str, Any], ranges: List[Tuple[int, int]], count: int, retries: int, quiet: bool) -> None:
    """Submits one task per range and waits for them all; progress on stderr from the workers'
    per-frame messages (Dask Pub/Sub; a range's count is its most frames reported, so a range
    drawn again is not counted twice) and from finished ranges."""
    from distributed import Sub
    token = uuid.uuid4().hex  # task keys and progress topic of this job only
    spec = dict(spec, progress=None if quiet else f"mmdkit-render-{token}")
    sub = None if quiet else Sub(spec["progress"], client=client)
    futures = [client.submit(_draw_range, spec, i, s, n, retries=retries, pure=False, key=f"mmdkit-render-{token}-{i}")
               for i, (s, n) in enumerate(ranges)]
    drawn = [0] * len(ranges)
    t0 = time.monotonic()
    shown = 0  # nothing drawn: nothing to say yet
    last_print = 0.0
    try:
        pending = set(range(len(futures)))
        while pending:
            for i in [i for i in pending if futures[i].done()]:
                drawn[i] = futures[i].result()  # raises the task's error after its retries
                pending.discard(i)
            if sub is not None:
                try:
                    while True:
                        i, n = sub.get(timeout=0.2)
                        drawn[i] = max(drawn[i], n)
                except TimeoutError:  # nothing more for now
                    pass
            else:
                time.sleep(0.2)
            done, now = sum(drawn), time.monotonic()
            if not quiet and done != shown and (now - last_print >= 1.0 or not pending):
                shown, last_print = done, now
                print(f"mmdkit render: {done}/{count} frames drawn by {len(client.scheduler_info().get('workers', {}))} "
                      f"worker(s), {done / max(now - t0, 1e-9):.1f} frames/s", file=sys.stderr, flush=True)
    except BaseException:
        client.cancel(futures)
        raise


def _finish(spec, ranges, targets: List[str], output: str, kind: str, audio: str, fps: int) -> List[str]:
    job = spec["job"]
    if kind == "png":
        # every frame is there before anything is renamed: the output is complete or not written
        files = [os.path.join(job, f"{i:09d}.png") for i in range(len(targets))]
        for f in files:
            if not os.path.exists(f):
                raise Error("a frame of the farm is missing (a worker wrote it elsewhere?)", "io_error", f)
        for f, t in zip(files, targets):
            os.replace(f, t)
        return targets
    from . import _mmdkit
    segments = [os.path.join(job, f"segment{i:06d}.{kind}") for i in range(len(ranges))]
    joined = os.path.join(job, "joined." + kind)
    _mmdkit._join_segments(segments, joined, kind, fps, audio or "")
    os.replace(joined, output)
    return [output]


def _cli_main(argv: List[str]) -> int:
    """``python3 -m mmdkit _render_farm SPEC``: the JSON object `mmdkit render --workers` makes
    (src/cli/render/render_farm.cpp), options already checked there. Exit codes as render."""
    from . import _dask
    from .render import RenderError
    a = json.loads(argv[0])
    try:
        r = render_farm(a["output"], a["source"], a["motions"], a["camera"], frames=a.get("frames"),
                        size=tuple(a["size"]), msaa=a["msaa"], aa=a["aa"], shadow_map=a["shadow_map"], background=a["background"], edges=a["edges"],
                        shadows=a["shadows"], physics=a["physics"], toon_dir=a["toon_dir"], fps=a["fps"],
                        audio=a["audio"], force=a["force"], workers=a["workers"], scheduler=a["scheduler"],
                        quiet=a["quiet"])
    except ArgumentError as e:
        print(f"mmdkit: error: {e}", file=sys.stderr)
        return 2
    except _dask.DaskUnavailable as e:
        print(f"mmdkit: error: {e.message}", file=sys.stderr)
        return 1
    except (Error, RenderError, OSError) as e:
        print(f"mmdkit: error: {e}", file=sys.stderr)
        return 1
    if not a["quiet"]:
        where = r.files[0] if len(r.files) == 1 else f"{r.files[0]} .. {r.files[-1]}"
        print(f"mmdkit render: wrote {where} ({r.frames} frame{'s' if r.frames != 1 else ''}, "
              f"{a['size'][0]}x{a['size'][1]}, {r.seconds:.2f} s at {r.frames_per_second:.1f} frames/s: "
              f"{r.ranges} range(s) on {r.workers} Dask worker(s){', physics baked on the client' if r.baked else ''})",
              file=sys.stderr)
    return 0


def __dir__() -> "list[str]":
    """The module's API (``__all__``), not its imports."""
    return sorted(__all__)
