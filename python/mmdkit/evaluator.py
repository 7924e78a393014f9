"""mmdkit.Evaluator: a model animated by motions, evaluated frame by frame into NumPy arrays.

Built on the library's pipeline (anim::Character, docs/EVALUATION.md "Pipeline"): the same
loading, binding, sampling, morphs, append, IK and skinning as ``mmdkit sample`` and
``mmdkit pose``, so the arrays equal the command's output bit for bit. Spaces and units: MMD's
left-handed Y-up model space, MMD units (about 8 cm), frames at 30 fps (fractional allowed),
quaternions [x, y, z, w], matrices as (4, 4) arrays indexed [row, column] (``M @ [x, y, z, 1]``
transforms a point; the translation is ``M[:3, 3]``; ``mmdkit sample`` writes the same 16 floats
column-major).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Union

import numpy as np

from . import _mmdkit
from .errors import ArgumentError

__all__ = ["Evaluator", "Samples", "Camera", "Posed"]


@dataclass
class Camera:
    """Camera per frame: target (F,3) world space MMD units, rotation (F,3) Euler radians as
    stored, distance (F,) MMD units as stored (negative = in front), fov (F,) degrees
    (vertical), position (F,3) eye position."""
    target: np.ndarray
    rotation: np.ndarray
    distance: np.ndarray
    fov: np.ndarray
    position: np.ndarray


@dataclass
class Samples:
    """What Evaluator.sample returns. F frames, B bones (``bone_names``), M morphs.

    positions (F,B,3) float32: model-space bone positions (the model matrix translation), MMD units;
    rotations (F,B,4) float32: model-space rotations, unit quaternions [x,y,z,w];
    matrices (F,B,4,4) float32: model matrices indexed [row, column] (translation
    matrices[..., :3, 3]), or None when not asked;
    morph_weights (F,M) float32 (None when not asked); camera (Camera or None)."""
    frames: np.ndarray
    bone_names: List[str]
    morph_names: List[str]
    positions: np.ndarray
    rotations: np.ndarray
    matrices: Optional[np.ndarray]
    morph_weights: Optional[np.ndarray]
    camera: Optional[Camera] = None


@dataclass
class Posed:
    """Posed vertices of one frame: positions (V,3) and normals (V,3) float32, model space."""
    frame: float
    positions: np.ndarray
    normals: np.ndarray


def _arg(x):
    if isinstance(x, (str, os.PathLike)):
        return os.fspath(x)
    return x


class Evaluator:
    """A model and its motions, bound once, evaluated at any frames.

    model: a path (PMD, PMX or their mmdkit JSON), a PmdModel, PmxModel or ModelView.
    motions: paths or Motion / Pose objects (VMDs merged per track, the later one winning at
    equal frames; at most one VPD pose, applied over them at every frame).
    physics: simulate the rigid bodies and joints (Bullet, docs/PHYSICS.md): frame F is frame F of a
    simulation run from frame 0 (each sample()/pose() call runs from 0 to its frames), whole frames
    only (ArgumentError otherwise); physics_fps: steps per second, 60, 120 or 240.
    ik: False switches every IK solver off. geometry: False skips vertices and faces (faster to
    load; pose() then raises ArgumentError).
    Errors: the readers' (FormatError, FileError with the file), ArgumentError."""

    def __init__(self, model, motions: Sequence = (), physics: bool = False, ik: bool = True,
                 geometry: bool = True, physics_fps: int = 60):
        if isinstance(motions, (str, os.PathLike)) or not isinstance(motions, Sequence):
            motions = [motions]
        args = [_arg(m) for m in motions]
        self._native = _mmdkit._Evaluator(_arg(model), args, geometry, ik, int(physics_fps) if physics else 0)
        self._labels = [m if isinstance(m, str) else f"<{type(m).__name__}>" for m in args]
        # What a notebook's picture of it draws (render.py): paths only.
        self._render_source = (_arg(model), args) if isinstance(_arg(model), str) and all(isinstance(a, str) for a in args) else None
        self.bone_names: List[str] = self._native.bone_names
        self.morph_names: List[str] = self._native.morph_names

    @property
    def last_frame(self) -> int:
        """Last key frame over every input (0 for a pose alone)."""
        return self._native.last_frame

    @property
    def warnings(self) -> List[dict]:
        """Every warning about the inputs, as ``mmdkit sample`` prints them: the readers' warnings
        of the files read, each with its file; when motions were given that key no bone and no
        morph of the model (a camera motion), a warning that every frame is the rest pose
        (``mmdkit sample`` refuses such motions; mmdkit.dataset fails them); and the tracks that
        match nothing of the model, one dict per kind with code ``"unmatched_tracks"`` and the
        words of ``unmatched_messages`` (its ``file`` the motion's path, ``text`` the whole line).
        Each dict: code, message, file, section, record, offset, text."""
        out = list(self._native.warnings)
        for line in self.unmatched_messages:
            file, message = None, line
            for label in self._labels:  # the line starts with its motion's label
                if line.startswith(label + ": "):
                    file, message = label, line[len(label) + 2:]
                    break
            out.append({"code": "unmatched_tracks", "message": message, "file": file, "section": None,
                        "record": None, "offset": None, "text": line})
        return out

    @property
    def keyed_bones(self) -> int:
        """Bones of the model that the motions (or the pose) key."""
        return self._native.keyed_bones

    @property
    def keyed_morphs(self) -> int:
        """Morphs of the model that the motions (or the pose) key."""
        return self._native.keyed_morphs

    @property
    def camera_keys(self) -> int:
        """Camera keyframes of the motions (the first motion with camera keys)."""
        return self._native.camera_keys

    @property
    def unmatched(self) -> List[tuple]:
        """Tracks that drive nothing: (input index, 'bone' or 'morph', name)."""
        return self._native.unmatched

    @property
    def unmatched_messages(self) -> List[str]:
        """The unmatched tracks in words, one line per kind (bones, then morphs; empty when every
        track matched), naming up to 5 tracks with their file: the warning ``mmdkit sample``
        prints (without its "mmdkit: warning: " prefix), from the same library function."""
        return self._native.unmatched_messages(self._labels)

    def bone_indices(self, bones: Optional[Sequence[Union[str, int]]]) -> np.ndarray:
        """Indices of bones given by name or index (None = all bones). ArgumentError for a name
        the model does not have."""
        if bones is None:
            return np.arange(len(self.bone_names), dtype=np.int32)
        lookup = {}
        for i, n in enumerate(self.bone_names):
            lookup.setdefault(n, i)
        out = []
        for b in bones:
            if isinstance(b, (int, np.integer)):
                out.append(int(b))
            elif b in lookup:
                out.append(lookup[b])
            else:
                raise ArgumentError(f"the model has no bone named {b!r}", "invalid_argument")
        return np.asarray(out, dtype=np.int32)

    def frames(self, fps: float = 30.0) -> np.ndarray:
        """0 .. last_frame at ``fps`` samples per second, as MMD frame numbers (float64)."""
        if not fps > 0:
            raise ArgumentError(f"fps must be > 0, not {fps}", "invalid_argument")
        step = 30.0 / fps
        n = int(np.floor(self.last_frame / step + 1e-9)) + 1
        return np.arange(n, dtype=np.float64) * step

    def sample(self, frames=None, bones=None, *, matrices: bool = True, morphs: bool = True,
               camera: bool = False) -> Samples:
        """Evaluates ``frames`` (MMD frame numbers at 30 fps, fractional allowed, >= 0 (a negative
        frame is an ArgumentError, a ValueError); None = 0 .. last_frame) and returns model-space positions (F,B,3), rotations (F,B,4), matrices
        (F,B,4,4) of ``bones`` (names or indices; None = all), morph weights (F,M) and, when
        asked, the camera. The arrays are allocated once and filled by C++ with the GIL released."""
        f = np.ascontiguousarray(self.frames() if frames is None else np.atleast_1d(frames), dtype=np.float64)
        if f.ndim != 1:
            raise ArgumentError("frames must be one-dimensional", "invalid_argument")
        if not np.all(np.isfinite(f)):
            raise ArgumentError("frames must be finite", "invalid_argument")
        if f.size and f.min() < 0:
            k = int(np.argmin(f))
            raise ArgumentError(f"frame {f[k]!r} (frames[{k}]) is negative: MMD frames start at 0 "
                                "(30 per second)", "invalid_argument")
        idx = self.bone_indices(bones)
        nf, nb, nm = len(f), len(idx), len(self.morph_names)
        pos = np.empty((nf, nb, 3), np.float32)
        rot = np.empty((nf, nb, 4), np.float32)
        mat = np.empty((nf, nb, 4, 4), np.float32) if matrices else None
        mw = np.empty((nf, nm), np.float32) if morphs else None
        cam = Camera(np.empty((nf, 3), np.float32), np.empty((nf, 3), np.float32), np.empty(nf, np.float32),
                     np.empty(nf, np.float32), np.empty((nf, 3), np.float32)) if camera else None
        self._native.sample_into(f, idx, pos, rot, mat, mw,
                                 *(None,) * 5 if cam is None else (cam.target, cam.rotation, cam.distance,
                                                                  cam.fov, cam.position))
        return Samples(f, [self.bone_names[i] for i in idx], list(self.morph_names), pos, rot, mat, mw, cam)

    def sample_into(self, frames: np.ndarray, bones: np.ndarray, positions=None, rotations=None,
                    matrices=None, morph_weights=None) -> None:
        """Low-level form of sample: fills caller-allocated C-contiguous float32 arrays of shapes
        (F,B,3), (F,B,4), (F,B,4,4), (F,M) (None = skip) for float64 frames and int32 bone indices."""
        self._native.sample_into(frames, bones, positions, rotations, matrices, morph_weights,
                                 None, None, None, None, None)

    def keypoints(self, frames, layout: str) -> np.ndarray:
        """The joints of a keypoint layout ('coco17', 'h36m17', 'smpl24', 'mediapipe33') at
        ``frames``: (F, J, 3) float32, model space, MMD units; NaN for a joint the model has no bone
        for (docs/KEYPOINTS.md "Joints on an MMD model": the joints `from-keypoints` reads)."""
        f = np.ascontiguousarray(np.atleast_1d(frames), dtype=np.float64)
        return self._native.keypoints(f, layout)

    def pose(self, frame: float) -> Posed:
        """The posed mesh at ``frame``: vertex positions and normals (V,3) float32, model space,
        MMD units (morphs, bones, IK, skinning; as ``mmdkit pose``)."""
        p, n = self._native.pose(float(frame))
        self._current_frame = float(frame)  # what a notebook's picture of it shows (render.py)
        return Posed(float(frame), p, n)
