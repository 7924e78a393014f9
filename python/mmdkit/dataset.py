"""mmdkit.dataset: motions turned into arrays for training, on one machine or a Dask cluster.

    from mmdkit import dataset
    results = dataset.extract(["a.vmd", "b.vmd"], "model.pmx", joints="smpl24", units="m")
    results[0].positions            # (F, 24, 3) float32 metres, right-handed Y-up
    dataset.save(results, "out.npz")

    from distributed import Client, LocalCluster
    with Client(LocalCluster(n_workers=2, threads_per_worker=1)) as client:
        same = dataset.extract(paths, "model.pmx", joints="smpl24", client=client)   # equal bit for bit

Each motion is evaluated on the model with mmdkit.Evaluator (the library's pipeline, no
physics): F frames from 0 to the motion's last key at ``fps`` samples per second (or the
``frames`` given, MMD frame numbers at 30 fps), for ``bones`` (names), a joint set
(``joints="smpl24"``, mmdkit.joints) or the points of a keypoint layout (``joints="coco17"``,
``"h36m17"``, ``"mediapipe33"``: positions only, the joints ``dataset --render`` projects). A file that fails is reported in its result (``error``)
and the others go on; a motion that keys no bone and no morph of the model (a camera motion)
fails so, as ``mmdkit sample`` refuses it (every frame would be the rest pose).

Units and spaces: ``units="mmd"`` (default) keeps MMD's left-handed Y-up model space in MMD
units; ``units="m"`` gives metres (``scale`` metres per MMD unit, 0.08 by default) in a
right-handed Y-up space facing +Z (Z negated; quaternions [-x, -y, z, w]), SMPL's convention.
Rotations are model-space unit quaternions [x, y, z, w].
"""
from __future__ import annotations

import io
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Union

import numpy as np

from .errors import ArgumentError, Error
from .evaluator import Evaluator
from .joints import JOINT_SETS, JointSet, joint_set

__all__ = ["Extraction", "extract", "extract_one", "graph", "save", "render", "RenderResult"]

#: frames evaluated per piece: the pieces' buffers are all the memory used beyond the outputs
CHUNK_FRAMES = 256
# Layouts of keypoints (docs/KEYPOINTS.md) extracted as points: positions only (some joints lie
# between bones or on the face; no joint rotation). smpl24 stays a JointSet (bones, rotations).
KEYPOINT_LAYOUTS = ("coco17", "h36m17", "mediapipe33")


@dataclass
class Extraction:
    """The arrays of one motion (or its error).

    frames (F,) float64 MMD frame numbers; times (F,) float64 seconds; names: joint or bone
    names (J); positions (F,J,3) float32; rotations (F,J,4) float32 [x,y,z,w] model space
    (None for a keypoint layout: coco17, h36m17, mediapipe33 are points; NaN positions for a
    joint the model has no bone for);
    morph_names / morph_weights (F,M) float32 when morphs were asked; units 'mmd' or 'm'.
    error: None, or the mmdkit.Error (or OSError) that stopped this motion.
    warnings: tracks of the motion that match no bone or morph of the model, in words
    (Evaluator.unmatched_messages; ``mmdkit dataset`` prints them)."""
    motion: str
    frames: Optional[np.ndarray] = None
    names: List[str] = field(default_factory=list)
    positions: Optional[np.ndarray] = None
    rotations: Optional[np.ndarray] = None
    morph_names: List[str] = field(default_factory=list)
    morph_weights: Optional[np.ndarray] = None
    units: str = "mmd"
    error: Optional[BaseException] = None
    warnings: List[str] = field(default_factory=list)

    @property
    def times(self) -> Optional[np.ndarray]:
        return None if self.frames is None else self.frames / 30.0

    @property
    def ok(self) -> bool:
        return self.error is None


