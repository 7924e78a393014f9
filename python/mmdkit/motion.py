"""Motion tools on mmdkit.Motion objects: the operations of ``mmdkit motion OP`` (docs/MOTION.md),
BVH (docs/BVH.md) and 3D keypoints → VMD (docs/KEYPOINTS.md). Each operation returns a NEW
Motion (the input is not changed) and runs in C++ with the GIL released; the result's bytes are
those the CLI writes for the same operation.

    import mmdkit
    m = mmdkit.read("dance.vmd")
    part = mmdkit.motion.trim(m, 100, 250, exact=True)
    mmdkit.motion.mirror(part).write("mirrored.vmd")
    vmd = mmdkit.motion.from_keypoints(joints, "smpl24", "miku.pmd")   # joints: (F, 24, 3) NumPy
    lips, weights = mmdkit.motion.lipsync("vocals.wav", "miku.pmx")     # weights: (F, 6) NumPy

Frames are VMD frames (30 per second); lengths MMD units. Errors are mmdkit.Error subclasses
(ArgumentError for bad arguments, FormatError and friends naming the place for bad input).
"""
from __future__ import annotations

import os
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _mmdkit
from ._mmdkit import Motion, Pose

_m = _mmdkit.motion
Bvh = _m.Bvh
PathLike = Union[str, "os.PathLike[str]"]
ModelLike = Any  # a path, PmdModel, PmxModel or ModelView

__all__ = ["trim", "shift", "merge", "mirror", "resample", "reduce", "rename", "filter", "to_pose", "from_pose",
           "fit", "read_bvh", "bvh_from_text", "to_bvh", "write_bvh", "from_bvh", "from_keypoints", "lipsync", "Bvh"]


def _model(model: ModelLike) -> Any:
    return os.fspath(model) if isinstance(model, (str, os.PathLike)) else model


def _report(result: Tuple[Motion, Any], report: bool):
    return result if report else result[0]


def trim(motion: Motion, first: int, last: int, *, exact: bool = False, report: bool = False):
    """Frames first..last (``motion trim --frames A-B``): every track keyed at both ends with its
    value there, keys inside kept; ``exact`` also keys every whole frame of the cut segments.
    With ``report=True``: (Motion, dict of key counts and the largest changes measured)."""
    return _report(_m.trim(motion, int(first), int(last), exact), report)


def shift(motion: Motion, by: int, *, clamp: bool = False) -> Motion:
    """Every key's frame + ``by``; a key moved before frame 0 is refused unless ``clamp``."""
    return _m.shift(motion, int(by), clamp)


def merge(a: Motion, b: Motion, *, report: bool = False):
    """Per track; where both key the same frame, B's key wins (``motion merge A B``)."""
    return _report(_m.merge(a, b), report)


def mirror(motion: Motion, *, morph_names: bool = False) -> Motion:
    """Left ↔ right (names, translations, rotations, camera, light); twice = the input's bytes."""
    return _m.mirror(motion, morph_names)


def resample(motion: Motion, *, fps: float = 30.0, every: int = 1) -> Motion:
    """Keys every ``every`` frames at 30 fps from a motion whose frame numbers count at ``fps``."""
    return _m.resample(motion, float(fps), int(every))


def reduce(motion: Motion, *, tol_units: float = 0.01, tol_deg: float = 0.1, tol_weight: float = 0.005,
           report: bool = False):
    """Fewer keys with fitted curves, every whole frame within the tolerances."""
    return _report(_m.reduce(motion, tol_units, tol_deg, tol_weight), report)


def rename(motion: Motion, mapping: Union[Mapping[str, str], Iterable[Tuple[str, str]], PathLike], *,
           merge: bool = False, report: bool = False):
    """Bone, morph and IK names OLD → NEW: a dict, (old, new) pairs, or the path of a map file
    (UTF-8, OLD<TAB>NEW lines, as ``motion rename --map``). A NEW that is the name of another
    track the mapping does not rename away (or two OLDs onto one NEW) would merge two tracks:
    FormatError naming both names, unless ``merge=True`` (a swap A <-> B is fine). With
    ``report=True``: (Motion, the entries that matched nothing)."""
    if isinstance(mapping, (str, os.PathLike)):
        path = os.fspath(mapping)
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", errors="replace")
        try:
            pairs = _m.parse_name_map(text)
        except _mmdkit_error() as e:
            e.file = path
            raise
    elif isinstance(mapping, Mapping):
        pairs = list(mapping.items())
    else:
        pairs = [tuple(p) for p in mapping]
    return _report(_m.rename(motion, pairs, merge), report)


