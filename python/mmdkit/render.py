"""Drawing from Python: mmdkit.Renderer, mmdkit.show and the pictures notebooks show
(docs/PYTHON.md "Rendering").

The Renderer is `mmdkit render` as an object: the same scene loading, physics, render settings and
drawing (the C++ render session, mmdkit/render/scene_renderer.hpp), so the same inputs give the
same pixels (PNG bytes equal to the CLI's). Frames come back as NumPy arrays; the GIL is released
while a frame is evaluated, drawn and read back."""
from __future__ import annotations

import base64
import os
import shutil
import tempfile
import warnings
import weakref
from typing import Iterable, Iterator, Optional, Sequence, Tuple, Union

import numpy as np

from . import _mmdkit
from .errors import ArgumentError, Error

PathLike = Union[str, "os.PathLike[str]"]

#: The size of the pictures notebooks show (_repr_png_) and of mmdkit.show's default.
REPR_SIZE = (640, 360)


class RenderError(Error, RuntimeError):
    """No OpenGL to draw with: libEGL, Mesa's EGL driver or its GL driver is missing, or the GL
    version is below 3.3. The message names the Debian package to install (libegl1,
    libegl-mesa0, libgl1-mesa-dri)."""


# Where documents were read from (mmdkit.read records it), so that a model's picture finds its
# textures; weak, so the documents are not kept alive.
_sources: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _remember_source(obj, path: str) -> None:
    try:
        _sources[obj] = os.path.abspath(path)
    except TypeError:  # an object without weak references: no picture textures
        pass


def _background(value) -> Tuple[float, float, float]:
    if isinstance(value, str):
        h = value[1:] if value.startswith("#") else value
        if len(h) != 6 or any(c not in "0123456789abcdefABCDEF" for c in h):
            raise ArgumentError("background must be 'RRGGBB' in hexadecimal (e.g. 'ffffff') or three numbers 0..1")
        return tuple(int(h[i:i + 2], 16) / 255.0 for i in (0, 2, 4))  # type: ignore[return-value]
    t = tuple(float(x) for x in value)
    if len(t) != 3:
        raise ArgumentError("background must be 'RRGGBB' or three numbers 0..1")
    return t  # type: ignore[return-value]


def _write_bytes(path: str, data: bytes, force: bool) -> None:
    """Atomic write (temporary file beside it, then rename), refusing an existing file unless force."""
    if not force and os.path.exists(path):
        raise Error("output exists; pass force=True to replace it", "io_error", path)
    d = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=d)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _is_project_file(path) -> bool:
    """Whether `path` is an MMD project (.pmm), by its signature."""
    try:
        with open(os.fspath(path), "rb") as f:
            return f.read(19) == b"Polygon Movie maker"
    except OSError:
        return False  # the native loader names the missing file


def _project_scene(project, folder: Optional[str], search_dirs: Sequence[PathLike], strict: bool):
    """The project as a scene folder in a new temporary folder (its VMDs, camera.vmd and the
    scene.json `mmdkit pmm extract` writes): (folder, scene.json path, the conversion's warnings).
    The caller removes the folder."""
    tmp = tempfile.mkdtemp(prefix="mmdkit-project-")
    try:
        path, warnings = project._write_scene(folder, [os.fspath(d) for d in search_dirs], bool(strict), tmp)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return tmp, path, warnings


def _project_source(source, search_dirs: Sequence[PathLike], strict: bool):
    """For an MMD project (a .pmm path or an mmdkit.Project): (temporary folder, scene.json path,
    warnings); None for anything else. A project read from a file (mmdkit.read) finds its files
    below that file's folder, else below the current folder; then below each of search_dirs."""
    if isinstance(source, (str, os.PathLike)):
        if not _is_project_file(source):
            return None
        path = os.path.abspath(os.fspath(source))
        return _project_scene(_mmdkit.Project.read(path), os.path.dirname(path), search_dirs, strict)
    if getattr(type(source), "format", None) == "pmm":
        src = _sources.get(source)
        return _project_scene(source, os.path.dirname(src) if src else None, search_dirs, strict)
    return None