def _options(frames, fps, bones, joints, units, scale, morphs, ik) -> Dict[str, Any]:
    if bones is not None and joints is not None:
        raise ArgumentError("give bones or joints, not both", "invalid_argument")
    if units not in ("mmd", "m"):
        raise ArgumentError(f"units must be 'mmd' or 'm', not {units!r}", "invalid_argument")
    if not fps > 0:
        raise ArgumentError(f"fps must be > 0, not {fps}", "invalid_argument")
    if not scale > 0:
        raise ArgumentError(f"scale must be > 0 (metres per MMD unit), not {scale}", "invalid_argument")
    # a keypoint layout other than smpl24 (whose joints are bones, with rotations) is points only
    if isinstance(joints, str) and joints not in KEYPOINT_LAYOUTS and joints not in JOINT_SETS:
        raise ArgumentError(f"unknown joints {joints!r} (joint sets: {', '.join(JOINT_SETS)}; keypoint layouts: "
                            f"{', '.join(KEYPOINT_LAYOUTS)})", "invalid_argument")
    js = joints if joints in KEYPOINT_LAYOUTS else joint_set(joints) if joints is not None else None
    f = None if frames is None else np.ascontiguousarray(np.atleast_1d(frames), dtype=np.float64)
    return dict(frames=f, fps=float(fps), bones=None if bones is None else list(bones), joints=js,
                units=units, scale=float(scale), morphs=bool(morphs), ik=bool(ik))


def extract_one(motion, model, opts: Dict[str, Any]) -> Extraction:
    """One motion (a path, or a Motion / Pose object) on ``model``, with options made by
    extract(). Errors are caught into Extraction.error."""
    label = os.fspath(motion) if isinstance(motion, (str, os.PathLike)) else f"<{type(motion).__name__}>"
    try:
        return _extract(label, motion, model, opts)
    except (Error, OSError) as e:
        return Extraction(label, units=opts["units"], error=e)


def _extract(label, motion, model, opts) -> Extraction:
    ev = Evaluator(model, [motion], ik=opts["ik"], geometry=False)
    if ev.keyed_bones == 0 and ev.keyed_morphs == 0:
        # every frame would be the rest pose: the rule and words of `mmdkit sample`
        # (cli/animation_input.hpp refuse_motions_keying_nothing)
        name = os.fspath(model) if isinstance(model, (str, os.PathLike)) else f"<{type(model).__name__}>"
        hint = " (a camera motion: a dataset holds bones and morphs only)" if ev.camera_keys else ""
        raise Error(f"the motion keys no bone or morph of the model '{name}': every frame would be the rest pose{hint}",
                    "invalid_value", label if isinstance(motion, (str, os.PathLike)) else None)
    frames = opts["frames"] if opts["frames"] is not None else ev.frames(opts["fps"])
    if isinstance(opts["joints"], str):  # a keypoint layout: points, as dataset --render's joints3d
        from ._synth import layout_names
        positions = np.ascontiguousarray(ev.keypoints(frames, opts["joints"]), dtype=np.float32)
        weights = None
        if opts["morphs"]:
            weights = np.empty((len(frames), len(ev.morph_names)), np.float32)
            for s in range(0, len(frames), CHUNK_FRAMES):
                e = min(len(frames), s + CHUNK_FRAMES)
                ev.sample_into(frames[s:e], np.zeros(0, np.int32), None, None, None, weights[s:e])
        if opts["units"] == "m":
            positions *= np.float32(opts["scale"])
            positions[..., 2] *= -1
        return Extraction(label, frames, layout_names(opts["joints"]), positions, None,
                          list(ev.morph_names) if weights is not None else [], weights, opts["units"],
                          warnings=ev.unmatched_messages)
    js: Optional[JointSet] = opts["joints"]
    if js is not None:
        used, pos_ix, rot_ix = js.resolve(ev.bone_names)
        names = js.names
        bones = np.asarray(used, dtype=np.int32)
    else:
        bones = ev.bone_indices(opts["bones"])
        names = [ev.bone_names[i] for i in bones]
        pos_ix = rot_ix = None
    nf, nj, nb = len(frames), len(names), len(bones)
    positions = np.empty((nf, nj, 3), np.float32)
    rotations = np.empty((nf, nj, 4), np.float32)
    weights = np.empty((nf, len(ev.morph_names)), np.float32) if opts["morphs"] else None
    if js is None:
        # bones: C++ fills the outputs directly
        ev.sample_into(frames, bones, positions, rotations, None, weights)
    else:
        # joints: pieces of CHUNK_FRAMES frames for the sampled bones, reduced into the outputs
        cp = np.empty((min(nf, CHUNK_FRAMES), nb, 3), np.float32)
        cr = np.empty((min(nf, CHUNK_FRAMES), nb, 4), np.float32)
        single = all(len(ix) == 1 for ix in pos_ix)
        first = np.asarray([ix[0] for ix in pos_ix])
        rix = np.asarray(rot_ix)
        for s in range(0, nf, CHUNK_FRAMES):
            e = min(nf, s + CHUNK_FRAMES)
            n = e - s
            ev.sample_into(frames[s:e], bones, cp[:n], cr[:n], None, None if weights is None else weights[s:e])
            if single:
                positions[s:e] = cp[:n, first]
            else:
                for j, ix in enumerate(pos_ix):
                    positions[s:e, j] = cp[:n, ix[0]] if len(ix) == 1 else cp[:n, ix].mean(axis=1, dtype=np.float32)
            rotations[s:e] = cr[:n, rix]
    if opts["units"] == "m":
        positions *= np.float32(opts["scale"])
        positions[..., 2] *= -1
        rotations[..., 0:2] *= -1
    return Extraction(label, frames, names, positions, rotations,
                      list(ev.morph_names) if weights is not None else [], weights, opts["units"],
                      warnings=ev.unmatched_messages)