def filter(motion: Motion, *, bones: Optional[Sequence[str]] = None, morphs: Optional[Sequence[str]] = None,
           drop_bones: Sequence[str] = (), drop_morphs: Sequence[str] = (), camera: bool = True, light: bool = True,
           self_shadow: bool = True, property: bool = True, report: bool = False):
    """Keep only ``bones`` / ``morphs`` (None = all), drop ``drop_*`` tracks and the sections
    switched off. With ``report=True``: (Motion, the kept names the motion does not have)."""
    return _report(_m.filter(motion, None if bones is None else list(bones), None if morphs is None else list(morphs),
                             list(drop_bones), list(drop_morphs), camera, light, self_shadow, property), report)


def to_pose(motion: Motion, model: ModelLike, frame: float = 0.0, *, model_file: Optional[str] = None) -> Pose:
    """The key pose of ``motion`` on ``model`` at ``frame`` as a VPD Pose (``motion vpd IN.vmd
    --model``); ``model_file`` names the parent model in the VPD (default: the model path's file
    name)."""
    if model_file is None:
        model_file = os.path.basename(os.fspath(model)) if isinstance(model, (str, os.PathLike)) else ""
    return _m.pose_from_motion(motion, _model(model), float(frame), model_file)


def from_pose(pose: Pose, frame: int = 0) -> Motion:
    """A one-key-per-bone/morph motion on ``frame`` from a VPD Pose (``motion vpd IN.vpd``)."""
    return _m.motion_from_pose(pose, int(frame))


def fit(motion: Motion, source: ModelLike, target: ModelLike, *, legs: bool = True, arms: bool = True,
        report: bool = False):
    """The motion made for ``source`` fitted to ``target``'s proportions (vmd_sizing's leg ratio and
    arm rest angles, docs/MOTION.md "fit")."""
    return _report(_m.fit(motion, _model(source), _model(target), legs, arms), report)


def bvh_from_text(text: str) -> Bvh:
    """Parses BVH text (errors name the line, frame and joint)."""
    return Bvh.from_text(text)


def read_bvh(path: PathLike) -> Bvh:
    """Reads a BVH file (UTF-8)."""
    path = os.fspath(path)
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", errors="replace")
    try:
        return Bvh.from_text(text)
    except _mmdkit_error() as e:
        e.file = path
        raise


def to_bvh(model: ModelLike, motion: Motion, *, first: Optional[int] = None, last: Optional[int] = None,
           scale: float = 1.0, ik: bool = True, names: str = "japanese") -> Bvh:
    """The motion evaluated on ``model`` (IK, append, bone morphs baked) as BVH, frames
    first..last (default 0 .. the last key) — ``convert IN.vmd OUT.bvh --model``. ``names``:
    "japanese" (the bones' names) or "english" (ASCII: the model's English names, MMD's standard
    bones in English, else transliterated; docs/BVH.md "Joint names"), as ``--names``."""
    return _m.bvh_from_motion(_model(model), motion, first, last, float(scale), ik, names)


def write_bvh(bvh: Bvh, path: PathLike, *, force: bool = False, digits: int = 9) -> None:
    """Writes BVH text atomically; an existing file is replaced only with ``force=True``."""
    path = os.fspath(path)
    if os.path.exists(path) and not force:
        from .errors import FileError
        raise FileError("output exists; pass force=True to replace it", "io_error", path)
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        with open(tmp, "wb") as f:
            f.write(bvh.to_text(digits).encode("utf-8"))
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def from_bvh(bvh: Union[Bvh, PathLike], model: ModelLike, *, map: Optional[Union[str, PathLike]] = None,
             scale: float = 0.0, leg_ik: bool = True, report: bool = False):
    """A BVH (object or path) on ``model`` as a VMD Motion (``convert IN.bvh OUT.vmd --model``):
    the automatic joint map unless ``map`` (a map file path) is given; ``scale`` BVH units per MMD
    unit (0 = from the leg lengths)."""
    if not isinstance(bvh, Bvh):
        bvh = read_bvh(bvh)
    map_text = None
    if map is not None:
        with open(os.fspath(map), "rb") as f:
            map_text = f.read().decode("utf-8", errors="replace")
    return _report(_m.motion_from_bvh(bvh, _model(model), map_text, float(scale), leg_ik), report)