class Renderer:
    """A model posed by its motions (or a whole scene) drawn as ``mmdkit render`` draws it.

    model_or_scene: a model file (.pmx / .pmd / their mmdkit JSON / .x), a scene file (.json,
    docs/SCENE.md; then no motions or camera), an MMD project (a .pmm path, an mmdkit.Project or
    an mmdkit.Scene: drawn as ``mmdkit render project.pmm`` draws it, its files found below its
    folder then below each of ``search_dirs``; ``strict``: a file not found raises), or a
    PmxModel / PmdModel object (drawn from a temporary copy of its bytes; textures are found when
    mmdkit.read read it from a file and it is unchanged). motions: VMD paths (merged) and/or one VPD pose. camera: a VMD whose camera keys
    are used (``--camera``). size: (width, height) in pixels. aa ('fxaa', 'msaa', 'none'; None =
    'fxaa', or 'msaa' when msaa is given), msaa (samples), shadow_map (pixels of a map over MMD's
    whole shadow box; None = a map fitted to the models), background ('RRGGBB' or RGB 0..1), edges,
    shadows (ground shadow and self-shadow), toon_dir: as ``render``'s options (``--aa``,
    ``--msaa``, ``--shadow-map``, ...; docs/RENDER.md "Anti-aliasing").
    physics: None = on when the model has rigid bodies (as ``render``), True / False forces it;
    with physics, frames are whole frames (halves at fps=60). fps: 30, or 60 (physics advances by
    half frames; frames may then be halves).
    Errors: the readers' (FileError, FormatError with the file), ArgumentError, RenderError when
    there is no OpenGL (EGL / Mesa missing)."""

    def __init__(self, model_or_scene, motions: Union[PathLike, Sequence[PathLike]] = (), camera: Optional[PathLike] = None,
                 size: Optional[Tuple[int, int]] = None, *, msaa: Optional[int] = None, aa: Optional[str] = None,
                 shadow_map: Optional[int] = None, background=None, edges: bool = True,
                 shadows: bool = True, physics: Optional[bool] = None, toon_dir: Optional[PathLike] = None,
                 fps: Optional[int] = None, search_dirs: Sequence[PathLike] = (), strict: bool = False):
        """Loads the model or scene and uploads it for drawing (see the class docstring).

        size, fps and background default to a scene file's "view" (docs/SCENE.md "View", which
        ``mmdkit pmm extract`` writes from a project's settings: a project's output size, preferred
        fps, black background), else (1280, 720), 30 and white, as ``mmdkit render --scene``; a
        scene's view also sets the ground shadow on / off and its translucency. Raises the readers'
        errors (FileError, FormatError), ArgumentError for bad arguments (motions or camera with a
        scene or project; a project none of whose models is found), RenderError when there is no
        OpenGL."""
        if isinstance(motions, (str, os.PathLike)):
            motions = [motions]
        self._tmp = None
        self._project_warnings: list = []
        source = model_or_scene
        if isinstance(source, Scene):
            self._scene = source  # keeps a project's temporary folder while this renderer lives
            source = source.path
        project = _project_source(source, search_dirs, strict)
        if project is not None:
            self._tmp, source, self._project_warnings = project
        elif not isinstance(source, (str, os.PathLike)):
            source = self._document_path(source)
        w, h = 0, 0  # 0: the scene's view size, else 1280x720
        if size is not None:
            try:
                w, h = (int(size[0]), int(size[1]))
            except (TypeError, ValueError, IndexError):
                raise ArgumentError("size must be (width, height)") from None
            if w < 1 or h < 1:
                raise ArgumentError("size must be (width, height) with 1..16384 pixels each")
        self._native = _mmdkit._Renderer(
            os.fspath(source), [os.fspath(m) for m in motions], os.fspath(camera) if camera else "", w, h,
            -1 if msaa is None else int(msaa), aa or "", -1 if shadow_map is None else int(shadow_map),
            None if background is None else _background(background), bool(edges), bool(shadows),
            -1 if physics is None else int(bool(physics)), os.fspath(toon_dir) if toon_dir else "",
            0 if fps is None else int(fps))
        #: 30 or 60: the argument, else the scene's view fps, else 30.
        self.fps = self._native.fps

    def _document_path(self, doc) -> str:
        fmt = getattr(type(doc), "format", None)
        if fmt not in ("pmx", "pmd"):
            raise ArgumentError(f"a Renderer draws a model or scene file, a PmxModel or a PmdModel, not {type(doc).__name__}")
        data = doc.to_bytes()
        src = _sources.get(doc)
        if src:
            try:
                with open(src, "rb") as f:
                    if f.read() == data:
                        return src
            except OSError:
                pass
        self._tmp = tempfile.mkdtemp(prefix="mmdkit-render-")
        path = os.path.join(self._tmp, "model." + fmt)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def __del__(self):
        tmp = getattr(self, "_tmp", None)
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)

    @property
    def size(self) -> Tuple[int, int]:
        """(width, height) in pixels."""
        return (self._native.width, self._native.height)

    @property
    def last_frame(self) -> int:
        """The last key frame over every input (a video's default end)."""
        return self._native.last_frame

    @property
    def physics(self) -> bool:
        """Whether the rigid bodies are simulated."""
        return self._native.physics

    @property
    def warnings(self):
        """A project's conversion warnings (files not found, ...), then the readers' and the
        renderer's (dicts: code, message, file, ...)."""
        return list(self._project_warnings) + list(self._native.warnings)

    @property
    def items(self):
        """The file of each drawn item, in mask order: mask value k is items[k - 1]."""
        return self._native.items

    def frame(self, frame: float = 0) -> np.ndarray:
        """The picture of `frame` (30 fps): an (H, W, 4) uint8 RGBA array, top row first. With
        physics every frame from the last one drawn (or 0, going back) up to `frame` is simulated
        first: a frame far past the inputs' last key warns (RuntimeWarning) before that wait."""
        self._warn_far(float(frame))
        return self._native.frame(float(frame))

    # Frames past the last key a physics catch-up may run long for: a minute of motion.
    _FAR_FRAMES = 1800

    def _warn_far(self, frame: float) -> None:
        """A new user's finding: frame(1e9) with physics simulated for hours without a word (the
        CLI says where the keys end). Once per renderer."""
        last = self.last_frame
        if self.physics and frame > last + self._FAR_FRAMES and not getattr(self, "_warned_far", False):
            self._warned_far = True
            warnings.warn(f"frame {frame:g} is {frame - last:g} frames past the inputs' last key ({last}): with physics "
                          "every frame up to it is simulated first, and later frames hold the pose of the last key "
                          "(physics=False draws it at once)", RuntimeWarning, stacklevel=3)

    def frames(self, frames: Optional[Iterable[float]] = None) -> Iterator[np.ndarray]:
        """The pictures of `frames` (default: 0 to last_frame), one array at a time."""
        for f in (range(self.last_frame + 1) if frames is None else frames):
            yield self.frame(f)

    def png(self, frame: float = 0) -> bytes:
        """The PNG file of `frame`: the bytes ``mmdkit render -o x.png --frame F`` writes."""
        self._warn_far(float(frame))
        return self._native.png(float(frame))

    def depth(self, frame: float = 0) -> np.ndarray:
        """View-space depth of `frame`: (H, W) float32, MMD units along the camera's viewing axis
        from the eye (not the Euclidean distance; orthographic cameras: from the eye plane);
        +inf where no face is. Faces of every drawn material count (translucent ones too), edges
        and the ground shadow do not; no anti-aliasing. Precision about depth² × 1.2e-7."""
        self._warn_far(float(frame))
        return self._native.depth(float(frame))

    def mask(self, frame: float = 0) -> np.ndarray:
        """Which item each pixel of `frame` shows: (H, W) uint8, 0 = background, k = items[k - 1]
        (models in order, the stage, then the visible accessories). Same faces as depth()."""
        self._warn_far(float(frame))
        return self._native.mask(float(frame))

    def write(self, path: PathLike, frame: Optional[float] = None, frames: Optional[Tuple[float, float]] = None, *,
              audio: Optional[PathLike] = None, force: bool = False) -> None:
        """Writes as ``mmdkit render -o PATH``: "x.png" one frame (default 0); a pattern such as
        "dir/%05d.png" one PNG per frame, numbered from 0; "x.mp4" (H.264) or "x.webm" (VP9)
        frames (first, last) inclusive (default 0 to last_frame), at the renderer's fps, with
        `audio` (or the scene file's) muxed in. Files are replaced only with force=True."""
        path = os.fspath(path)
        ext = os.path.splitext(path)[1].lower()
        if frame is not None and frames is not None:
            raise ArgumentError("frame and frames exclude each other")
        if ext in (".mp4", ".webm"):
            first, last = frames if frames is not None else ((frame, frame) if frame is not None else (0, self.last_frame))
            self._native.write_video(path, ext[1:], float(first), float(last), self.fps,
                                     os.fspath(audio) if audio else self._native.audio, bool(force))
            return
        if ext != ".png":
            raise ArgumentError("the output must end in .png, .mp4 or .webm, or be a PNG pattern with %d")
        if audio:
            raise ArgumentError("audio needs a video output (.mp4 or .webm)")
        if "%" in path:
            first, last = frames if frames is not None else ((frame, frame) if frame is not None else (0, self.last_frame))
            step = 0.5 if self.fps == 60 else 1.0
            count = int((last - first) / step + 1e-9) + 1
            for i in range(count):
                _write_bytes(path % i, self.png(first + i * step), force)
            return
        if frames is not None and frames[1] > frames[0]:
            raise ArgumentError("a .png output is one frame: use frame=, or a pattern such as frames/%05d.png")
        _write_bytes(path, self.png(frame if frame is not None else (frames[0] if frames else 0)), force)

    def _repr_png_(self) -> bytes:
        return self.png(0)


