"""Synthetic training data: mmdkit.dataset.render (docs/DATASET.md).

Per rendered frame: the picture (mmdkit.Renderer), the joints of a keypoint layout
(motion::keypoints_on_model through Evaluator.keypoints: the joints of `mmdkit from-keypoints`,
docs/KEYPOINTS.md), the camera the renderer drew with as OpenCV K, R, t, the 2D keypoints with
COCO visibility (the joint's depth tested against the renderer's depth buffer), optionally the mask
and depth. Written as COCO keypoint JSON + image files and one NPZ per motion.

Work is split into tasks of (motion, view, frame range); every value of a frame depends only on
the seed, the motion's index, the view and the frame, so any split (one process or Dask workers)
gives the same files byte for byte.
"""
from __future__ import annotations

import io
import json
import math
import os
import shutil
import tempfile
import zipfile
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import _mmdkit
from .errors import ArgumentError, Error, FileError

#: the layouts (docs/KEYPOINTS.md "Layouts")
LAYOUTS = ("coco17", "h36m17", "smpl24", "mediapipe33")

# Skeletons (pairs of joint indices, 0-based) of each layout, as their sources draw them:
# coco17 the 19 limbs of COCO's person category (cocodataset.org keypoints format); h36m17 and
# smpl24 each joint to its parent (VideoPose3D h36m_dataset.py parents; SMPL's kinematic tree);
# mediapipe33 MediaPipe Pose's POSE_CONNECTIONS.
_PARENTS = {
    "h36m17": [-1, 0, 1, 2, 0, 4, 5, 0, 7, 8, 9, 8, 11, 12, 8, 14, 15],
    "smpl24": [-1, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 12, 13, 14, 16, 17, 18, 19, 20, 21],
}
_SKELETONS = {
    "coco17": [(15, 13), (13, 11), (16, 14), (14, 12), (11, 12), (5, 11), (6, 12), (5, 6), (5, 7), (6, 8),
               (7, 9), (8, 10), (1, 2), (0, 1), (0, 2), (1, 3), (2, 4), (3, 5), (4, 6)],
    "mediapipe33": [(0, 1), (1, 2), (2, 3), (3, 7), (0, 4), (4, 5), (5, 6), (6, 8), (9, 10), (11, 12), (11, 13),
                    (13, 15), (15, 17), (15, 19), (15, 21), (17, 19), (12, 14), (14, 16), (16, 18), (16, 20),
                    (16, 22), (18, 20), (11, 23), (12, 24), (23, 24), (23, 25), (24, 26), (25, 27), (26, 28),
                    (27, 29), (28, 30), (29, 31), (30, 32), (27, 31), (28, 32)],
}
for _name, _par in _PARENTS.items():
    _SKELETONS[_name] = [(j, p) for j, p in enumerate(_par) if p >= 0]

#: random cameras (--views): ranges, documented in docs/DATASET.md "Cameras"
YAW_DEGREES = (0.0, 360.0)
PITCH_DEGREES = (-5.0, 30.0)
FOV_DEGREES = (20, 45)          # integers (a VMD stores the view angle as an integer)
FILL = (0.6, 0.9)               # fraction of the image height the dancer's rest height fills
#: --light-jitter: a constant light per view, grey level and direction (x, -1, z) normalised
LIGHT_GREY = (0.45, 0.75)
LIGHT_XZ = (-1.0, 1.0)
#: the dancer's height: the rest joints' vertical span × this (joints stop short of the crown and soles)
HEIGHT_MARGIN = 1.15
#: default occlusion tolerance, MMD units: a joint lies inside the body, this far behind the surface
OCCLUSION_TOLERANCE = 1.5
#: face joints lie this much deeper (MMD units): the nose is halfway along 頭's tail, inside the head
FACE_DEPTH = 1.0
NEAR = 0.5                      # MMD's near plane (render/renderer.hpp projection_matrix)