def extract_batch(motions: Sequence, model, opts: Dict[str, Any]) -> List[Extraction]:
    """extract_one over several motions (one Dask task: fewer tasks, less scheduling per file)."""
    return [extract_one(m, model, opts) for m in motions]


def graph(motions: Sequence, model, *, batch: int = 1, **options) -> List[Any]:
    """The extraction as a Dask graph: dask.delayed tasks of ``batch`` motions each, in order,
    each computing to a list of Extraction (paths only: tasks run in other processes), for any
    Dask scheduler. Options as extract()."""
    from dask import delayed
    opts = _options(**_defaults(options))
    for m in list(motions) + [model]:
        if not isinstance(m, (str, os.PathLike)):
            raise ArgumentError("a Dask extraction takes paths (objects stay in this process)", "invalid_argument")
    if batch < 1:
        raise ArgumentError(f"batch must be >= 1, not {batch}", "invalid_argument")
    paths = [os.fspath(m) for m in motions]
    return [delayed(extract_batch, pure=False)(paths[i:i + batch], os.fspath(model), opts)
            for i in range(0, len(paths), batch)]


def _defaults(options: Dict[str, Any]) -> Dict[str, Any]:
    allowed = dict(frames=None, fps=30.0, bones=None, joints=None, units="mmd", scale=0.08, morphs=False, ik=True)
    unknown = set(options) - set(allowed)
    if unknown:
        raise TypeError(f"unknown option(s): {', '.join(sorted(unknown))}")
    allowed.update(options)
    return allowed