class Scene:
    """A scene (docs/SCENE.md) to look at and draw: a scene file (.json) or an MMD project (.pmm,
    taken apart as ``mmdkit pmm extract`` does, into a temporary folder kept while the Scene lives;
    its files found below its folder, then below each of ``search_dirs``; ``strict``: a file not
    found raises). ``models``, ``accessories``, ``camera`` and ``view`` are the scene file's entries
    (paths as written: absolute, or relative to the scene's folder); notebooks show frame 0
    (``_repr_png_``: REPR_SIZE, no physics); ``renderer(**options)`` is a Renderer of it."""

    def __init__(self, path: PathLike, *, search_dirs: Sequence[PathLike] = (), strict: bool = False):
        """Reads the scene file or takes the project apart (see the class docstring). Raises
        mmdkit.FileError (a file not found: the scene's; with strict, any the project names),
        mmdkit.JsonError (a scene file that is not one), mmdkit.FormatError (a project that does
        not parse). The conversion's warnings are in ``.warnings``."""
        import json
        self._tmp = None
        self.warnings: list = []
        project = _project_source(path, search_dirs, strict)
        if project is not None:
            self._tmp, scene_path, self.warnings = project
        else:
            scene_path = os.path.abspath(os.fspath(path))
        #: The scene file read (for a project: the scene.json in the temporary folder).
        self.path: str = scene_path
        try:
            with open(scene_path, "rb") as f:
                self._data = json.loads(f.read().decode("utf-8"))
        except OSError as e:
            raise Error(f"cannot read the scene file: {e.strerror}", "io_error", scene_path) from None
        except ValueError as e:
            raise Error(f"not a scene file (JSON): {e}", "json_syntax", scene_path) from None
        if not isinstance(self._data, dict):
            raise Error("not a scene file: the top level must be an object", "json_schema", scene_path)

    @property
    def folder(self) -> str:
        """The scene file's folder (relative paths are below it)."""
        return os.path.dirname(self.path)

    @property
    def models(self) -> list:
        """The models, in drawing order: dicts with file, motions and the optional placement,
        edge_width, self_shadow and add_blend, as the scene file says."""
        return list(self._data.get("models", []))

    @property
    def accessories(self) -> list:
        """The accessories: dicts with file and the placement, parent, visibility, opacity, shadow,
        keys (those before the file's accessories_after_models are drawn before the models)."""
        return list(self._data.get("accessories", []))

    @property
    def camera(self) -> Optional[str]:
        """The camera VMD (a path as written), or None (the models' camera, else MMD's default)."""
        return self._data.get("camera")

    @property
    def view(self) -> dict:
        """The view settings (size, fps, background, ground_shadow, ground_shadow_translucent,
        edge_color, background_image, background_video; docs/SCENE.md "View"): those the scene
        sets; the rest take their defaults. A Renderer draws them all, the background pictures
        behind everything."""
        return dict(self._data.get("view", {}))

    def renderer(self, **options) -> "Renderer":
        """A Renderer of this scene (options as Renderer's)."""
        return Renderer(self, **options)

    def _repr_png_(self) -> Optional[bytes]:
        try:
            return Renderer(self, size=REPR_SIZE, physics=False).png(0)
        except Error:
            return None  # no OpenGL, or nothing to draw: the text repr stands

    def __repr__(self) -> str:
        return f"<mmdkit.Scene {self.path!r}: {len(self.models)} models, {len(self.accessories)} accessories>"

    def __del__(self):
        tmp = getattr(self, "_tmp", None)
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