# The OpenCV camera (x right, y down, z forward) from MMD's left-handed view space (x right, y up,
# z forward): y negated. The world of R|t: MMD's world with Z negated (right-handed, Y up), so that
# R is a rotation (det +1).
_FLIP_Y = np.diag([1.0, -1.0, 1.0])
_FLIP_Z = np.diag([1.0, 1.0, -1.0])


@dataclass
class RenderResult:
    """What dataset.render wrote: ``files`` (COCO JSON, NPZ per motion, images, masks, depths),
    ``images`` (frames drawn), ``errors`` (per motion: the mmdkit.Error that stopped it)."""
    files: List[str] = field(default_factory=list)
    images: int = 0
    errors: Dict[str, BaseException] = field(default_factory=dict)
    warnings: List[str] = field(default_factory=list)


def layout_names(layout: str) -> List[str]:
    return list(_mmdkit._keypoint_names(layout))


def intrinsics(projection: np.ndarray, width: int, height: int) -> np.ndarray:
    """K (3×3) of an MMD perspective projection (render::projection_matrix) at width × height:
    pixel centres at integer coordinates, (0, 0) the centre of the top-left pixel (OpenCV)."""
    p = projection
    return np.array([[p[0, 0] * width / 2, 0.0, width / 2 - 0.5],
                     [0.0, p[1, 1] * height / 2, height / 2 - 0.5],
                     [0.0, 0.0, 1.0]])


