"""MMD projects (.pmm): read, write, JSON, the project as a scene, and new projects.

    import mmdkit
    p = mmdkit.pmm.read("project.pmm")        # mmdkit.Project; p.models, p.accessories, p.counts
    s = p.scene(folder="UserFile", search_dirs=["Accessory"])   # motions (mmdkit.Motion) and files found
    s["models"][0]["motion"].bone_keys.frames
    q = mmdkit.pmm.create(["miku.pmx"], [["dance.vmd"]], camera="camera.vmd", folder="out")
    q.write("out/project.pmm")

Frames at 30 fps, MMD units, radians for camera and accessory angles in the project
(``rotation_degrees`` where the scene says degrees); paths as stored (Windows paths of the saving
machine) and where they were found (docs/PMM.md "Paths").
"""
from __future__ import annotations

import os as _os
from typing import List, Optional, Sequence, Tuple, Union

from ._mmdkit import Project

__all__ = ["read", "from_bytes", "from_json", "create", "Project"]

PathLike = Union[str, "_os.PathLike[str]"]


def read(path: PathLike, *, encoding: Optional[str] = None, strict: bool = False) -> Project:
    """Reads a project (.pmm). ``encoding`` forces 'cp932' or 'gbk'; ``strict``: bytes after the
    last section are an error. Raises mmdkit.FormatError with the byte offset (a cut file included)."""
    return Project.read(_os.fspath(path), encoding=encoding, strict=strict)


def from_bytes(data: bytes, *, encoding: Optional[str] = None, strict: bool = False) -> Project:
    """Parses the bytes of a project (as read)."""
    return Project.from_bytes(data, encoding=encoding, strict=strict)


def from_json(text: str) -> Project:
    """A project from its lossless JSON (docs/formats/pmm.md "JSON")."""
    return Project.from_json(text)


def create(models: Sequence[PathLike], motions: Sequence[Sequence[PathLike]] = (), *,
           camera: Optional[PathLike] = None, accessories: Sequence[PathLike] = (),
           audio: Optional[PathLike] = None, size: Tuple[int, int] = (1280, 720),
           folder: Optional[PathLike] = None) -> Project:
    """A version-2 project MMD opens (docs/PMM.md "Creating a project"): ``models`` (PMX / PMD
    files), ``motions`` (one list of VMD files per model), ``camera`` (a VMD with camera, light
    and self-shadow keys), ``accessories`` (.x in the world, .vac with its placement and bone on
    the first model), ``audio`` (.wav), ``size`` (width, height), ``folder`` (where it will be
    saved: files below it are stored relative to it). Keys that bind to no bone or morph are
    named in ``.warnings``."""
    f = _os.fspath
    return Project.create([f(m) for m in models], [[f(x) for x in ms] for ms in motions],
                          f(camera) if camera is not None else None, [f(a) for a in accessories],
                          f(audio) if audio is not None else None, tuple(size),
                          f(folder) if folder is not None else None)