class Animation:
    """A short rendered video that notebooks show inline (an HTML5 <video>): ``data`` holds the
    file's bytes, ``mimetype`` its type."""

    def __init__(self, data: bytes, mimetype: str):
        self.data = data
        self.mimetype = mimetype

    def _repr_html_(self) -> str:
        b64 = base64.b64encode(self.data).decode("ascii")
        return (f'<video controls loop autoplay muted playsinline>'
                f'<source src="data:{self.mimetype};base64,{b64}" type="{self.mimetype}"></video>')

    def save(self, path: PathLike) -> None:
        """Writes the video's bytes to `path`."""
        with open(path, "wb") as f:
            f.write(self.data)


def show(source, motions: Union[PathLike, Sequence[PathLike]] = (), frames: Optional[Tuple[float, float]] = None,
         size: Tuple[int, int] = REPR_SIZE, *, format: str = "mp4", **options) -> Animation:
    """A short inline animation: `source` (a Renderer, or what Renderer takes, with `motions` and
    the Renderer's keyword options) drawn over `frames` (first, last) inclusive (default 0 to
    min(last_frame, 90): three seconds at most) into an MP4 (H.264) or WebM (VP9) shown by
    notebooks as a <video>. Returns an Animation (its bytes in .data)."""
    r = source if isinstance(source, Renderer) else Renderer(source, motions, size=size, **options)
    if frames is None:
        frames = (0, min(r.last_frame, 90))
    if format not in ("mp4", "webm"):
        raise ArgumentError("format must be 'mp4' or 'webm'")
    d = tempfile.mkdtemp(prefix="mmdkit-show-")
    try:
        path = os.path.join(d, "show." + format)
        r.write(path, frames=frames)
        with open(path, "rb") as f:
            return Animation(f.read(), "video/" + format)
    finally:
        shutil.rmtree(d, ignore_errors=True)


def _repr_png_document(self) -> Optional[bytes]:
    """The model at rest under MMD's default camera (REPR_SIZE, no physics)."""
    try:
        return Renderer(self, size=REPR_SIZE, physics=False).png(0)
    except Error:
        return None  # no OpenGL, or nothing to draw: the text repr stands


def _repr_png_evaluator(self) -> Optional[bytes]:
    """The model posed at the current frame (the last pose() call's, else 0) of its motions (their
    camera, else MMD's default), REPR_SIZE, without physics."""
    src = getattr(self, "_render_source", None)
    if src is None:
        return None
    model, motions = src
    try:
        return Renderer(model, motions, size=REPR_SIZE, physics=False).png(getattr(self, "_current_frame", 0.0))
    except Error:
        return None


def context_info() -> dict:
    """What draws: {"platform", "vendor", "renderer", "version", "software"} of the EGL / OpenGL
    context mmdkit makes (docs/RENDER.md "Context"). Raises RenderError without OpenGL."""
    return _mmdkit._Renderer.context_info()