def extrinsics(view: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """R (3×3, det +1), t (3,) of the OpenCV camera from MMD's world → view matrix (4×4 [row,
    column]): x_cam = R · (x, y, −z)_mmd + t."""
    r = _FLIP_Y @ view[:3, :3] @ _FLIP_Z
    t = _FLIP_Y @ view[:3, 3]
    return r, t


def project(points_cam: np.ndarray, k: np.ndarray) -> np.ndarray:
    """(…, 3) camera-space points → (…, 2) pixels with K (pinhole, no distortion)."""
    z = points_cam[..., 2:3]
    return (points_cam[..., :2] / z) * np.array([k[0, 0], k[1, 1]]) + np.array([k[0, 2], k[1, 2]])


def visibility(points_cam: np.ndarray, uv: np.ndarray, depth: np.ndarray, tolerance) -> np.ndarray:
    """COCO visibility per joint: 0 missing (NaN), behind the near plane or outside the image; 2
    when the pixel shows the model and the joint lies at most ``tolerance`` behind its surface; 1
    otherwise (labelled, hidden by the model itself)."""
    h, w = depth.shape
    out = np.zeros(len(points_cam), np.uint8)
    for j, (p, q) in enumerate(zip(points_cam, uv)):
        if not np.all(np.isfinite(p)) or p[2] <= NEAR:
            continue
        x, y = int(np.floor(q[0] + 0.5)), int(np.floor(q[1] + 0.5))
        if not (0 <= x < w and 0 <= y < h):
            continue
        d = depth[y, x]
        tol = tolerance[j] if np.ndim(tolerance) else tolerance
        out[j] = 2 if np.isfinite(d) and p[2] <= d + tol else 1
    return out


def is_face_joint(name: str) -> bool:
    """Joints that stand for points on the face surface (nose, eyes, ears, mouth)."""
    return name == "nose" or name.startswith(("left_eye", "right_eye", "left_ear", "right_ear", "mouth"))


def rotate(q: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Vector `v` turned by the unit quaternion q = [x, y, z, w]."""
    u, w = q[:3].astype(np.float64), float(q[3])
    c = np.cross(u, v)
    return v + 2 * w * c + 2 * np.cross(u, c)


def rle(mask: np.ndarray) -> Dict[str, Any]:
    """COCO's uncompressed RLE of a boolean (H, W) mask: run lengths over the pixels in column
    order (Fortran order), starting with a run of 0s."""
    flat = np.asarray(mask, bool).flatten(order="F")
    change = np.flatnonzero(flat[1:] != flat[:-1]) + 1
    bounds = np.concatenate([[0], change, [flat.size]])
    counts = np.diff(bounds).tolist()
    if flat.size and flat[0]:
        counts = [0] + counts
    return {"size": [int(mask.shape[0]), int(mask.shape[1])], "counts": [int(c) for c in counts]}


def _whole(name: str, value) -> int:
    """An option that counts (views, step, seed, pixels): a whole number, else ArgumentError."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ArgumentError(f"{name} must be a whole number, not {value!r}", "invalid_argument") from None
    if isinstance(value, bool) or not v.is_integer():
        raise ArgumentError(f"{name} must be a whole number, not {value!r}", "invalid_argument")
    return int(v)


def _check_options(o: Dict[str, Any]) -> None:
    if o["joints"] not in LAYOUTS:
        raise ArgumentError(f"unknown joint layout {o['joints']!r} (known: {', '.join(LAYOUTS)})", "invalid_argument")
    if o["camera"] is not None and o["views"]:
        raise ArgumentError("give camera= (--camera) or views= (--views), not both", "invalid_argument")
    if o["views"] < 0:
        raise ArgumentError(f"views must be >= 0, not {o['views']}", "invalid_argument")
    if o["step"] < 1:
        raise ArgumentError(f"step must be >= 1, not {o['step']}", "invalid_argument")
    if not o["fps"] > 0:
        raise ArgumentError(f"fps must be > 0, not {o['fps']}", "invalid_argument")
    w, h = o["size"]
    if not (1 <= w <= 16384 and 1 <= h <= 16384):
        raise ArgumentError("size must be (width, height) with 1..16384 pixels each", "invalid_argument")
    if o["units"] not in ("mmd", "m"):
        raise ArgumentError(f"units must be 'mmd' or 'm', not {o['units']!r}", "invalid_argument")
    if not o["scale"] > 0:
        raise ArgumentError(f"scale must be > 0 (metres per MMD unit), not {o['scale']}", "invalid_argument")
    if not o["occlusion_tolerance"] >= 0:
        raise ArgumentError("occlusion_tolerance must be >= 0 (MMD units)", "invalid_argument")
    if o["frames"] is not None:
        a, b = o["frames"]
        if not (0 <= a <= b):
            raise ArgumentError(f"frames must be (first, last) with 0 <= first <= last, not {o['frames']}",
                                "invalid_argument")


def _frame_list(o: Dict[str, Any], last_frame: int) -> np.ndarray:
    a, b = o["frames"] if o["frames"] is not None else (0, last_frame)
    dt = 30.0 / o["fps"] * o["step"]
    n = int(math.floor((b - a) / dt + 1e-9)) + 1
    frames = a + dt * np.arange(n, dtype=np.float64)
    if (o["physics"] or o["views"]) and np.any(frames != np.floor(frames)):
        raise ArgumentError("with physics or views the frames must be whole (--fps 30 / K)", "invalid_argument")
    return frames


def _background_files(folder: Optional[str]) -> List[str]:
    if folder is None:
        return []
    if not os.path.isdir(folder):
        raise FileError("backgrounds: folder not found", "io_error", folder)
    ext = (".png", ".jpg", ".jpeg", ".bmp", ".tga", ".gif")
    files = sorted(f for f in os.listdir(folder) if f.lower().endswith(ext))
    if not files:
        raise FileError("backgrounds: the folder holds no image (.png, .jpg, .bmp, .tga, .gif)", "io_error", folder)
    return [os.path.join(folder, f) for f in files]


def _view_camera(seed: int, view: int) -> Dict[str, float]:
    """The random camera of one view: yaw, pitch (degrees), fov (integer degrees), fill."""
    rng = np.random.default_rng([seed, 0, view])
    return dict(yaw=float(rng.uniform(*YAW_DEGREES)), pitch=float(rng.uniform(*PITCH_DEGREES)),
                fov=int(rng.integers(FOV_DEGREES[0], FOV_DEGREES[1] + 1)), fill=float(rng.uniform(*FILL)))


def _view_light(seed: int, view: int) -> Dict[str, Any]:
    """The jittered light of one view (a scene file's constant light, docs/SCENE.md)."""
    rng = np.random.default_rng([seed, 2, view])
    g = float(rng.uniform(*LIGHT_GREY))
    x, z = (float(v) for v in rng.uniform(*LIGHT_XZ, size=2))
    return {"color": [g, g, g], "direction": [x, -1.0, z]}


def _centre(points: np.ndarray) -> np.ndarray:
    """The middle of the bounding box of the valid joints (world, MMD units)."""
    ok = points[np.all(np.isfinite(points), axis=1)]
    return (ok.min(axis=0) + ok.max(axis=0)) / 2


def _camera_json(frames: np.ndarray, joints: np.ndarray, cam: Dict[str, float], height: float) -> str:
    """A camera VMD (lossless JSON, docs/formats/vmd-json.md) with one key per frame: aimed at the
    dancer's centre at that frame from the view's yaw, pitch, distance and field of view.
    MMD's camera: eye = target + R·(0, 0, distance), R = Ry(−ry)·Rx(−rx), so rx = pitch (eye
    above for rx > 0) and ry = yaw (0 = in front of the model, which faces −Z)."""
    distance = height / (cam["fill"] * 2 * math.tan(math.radians(cam["fov"]) / 2))
    keys = []
    for f, pts in zip(frames, joints):
        c = _centre(pts)
        keys.append({"frame": int(round(f)), "distance": -distance, "target": [float(v) for v in c],
                     "rotation": [math.radians(cam["pitch"]), math.radians(cam["yaw"]), 0.0],
                     "view_angle": cam["fov"], "perspective": 0})
    return json.dumps({"format": "vmd", "model_name": "カメラ・照明", "camera_keys": keys}, ensure_ascii=False)


def _composite(white: np.ndarray, black: np.ndarray, background: np.ndarray) -> np.ndarray:
    """The dancer over `background`: the picture drawn over white (W) and over black (B) gives,
    per channel, B = a·F and W = a·F + (1 − a)·255, so the result is B + (W − B) / 255 · bg."""
    wf, bf = white[..., :3].astype(np.float32), black[..., :3].astype(np.float32)
    out = bf + (wf - bf) / np.float32(255) * background.astype(np.float32)
    return np.clip(np.floor(out + np.float32(0.5)), 0, 255).astype(np.uint8)


def _fit_background(img: np.ndarray, width: int, height: int) -> np.ndarray:
    """`img` scaled (nearest pixel) to cover width × height, centred, cropped; RGB."""
    h, w = img.shape[:2]
    s = max(width / w, height / h)
    xs = np.clip(((np.arange(width) + 0.5 + (w * s - width) / 2) / s).astype(np.int64), 0, w - 1)
    ys = np.clip(((np.arange(height) + 0.5 + (h * s - height) / 2) / s).astype(np.int64), 0, h - 1)
    return img[ys][:, xs, :3]


def _background_for(files: List[str], seed: int, motion: int, view: int, frame: float, size) -> np.ndarray:
    rng = np.random.default_rng([seed, 1, motion, view, int(round(frame * 2))])
    path = files[int(rng.integers(len(files)))]
    with open(path, "rb") as f:
        img = _mmdkit._decode_image(f.read(), path)
    return _fit_background(img, size[0], size[1])


def _write_atomic(path: str, data: bytes, force: bool) -> None:
    if os.path.exists(path) and not force:
        raise FileError("output exists; pass force=True (--force) to replace it", "io_error", path)
    write_bytes_atomic(path, data)


def write_bytes_atomic(path: str, data: bytes) -> None:
    """`data` into a temporary file beside `path`, renamed onto it; FileError naming `path`."""
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError as e:
        raise FileError(f"cannot write the output: {e.strerror or e}", "io_error", path) from None
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def _npz_bytes(arrays: Dict[str, np.ndarray]) -> bytes:
    """An NPZ as np.savez writes it (stored members '<name>.npy') with fixed member dates, so the
    same arrays give the same bytes."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        for name, a in arrays.items():
            member = io.BytesIO()
            np.lib.format.write_array(member, np.asanyarray(a), allow_pickle=False)
            z.writestr(zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0)), member.getvalue())
    return buf.getvalue()


def _rel(motion_name: str, view: int, frame: float, kind: str, ext: str) -> str:
    f = f"{int(frame):06d}" if frame == int(frame) else f"{frame:010.3f}"
    return f"{kind}/{motion_name}/v{view:02d}/{f}.{ext}"


def render_task(model: str, motion: str, motion_index: int, motion_name: str, view: int, frames: np.ndarray,
                out: str, o: Dict[str, Any]) -> List[Dict[str, Any]]:
    """One task: frames of one motion under one view, images (and masks, depths) written into
    `out`; returns per frame the arrays and annotation values (no ids: the caller numbers)."""
    from .evaluator import Evaluator
    from .render import Renderer
    w, h = o["size"]
    ev = Evaluator(model, [motion], ik=o["ik"], geometry=False)
    joints = ev.keypoints(frames, o["joints"])
    face = np.array([is_face_joint(n) for n in layout_names(o["joints"])])
    head = None
    if face.any() and "頭" in ev.bone_names:  # the head's model-space rotation: which way the face looks
        head = ev.sample(frames, ["頭"], matrices=False, morphs=False).rotations[:, 0]
    tmp = None
    camera = o["camera"]
    writer = ThreadPoolExecutor(max_workers=1)
    try:
        if o["views"]:
            rest = Evaluator(model, [], ik=False, geometry=False).keypoints([0.0], o["joints"])[0]
            ok = rest[np.all(np.isfinite(rest), axis=1)]
            height = float(ok[:, 1].max() - ok[:, 1].min()) * HEIGHT_MARGIN
            tmp = tempfile.mkdtemp(prefix="mmdkit-dataset-")
            camera = os.path.join(tmp, "camera.vmd")
            from . import from_json
            cam_json = _camera_json(frames, joints, _view_camera(o["seed"], view), height)
            with open(camera, "wb") as f:
                f.write(from_json(cam_json).to_bytes())
        common = dict(size=(w, h), msaa=o["msaa"], physics=o["physics"], edges=o["edges"], shadows=o["shadows"])
        source, args = model, dict(motions=[motion], camera=camera)
        if o["light_jitter"]:
            # a scene file (docs/SCENE.md) says the light: the model, its motion, the camera, a constant light
            tmp = tmp or tempfile.mkdtemp(prefix="mmdkit-dataset-")
            scene = {"format": "mmdkit-scene", "version": 1,
                     "models": [{"file": os.path.abspath(model), "motions": [os.path.abspath(motion)]}],
                     "light": _view_light(o["seed"], view)}
            if camera:
                scene["camera"] = os.path.abspath(camera)
            source, args = os.path.join(tmp, "scene.json"), {}
            with open(source, "w", encoding="utf-8") as f:
                json.dump(scene, f, ensure_ascii=False)
        r = Renderer(source, background="ffffff", **args, **common)
        black = Renderer(source, background="000000", **args, **common) if o["bg_files"] else None
        records = []
        pending: deque = deque()
        for i, (f, pts) in enumerate(zip(frames, joints)):
            rgba, depth, view_m, proj, persp = r._native.capture(float(f), True)
            if not persp:
                raise Error(f"frame {f:g}: the camera is orthographic: a pinhole K does not describe it",
                            "invalid_value", camera)
            k = intrinsics(proj, w, h)
            rot, t = extrinsics(view_m)
            cam = (pts.astype(np.float64) @ _FLIP_Z) @ rot.T + t
            uv = project(cam, k)
            vis = visibility(cam, uv, depth, o["occlusion_tolerance"] + FACE_DEPTH * face)
            if head is not None:
                # face points seen from behind the head are hidden: the face looks along the head
                # bone's −Z (models face −Z); hidden when that points away from the eye
                look = rot @ (rotate(head[i], np.array([0.0, 0.0, -1.0])) * [1, 1, -1])
                hide = face & (vis == 2) & (np.einsum("jk,k->j", np.nan_to_num(cam), look) > 0)
                vis[hide] = 1
            mask = np.isfinite(depth)
            if black is not None:
                b = black._native.capture(float(f), False)[0]
                bg = _background_for(o["bg_files"], o["seed"], motion_index, view, float(f), (w, h))
                pixels = _composite(rgba, b, bg)
            else:
                pixels = rgba[..., :3]
            img_rel = _rel(motion_name, view, f, "images", "png")
            # encoded and written on another thread (the encoder releases the GIL) while the next
            # frame draws; the bytes do not depend on it. At most a few frames wait (memory).
            while len(pending) > 8:
                pending.popleft().result()
            written = [writer.submit(_write_png, out, img_rel, np.ascontiguousarray(pixels), o["force"])]
            if o["mask"]:
                m3 = np.repeat((mask.astype(np.uint8) * 255)[..., None], 3, axis=2)
                written.append(writer.submit(_write_png, out, _rel(motion_name, view, f, "masks", "png"), m3,
                                             o["force"]))
            if o["depth"]:
                d = io.BytesIO()
                np.lib.format.write_array(d, depth.astype(np.float32), allow_pickle=False)
                written.append(writer.submit(_write_file, out, _rel(motion_name, view, f, "depth", "npy"),
                                             d.getvalue(), o["force"]))
            pending.extend(written)
            ys, xs = np.nonzero(mask)
            bbox = ([float(xs.min()) - 0.5, float(ys.min()) - 0.5, float(xs.max() - xs.min() + 1),
                     float(ys.max() - ys.min() + 1)] if xs.size else [0.0, 0.0, 0.0, 0.0])
            records.append(dict(frame=float(f), view=view, file=img_rel, written=written, joints_cam=cam, uv=uv, vis=vis, K=k,
                                R=rot, t=t, bbox=bbox, area=int(mask.sum()), rle=rle(mask)))
        for r_ in records:
            r_["written"] = [w_.result() for w_ in r_["written"]]
        return records
    finally:
        writer.shutdown(wait=True)
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


def _write_png(out: str, rel: str, pixels: np.ndarray, force: bool) -> str:
    return _write_file(out, rel, _mmdkit._encode_png(pixels), force)


def _write_file(out: str, rel: str, data: bytes, force: bool) -> str:
    path = os.path.join(out, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    _write_atomic(path, data, force)
    return path


def _unique_stems(motions: Sequence[str]) -> List[str]:
    seen: Dict[str, int] = {}
    out = []
    for m in motions:
        stem = os.path.splitext(os.path.basename(m))[0] or "motion"
        n = seen.get(stem, 0)
        seen[stem] = n + 1
        out.append(stem if n == 0 else f"{stem}~{n}")
    return out


def render(model, motions, out, *, joints: str = "coco17", camera=None, views: int = 0, seed: int = 0,
           backgrounds=None, frames: Optional[Tuple[float, float]] = None, step: int = 1, fps: float = 30.0,
           size: Tuple[int, int] = (512, 512), mask: bool = False, depth: bool = False, units: str = "mmd",
           scale: float = 0.08, occlusion_tolerance: float = OCCLUSION_TOLERANCE, msaa: int = 4,
           edges: bool = True, shadows: bool = True, light_jitter: bool = False, physics: bool = False,
           ik: bool = True, client=None,
           chunk: Optional[int] = None, force: bool = False) -> RenderResult:
    """Renders ``motions`` (VMD paths) on ``model`` into the folder ``out`` with 2D / 3D joints and
    cameras (docs/DATASET.md gives the files, spaces and rules).

    joints: 'coco17', 'h36m17', 'smpl24' or 'mediapipe33'. camera: a camera VMD for every motion;
    views: N seeded random cameras around the dancer (seed); neither: each motion's own camera
    (MMD's default without one). backgrounds: a folder of images composited behind the dancer
    (seeded per frame). frames (first, last) MMD frames inclusive (default 0 .. the motion's
    last key), every ``step``-th sample at ``fps``. size (width, height). mask / depth: also
    write them. units: 'mmd' or 'm' (``scale`` metres per unit) for joints3d_cam and t.
    occlusion_tolerance: MMD units a visible joint may lie behind the surface the depth buffer
    holds. light_jitter: a seeded constant light per view (grey level, direction). msaa, edges,
    shadows, physics (default off: the joints are kinematic), ik: as Renderer / Evaluator. client: a dask.distributed.Client: tasks of ``chunk`` frames (default: about four
    tasks per worker) on its workers; the files equal the serial run's byte for byte.
    Errors: ArgumentError for bad options (a camera motion without camera keys among them), the
    model's error when it does not load (not a PMD / PMX), FileError for an output that exists
    (force) or cannot be written; a motion that fails is reported in the result's ``errors`` and
    the rest written."""
    if isinstance(motions, (str, os.PathLike)):
        motions = [motions]
    motions = [os.fspath(m) for m in motions]
    model = os.fspath(model)
    out = os.fspath(out)
    try:
        width, height = size
    except (TypeError, ValueError):
        raise ArgumentError(f"size must be (width, height) in pixels, not {size!r}", "invalid_argument") from None
    if frames is not None:
        try:
            first, last = frames
        except (TypeError, ValueError):
            raise ArgumentError(f"frames must be (first, last) MMD frames, not {frames!r}", "invalid_argument") from None
    o = dict(joints=joints, camera=os.fspath(camera) if camera else None, views=_whole("views", views),
             seed=_whole("seed", seed), frames=None if frames is None else (float(first), float(last)),
             step=_whole("step", step), fps=float(fps), size=(_whole("width", width), _whole("height", height)),
             mask=bool(mask), depth=bool(depth), units=units,
             scale=float(scale), occlusion_tolerance=float(occlusion_tolerance), msaa=int(msaa),
             edges=bool(edges), shadows=bool(shadows), light_jitter=bool(light_jitter), physics=bool(physics),
             ik=bool(ik), force=bool(force))
    _check_options(o)
    o["bg_files"] = _background_files(os.fspath(backgrounds) if backgrounds else None)
    if o["camera"] is not None:
        if not os.path.isfile(o["camera"]):
            raise FileError("camera: file not found", "io_error", o["camera"])
        from . import read
        keys = getattr(read(o["camera"]), "camera_keys", None)
        if keys is None:
            raise ArgumentError("camera: not a motion (VMD) file", "invalid_value", o["camera"])
        if len(keys) == 0:
            # a dance VMD given by mistake: every frame would be seen from MMD's default camera
            raise ArgumentError("camera: the motion has no camera keys (MMD's default camera would film every "
                                "frame): give a camera motion, or views= (--views N) for random cameras",
                                "invalid_value", o["camera"])
    coco_path = os.path.join(out, f"coco_{joints}.json")
    stems = _unique_stems(motions)
    if not force:
        for p in [coco_path] + [os.path.join(out, s + ".npz") for s in stems]:
            if os.path.exists(p):
                raise FileError("output exists; pass force=True (--force) to replace it", "io_error", p)
    from .evaluator import Evaluator
    Evaluator(model, [], ik=False, geometry=False)  # a model that does not load fails the call, not each motion
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        raise FileError(f"cannot make the output folder: {e.strerror or e}", "io_error", out) from None
    result = RenderResult()
    nviews = max(1, o["views"])
    plan = []  # (motion index, frames) of the motions that load
    for i, m in enumerate(motions):
        try:
            ev = Evaluator(model, [m], ik=o["ik"], geometry=False)
            if ev.keyed_bones == 0 and ev.keyed_morphs == 0:
                raise Error("the motion keys no bone or morph of the model: every frame would be the rest pose",
                            "invalid_value", m)
            result.warnings.extend(ev.unmatched_messages)
            plan.append((i, _frame_list(o, ev.last_frame)))
        except (Error, OSError) as e:
            result.errors[m] = e
    tasks = []
    if client is not None and chunk is None:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        total = sum(len(fr) for _, fr in plan) * nviews
        chunk = max(1, -(-total // (4 * workers)))
    for i, fr in plan:
        for v in range(nviews):
            n = len(fr) if (chunk is None or o["physics"]) else chunk
            for s in range(0, len(fr), n):
                tasks.append((model, motions[i], i, stems[i], v, fr[s:s + n], out, o))
    if client is None:
        parts = []
        for t in tasks:
            try:
                parts.append(render_task(*t))
            except (Error, OSError) as e:
                parts.append(e)
    else:
        from dask import delayed
        futures = client.compute([delayed(_task_or_error, pure=False)(*t) for t in tasks])
        parts = client.gather(futures)
    # Assemble in task order (motion, view, frames): ids and arrays do not depend on the split.
    by_motion: Dict[int, List[Dict[str, Any]]] = {}
    for t, part in zip(tasks, parts):
        if isinstance(part, BaseException):
            result.errors.setdefault(motions[t[2]], part)
        else:
            by_motion.setdefault(t[2], []).extend(part)
    names = layout_names(joints)
    ufac = o["scale"] if units == "m" else 1.0
    images, annotations = [], []
    for i, fr in plan:
        if motions[i] in result.errors:
            continue
        recs = by_motion[i]
        nf = len(fr)
        for r in recs:
            img_id = len(images) + 1
            images.append({"id": img_id, "file_name": r["file"], "width": o["size"][0], "height": o["size"][1],
                           "motion": stems[i], "view": r["view"], "frame": r["frame"]})
            kp = []
            for (x, y), v in zip(r["uv"], r["vis"]):
                kp.extend([float(x), float(y), int(v)] if v else [0.0, 0.0, 0])
            annotations.append({"id": img_id, "image_id": img_id, "category_id": 1, "iscrowd": 0,
                                "keypoints": kp, "num_keypoints": int(np.count_nonzero(r["vis"])),
                                "bbox": r["bbox"], "area": r["area"], "segmentation": r["rle"]})

        def stack(key, dtype):
            a = np.stack([r[key] for r in recs]).astype(dtype)
            return a.reshape((nviews, nf) + a.shape[1:])
        arrays = {"frames": np.asarray(fr, np.float64), "joint_names": np.asarray(names),
                  "joints3d_cam": stack("joints_cam", np.float32) * np.float32(ufac),
                  "joints2d": stack("uv", np.float32), "visibility": stack("vis", np.uint8),
                  "K": stack("K", np.float64), "R": stack("R", np.float64), "t": stack("t", np.float64) * ufac,
                  "image_files": np.asarray([r["file"] for r in recs]).reshape(nviews, nf),
                  "units": np.asarray(units)}
        p = os.path.join(out, stems[i] + ".npz")
        _write_atomic(p, _npz_bytes(arrays), force)
        result.files.append(p)
        result.files.extend(p for r in recs for p in r["written"])
        result.images += len(recs)
    coco = {"info": {"description": f"mmdkit dataset --render ({joints})", "version": "1.0"},
            "images": images, "annotations": annotations,
            "categories": [{"id": 1, "name": "person", "supercategory": "person", "keypoints": names,
                            "skeleton": [[a + 1, b + 1] for a, b in _SKELETONS[joints]]}]}
    if images:
        _write_atomic(coco_path, json.dumps(coco, ensure_ascii=False, separators=(",", ":")).encode(), force)
        result.files.insert(0, coco_path)
    return result


def _task_or_error(*args):
    """render_task on a Dask worker: its error comes back as a value (the others go on)."""
    try:
        return render_task(*args)
    except (Error, OSError) as e:
        return e
