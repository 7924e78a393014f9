"""mmdkit — MikuMikuDance data (VMD, VPD, PMD, PMX, PMM projects; .x and .vac read-only) for Python, with NumPy arrays.

Conventions (docs/CONVENTIONS.md): lengths in MMD units (about 8 cm), frames at 30 per second,
MMD's left-handed Y-up space (model facing -Z), quaternions [x, y, z, w], angles in radians
unless said otherwise. Bulk data are NumPy arrays that view the C++ records (no copy); names are
``mmdkit.Text``: the decoded ``str`` whose ``.raw`` is the bytes as stored, so writing back is
byte-exact.

    import mmdkit
    motion = mmdkit.read("dance.vmd")            # format sniffed from the bytes
    motion.bone_keys.rotations                   # (n, 4) float32 view
    mmdkit.write(motion, "copy.vmd")             # identical bytes
    model = mmdkit.read("miku.pmd"); model.vertices.positions  # (n, 3)
    s = mmdkit.Evaluator("miku.pmd", ["dance.vmd"]).sample(range(300))   # s.positions (F, B, 3)
    mmdkit.dataset.extract(["dance.vmd"], "miku.pmd", joints="smpl24", units="m")
    mmdkit.motion.mirror(mmdkit.motion.trim(motion, 0, 120))   # motion tools (mmdkit.motion)
    project = mmdkit.pmm.read("project.pmm"); project.scene(folder=".")["models"][0]["motion"]

Errors are mmdkit.Error subclasses carrying code, file, section, record and offset.
"""
from __future__ import annotations

import os as _os
from dataclasses import dataclass
from typing import List, Optional, Union

from . import errors
from .errors import (ArgumentError, EncodingError, Error, FileError, FormatError, JsonError,
                     PendingError)
from ._table import Table
from ._text import Text
from ._mmdkit import (Motion, ModelView, PmdModel, PmxModel, Pose, Project, VacFile, XFile, sniff as _sniff,
                      check_file as _check_file)
from .evaluator import Camera, Evaluator, Posed, Samples
from . import joints
from . import dataset
from . import motion
from . import pmm
from .render import Renderer, RenderError, Animation, Scene, show
from . import render as _render
from .farm import render_farm, FarmResult

__all__ = ["read", "write", "from_json", "check", "Finding", "Motion", "Pose", "PmdModel",
           "PmxModel", "Project", "pmm", "XFile", "VacFile", "ModelView", "Table", "Text", "Evaluator", "Samples", "Posed", "Camera", "dataset", "joints", "motion", "Error", "FileError", "FormatError", "JsonError",
           "EncodingError", "ArgumentError", "PendingError", "errors", "Renderer", "RenderError", "Animation", "Scene", "show",
           "render_farm", "FarmResult"]

__version__ = "0.1.0"

Document = Union[Motion, Pose, PmdModel, PmxModel, Project]
_CLASSES = {"vmd": Motion, "vpd": Pose, "pmd": PmdModel, "pmx": PmxModel, "pmm": Project}
_READ_ONLY = (XFile, VacFile)  # .x and .vac: read and dumped, never written (docs/PYTHON.md)
PathLike = Union[str, "os.PathLike[str]"]


def _class_of(fmt: str):
    return _CLASSES[fmt]


def read(path: PathLike, *, encoding: Optional[str] = None, strict: bool = False) -> Union[Document, XFile, VacFile]:
    """Reads a VMD, VPD, PMD, PMX or PMM file, or mmdkit JSON of one, into its object (Motion, Pose,
    PmdModel, PmxModel or Project), the format sniffed from the bytes; a DirectX .x file (signature
    "xof ") into a read-only XFile and a .vac (by its extension: it has no signature) into a
    read-only VacFile. ``encoding`` forces 'cp932' or 'gbk' for legacy text; ``strict`` makes
    bytes after the last section an error (neither applies to .x / .vac).
    Raises FileError, FormatError (not a known format included) or JsonError."""
    path = _os.fspath(path)
    if path.lower().endswith(".vac"):
        return VacFile.read(path)
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError as e:
        raise FileError(f"cannot read the file: {e.strerror or e}", "io_error", path) from e
    fmt = _sniff(head)
    if fmt is None:
        raise FormatError("not a VMD, VPD, PMD, PMX, PMM or .x file, nor mmdkit JSON", "bad_signature",
                          path, "header", None, 0)
    if fmt == "x":
        return XFile.read(path)
    if fmt in ("x-json", "vac-json"):
        raise FormatError(f"the JSON of a {fmt[:-5]} file is what `mmdkit dump` prints; it is not read back",
                          "unsupported", path, "header", None, 0)
    if fmt.endswith("-json"):
        with open(path, "r", encoding="utf-8") as f:
            text = f.read()
        try:
            return _class_of(fmt[:-5]).from_json(text)
        except Error as e:
            e.file = path
            raise
    obj = _class_of(fmt).read(path, encoding=encoding, strict=strict)
    _render._remember_source(obj, path)  # a model's picture finds its textures (render.py)
    return obj


def write(obj: Document, path: PathLike, *, force: bool = False) -> None:
    """Writes ``obj`` in its own format (``.json`` paths get its lossless JSON) atomically.
    An existing file is replaced only with ``force=True`` (FileError otherwise)."""
    path = _os.fspath(path)
    if isinstance(obj, _READ_ONLY):
        raise ArgumentError(f"{type(obj).__name__} is read-only (mmdkit reads .x and .vac files, it does not write "
                            "them); to_json() gives its dump JSON", "invalid_argument")
    if path.lower().endswith(".json"):
        if _os.path.exists(path) and not force:
            raise FileError("output exists; pass force=True to replace it", "io_error", path)
        tmp = f"{path}.tmp{_os.getpid()}"
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(obj.to_json())
            _os.replace(tmp, path)
        finally:
            if _os.path.exists(tmp):
                _os.remove(tmp)
        return
    obj.write(path, force=force)