def extract(motions: Union[Sequence, str, os.PathLike], model, *, frames=None, fps: float = 30.0,
            bones: Optional[Sequence[str]] = None, joints: Union[None, str, JointSet] = None,
            units: str = "mmd", scale: float = 0.08, morphs: bool = False, ik: bool = True,
            client=None, batch: Optional[int] = None) -> List[Extraction]:
    """Arrays per motion, in the order of ``motions`` (see the module docstring).

    motions: paths (VMD, VPD or their JSON) or Motion / Pose objects; model: a path or a model
    object. frames: MMD frame numbers for every motion (default 0 .. the motion's last key at
    ``fps``). bones: bone names (default all) or joints: 'smpl24' or a JointSet (bones: positions and
    rotations), or a keypoint layout 'coco17', 'h36m17', 'mediapipe33' (points: positions only,
    the joints of ``dataset --render`` / Evaluator.keypoints). units: 'mmd' or
    'm' (``scale`` metres per MMD unit, right-handed). morphs: also morph weights. client: a
    dask.distributed.Client: the same extraction as a Dask graph on its workers (paths only);
    the results equal the serial run bit for bit. batch: motions per Dask task (default: about
    four tasks per worker, so that scheduling costs little next to the work)."""
    if isinstance(motions, (str, os.PathLike)):
        motions = [motions]
    motions = list(motions)
    kw = dict(frames=frames, fps=fps, bones=bones, joints=joints, units=units, scale=scale, morphs=morphs, ik=ik)
    if client is None:
        opts = _options(**kw)
        return [extract_one(m, model, opts) for m in motions]
    if batch is None:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        batch = max(1, len(motions) // (4 * workers))
    tasks = graph(motions, model, batch=batch, **kw)
    futures = client.compute(tasks)
    return [r for part in client.gather(futures) for r in part]


def _unique_names(results: Sequence[Extraction]) -> List[str]:
    seen: Dict[str, int] = {}
    out = []
    for r in results:
        stem = os.path.splitext(os.path.basename(r.motion))[0] or "motion"
        n = seen.get(stem, 0)
        seen[stem] = n + 1
        out.append(stem if n == 0 else f"{stem}~{n}")
    return out


def _arrays(r: Extraction) -> Dict[str, np.ndarray]:
    d = {"frames": r.frames, "names": np.asarray(r.names), "positions": r.positions, "units": np.asarray(r.units)}
    if r.rotations is not None:  # none for a keypoint layout
        d["rotations"] = r.rotations
    if r.morph_weights is not None:
        d["morph_names"] = np.asarray(r.morph_names)
        d["morph_weights"] = r.morph_weights
    return d


def save(results: Sequence[Extraction], out: Union[str, os.PathLike], *, force: bool = False) -> List[str]:
    """Writes the successful results: ``out`` ending in .npz = one file, arrays named
    '<motion stem>/<array>' (frames, names, positions, rotations, units, morph_names,
    morph_weights); otherwise a folder with one '<motion stem>.npz' per motion (made when missing;
    the folder of a .npz file must exist). Files are written to a temporary name and renamed; an
    existing file is replaced only with force=True. Raises FileError naming the output (never the
    temporary file). Returns the files written."""
    return _save(results, out, force, "pass force=True to replace it")


def _save(results: Sequence[Extraction], out: Union[str, os.PathLike], force: bool, force_hint: str) -> List[str]:
    """save(); ``force_hint`` ends the 'output exists' message (the CLI says --force)."""
    from .errors import FileError
    out = os.fspath(out)
    ok = [r for r in results if r.ok]
    names = _unique_names(ok)

    def write(path: str, arrays: Dict[str, np.ndarray]) -> None:
        if os.path.exists(path) and not force:
            raise FileError(f"output exists; {force_hint}", "io_error", path)
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise FileError(f"cannot write the output: folder {os.path.dirname(path) or folder} does not exist",
                            "io_error", path)
        buf = io.BytesIO()
        np.savez(buf, **arrays)
        write_bytes_atomic(path, buf.getvalue())

    if out.lower().endswith(".npz"):
        arrays = {f"{n}/{k}": v for n, r in zip(names, ok) for k, v in _arrays(r).items()}
        write(out, arrays)
        return [out]
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        raise FileError(f"cannot make the output folder: {e.strerror or e}", "io_error", out) from None
    written = []
    for n, r in zip(names, ok):
        p = os.path.join(out, f"{n}.npz")
        write(p, _arrays(r))
        written.append(p)
    return written


from ._synth import RenderResult, render, write_bytes_atomic  # noqa: E402  (images + keypoints: docs/DATASET.md)


def __dir__() -> "list[str]":
    """The module's API (``__all__``): what ``dir()`` and tab completion show, not its imports."""
    return sorted(__all__)