def from_keypoints(keypoints: Any, layout: str, model: ModelLike, *, axes: Sequence[str] = ("x", "y", "-z"),
                   scale: float = 0.0, fps: float = 30.0, min_confidence: float = 0.3, smooth: bool = False,
                   min_cutoff: float = 1.5, beta: float = 0.3, leg_ik: bool = True, reduce: bool = True,
                   reduce_deg: float = 0.5, reduce_units: float = 0.02, report: bool = False):
    """3D keypoints → VMD on ``model`` (``mmdkit from-keypoints``): ``keypoints`` a NumPy array
    (F, J, 3) or (F, J, 4) (4th = confidence; NaN = missing, held at the last valid position) in
    the ``layout`` h36m17, coco17, mediapipe33 or smpl24; the other options as the CLI's."""
    a = np.asarray(keypoints, dtype=np.float32)
    if len(axes) != 3:
        from .errors import ArgumentError
        raise ArgumentError(f"axes must have three entries such as ('x', 'y', '-z'), not {tuple(axes)!r}",
                            "invalid_argument")
    return _report(_m.from_keypoints(a, layout, _model(model), list(axes), float(scale), float(fps),
                                     float(min_confidence), smooth, float(min_cutoff), float(beta), leg_ik, reduce,
                                     float(reduce_deg), float(reduce_units)), report)


def lipsync(source: Any, model: ModelLike, *, sample_rate: Optional[float] = None,
            map: Optional[Union[Mapping[str, str], PathLike]] = None, closed_morph: Optional[str] = None,
            gain: float = 1.0, smooth: float = 1.0, blend: float = 0.3, lead_ms: float = 50.0, fps: float = 30.0,
            tol_weight: float = 0.03, report: bool = False):
    """Mouth morphs of ``model`` keyed from a voice or a score (``mmdkit motion lipsync``,
    docs/LIPSYNC.md). ``source``: a score file (.ust, .vsqx, .vsq3, .lab), an audio file (any
    format FFmpeg reads; the separated vocals), or a 1-D NumPy array of mono samples (-1..1) with
    ``sample_rate``. ``map``: {shape: morph name} (shapes a i u e o closed) or a map file; default:
    the model's あ い う え お / a i u e o morphs. Returns (Motion, weights): weights a float32
    NumPy array (frames, 6), columns a i u e o closed, one row per frame at ``fps``; with
    ``report=True`` also a dict (audio: voiced frames, ``voice_energy_fraction``, ``poor``,
    ``silent``, formant medians; score: notes and warnings)."""
    samples = None
    path = None
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
    else:
        samples = np.ascontiguousarray(np.asarray(source, dtype=np.float32))
        if sample_rate is None:
            from .errors import ArgumentError
            raise ArgumentError("sample_rate is required with samples", "invalid_argument")
    map_text = None
    if isinstance(map, Mapping):
        map_text = "".join(f"{k}\t{v}\n" for k, v in map.items())
    elif map is not None:
        with open(os.fspath(map), encoding="utf-8") as f:
            map_text = f.read()
    motion, weights, rep = _m.lipsync(path, samples, float(sample_rate or 16000.0), _model(model), map_text,
                                      closed_morph, float(gain), float(smooth), float(blend), float(lead_ms),
                                      float(fps), float(tol_weight))
    return (motion, weights, rep) if report else (motion, weights)


def _mmdkit_error():
    from .errors import Error
    return Error


def __dir__() -> "list[str]":
    """The module's API (``__all__``): what ``dir()`` and tab completion show, not its imports."""
    return sorted(__all__)