def from_json(text: str) -> Document:
    """The object of mmdkit JSON text (its "format" member picks the class)."""
    fmt = _sniff(text.encode("utf-8")[:4096])
    if fmt is None or not fmt.endswith("-json") or fmt not in [f"{k}-json" for k in _CLASSES]:
        raise JsonError('no "format" member naming vmd, vpd, pmd, pmx or pmm', "json_schema", None, "format")
    return _class_of(fmt[:-5]).from_json(text)


@dataclass(frozen=True)
class Finding:
    """A finding of check: severity 'error' or 'warning', a stable code, why, and where
    (section, record index, byte offset when known). ``omitted`` > 0 marks the note that so many
    more findings of that kind were left out."""
    severity: str
    code: str
    message: str
    section: Optional[str] = None
    record: Optional[int] = None
    offset: Optional[int] = None
    file: Optional[str] = None
    omitted: int = 0

    @classmethod
    def _of(cls, d: dict) -> "Finding":
        return cls(d["severity"], d["code"], d["message"], d.get("section"), d.get("record"),
                   d.get("offset"), d.get("file"), d.get("omitted", 0))

    def __str__(self) -> str:
        where = ", ".join(x for x in (f"section '{self.section}'" if self.section else "",
                                      f"record {self.record}" if self.record is not None else "",
                                      f"byte {self.offset}" if self.offset is not None else "") if x)
        return f"{self.severity}: {where + ': ' if where else ''}{self.code}: {self.message}"


def check(obj: Union[Document, PathLike]) -> List[Finding]:
    """The findings of ``mmdkit check``: for a path, the file's (textures resolved in its
    folder); for an object, those of its bytes, with the files it names (a model's textures, a
    project's models) looked up in the folder of the file it was read from (``obj.path``), and
    not looked up when it was made from bytes or JSON."""
    if isinstance(obj, (Motion, Pose, PmdModel, PmxModel, Project) + _READ_ONLY):
        return [Finding._of(d) for d in obj._check()]
    path = _os.fspath(obj)
    if path.lower().endswith(".vac"):  # no signature: by the extension, as the CLI
        return [Finding._of(d) for d in VacFile.read(path)._check()]
    return [Finding._of(d) for d in _check_file(path)]


def _check_method(self) -> List[Finding]:
    """Structural findings of this object (as mmdkit.check(obj); an XFile or VacFile read from a
    file looks its textures / .x up in that file's folder)."""
    return check(self)


for _cls in (Motion, Pose, PmdModel, PmxModel, Project, XFile, VacFile):
    _cls.check = _check_method


def _view_method(self) -> ModelView:
    """The format-neutral model view (mmdkit.ModelView) of this model."""
    return ModelView.of(self)


PmdModel.view = _view_method
PmxModel.view = _view_method


def _repr_motion(self) -> str:
    fr = self.frame_range
    return (f"<mmdkit.Motion {self.version} {self.model_name!r}: {len(self.bone_keys)} bone keys "
            f"({len(self.bone_names)} tracks), {len(self.morph_keys)} morph keys, {len(self.camera_keys)} camera keys"
            f"{f', frames {fr[0]}..{fr[1]}' if fr else ''}>")


def _repr_pose(self) -> str:
    return f"<mmdkit.Pose {self.model_file!r}: {len(self.bone_names)} bones, {len(self.morph_names)} morphs>"


def _repr_model(self) -> str:
    kind = "PmdModel" if isinstance(self, PmdModel) else "PmxModel"
    return (f"<mmdkit.{kind} {self.name!r}: {len(self.vertices)} vertices, {len(self.materials)} materials, "
            f"{len(self.bone_names)} bones, {len(self.morph_names)} morphs>")


def _repr_project(self) -> str:
    c = self.counts
    w, h = self.output_size
    return (f"<mmdkit.Project version {self.version}: {c['models']} models, {c['accessories']} accessories, "
            f"{c['camera_keys']} camera keys, output {w}x{h}{f', {self.path!r}' if self.path else ''}>")


# Notebooks show models and evaluators as pictures (render.py): at rest / at frame 0.
PmdModel._repr_png_ = _render._repr_png_document
PmxModel._repr_png_ = _render._repr_png_document
Evaluator._repr_png_ = _render._repr_png_evaluator

Motion.__repr__ = _repr_motion
Pose.__repr__ = _repr_pose
PmdModel.__repr__ = _repr_model
PmxModel.__repr__ = _repr_model
Project.__repr__ = _repr_project
ModelView.__repr__ = lambda self: (f"<mmdkit.ModelView ({self.source}) {self.name!r}: {len(self.vertices)} vertices, "
                                   f"{len(self.faces)} triangles, {len(self.bone_names)} bones>")


def __dir__() -> "list[str]":
    """The API (``__all__``) and ``__version__``: what ``dir(mmdkit)`` and tab completion show, not
    the helpers this file imports (os, typing's names, dataclass)."""
    return sorted(set(__all__) | {"__version__"})


# Imported for this file's own use only: not part of the namespace.
del annotations, dataclass, List, Optional, Union
