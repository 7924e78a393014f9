"""mmdkit.dataset.render / `dataset --render` (issue 30, "Synthetic training data"): visible
keypoints lie on the model's mask, the 2D keypoints are the 3D camera-space joints projected with
the written K, the joints taken back to MMD's world through R|t are the evaluator's, the COCO JSON
reads with a reader written from the COCO format's description, the random cameras aim at the
dancer, backgrounds show where the model is not, and the same seed gives the same bytes (serial,
Dask). Small pictures and few frames: a few seconds in all."""
from __future__ import annotations

import json
import os
import struct
import subprocess
from pathlib import Path

import numpy as np
import pytest

import mmdkit
from mmdkit import dataset
from conftest import MIKU, WAVEFILE, cli_path, corpus_file
from pngdecode import decode_png


@pytest.fixture(scope="module")
def inputs(gl):
    return corpus_file(MIKU), corpus_file(WAVEFILE)


@pytest.fixture(scope="module")
def views_run(inputs, tmp_path_factory):
    """coco17, two random views, frames 0, 10, 20 at 128×128 with masks and depth."""
    model, motion = inputs
    out = tmp_path_factory.mktemp("views")
    r = dataset.render(model, [motion], out, joints="coco17", views=2, seed=7, frames=(0, 20), step=10,
                       size=(128, 128), mask=True, depth=True, msaa=1)
    assert not r.errors, r.errors
    return out, r


def load_npz(path):
    with np.load(path) as z:
        return {k: z[k] for k in z.files}


def read_coco(path: Path):
    """A COCO keypoint file checked against the format's description (cocodataset.org "Data
    format": images {id, width, height, file_name}, annotations {id, image_id, category_id,
    keypoints [x1,y1,v1,...], num_keypoints, bbox [x,y,width,height], area, iscrowd, segmentation:
    polygons or RLE {size [h,w], counts}}, categories {id, name, supercategory, keypoints,
    skeleton: 1-based joint pairs}); returns (images by id, annotations by image id, category)."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert set(doc) >= {"images", "annotations", "categories"}
    [cat] = doc["categories"]
    k = len(cat["keypoints"])
    assert cat["name"] == "person" and all(1 <= a <= k and 1 <= b <= k for a, b in cat["skeleton"])
    images = {}
    for im in doc["images"]:
        assert isinstance(im["id"], int) and im["id"] not in images
        assert isinstance(im["file_name"], str) and im["width"] > 0 and im["height"] > 0
        images[im["id"]] = im
    anns = {}
    for a in doc["annotations"]:
        assert a["image_id"] in images and a["category_id"] == cat["id"] and a["iscrowd"] in (0, 1)
        kp = a["keypoints"]
        assert len(kp) == 3 * k and all(v in (0, 1, 2) for v in kp[2::3])
        assert a["num_keypoints"] == sum(1 for v in kp[2::3] if v > 0)
        assert all(kp[3 * j] == 0 and kp[3 * j + 1] == 0 for j in range(k) if kp[3 * j + 2] == 0)
        assert len(a["bbox"]) == 4 and a["bbox"][2] >= 0 and a["bbox"][3] >= 0
        seg = a["segmentation"]
        h, w = seg["size"]
        assert sum(seg["counts"]) == h * w
        anns[a["image_id"]] = a
    return images, anns, cat


def rle_decode(seg) -> np.ndarray:
    h, w = seg["size"]
    flat = np.zeros(h * w, bool)
    pos, val = 0, False
    for c in seg["counts"]:
        flat[pos:pos + c] = val
        pos, val = pos + c, not val
    return flat.reshape((w, h)).T


def png_size(data: bytes):
    return struct.unpack(">II", data[16:24])  # IHDR width, height


def test_files_and_coco_reader(views_run):
    out, r = views_run
    images, anns, cat = read_coco(out / "coco_coco17.json")
    assert len(images) == 6 == r.images  # 2 views × 3 frames
    assert len(r.files) == 2 + 3 * 6 and all(os.path.isfile(f) for f in r.files)  # JSON, NPZ, image/mask/depth
    assert cat["keypoints"][0] == "nose" and len(cat["keypoints"]) == 17
    for iid, im in images.items():
        data = (out / im["file_name"]).read_bytes()
        assert png_size(data) == (128, 128)
        mask = decode_png((out / im["file_name"].replace("images/", "masks/", 1)).read_bytes())[..., 0] == 255
        a = anns[iid]
        # area and segmentation from the mask; the bbox is the mask's extent (pixel centres at integers)
        assert a["area"] == int(mask.sum()) > 200
        assert np.array_equal(rle_decode(a["segmentation"]), mask)
        ys, xs = np.nonzero(mask)
        assert a["bbox"] == [xs.min() - 0.5, ys.min() - 0.5, xs.max() - xs.min() + 1, ys.max() - ys.min() + 1]
        depth = np.load(out / im["file_name"].replace("images/", "depth/", 1).replace(".png", ".npy"))
        assert np.array_equal(np.isfinite(depth), mask)


def test_visible_keypoints_lie_on_the_mask_and_project_with_k(views_run):
    out, _ = views_run
    z = load_npz(out / "wavefile_v2.npz")
    assert z["joints3d_cam"].shape == (2, 3, 17, 3) and z["K"].shape == (2, 3, 3, 3)
    np.testing.assert_array_equal(z["frames"], [0.0, 10.0, 20.0])
    counts = np.bincount(z["visibility"].ravel(), minlength=3)
    assert counts[2] > 40 and counts[0] >= 2 * 6  # the ears have no bone: v = 0 in every picture
    for v in range(2):
        for i in range(3):
            x, k = z["joints3d_cam"][v, i].astype(np.float64), z["K"][v, i]
            vis, uv = z["visibility"][v, i], z["joints2d"][v, i].astype(np.float64)
            ok = np.isfinite(x).all(axis=1)
            proj = (x[ok] @ k.T)
            np.testing.assert_allclose(uv[ok], proj[:, :2] / proj[:, 2:], atol=1e-3, rtol=0)
            mask = decode_png((out / str(z["image_files"][v, i]).replace("images/", "masks/", 1)).read_bytes())
            for (px, py), s in zip(uv, vis):
                if s == 2:
                    assert mask[int(np.floor(py + 0.5)), int(np.floor(px + 0.5)), 0] == 255
                if s > 0:
                    assert -0.5 <= px < 127.5 and -0.5 <= py < 127.5


def test_camera_space_back_to_mmd_world_equals_the_evaluator(views_run, inputs):
    out, _ = views_run
    model, motion = inputs
    z = load_npz(out / "wavefile_v2.npz")
    s = mmdkit.Evaluator(model, [motion]).sample(z["frames"], ["左腕", "右ひざ", "左足首"], matrices=False,
                                                 morphs=False)
    names = list(z["joint_names"])
    for v in range(2):
        for i in range(3):
            r, t = z["R"][v, i], z["t"][v, i]
            assert abs(np.linalg.det(r) - 1) < 1e-6 and np.allclose(r @ r.T, np.eye(3), atol=1e-6)
            world = (z["joints3d_cam"][v, i].astype(np.float64) - t) @ r  # Rᵀ(x − t), one row per joint
            world[:, 2] *= -1                                             # the world of R|t has Z negated
            for j, bone in (("left_shoulder", 0), ("right_knee", 1), ("left_ankle", 2)):
                np.testing.assert_allclose(world[names.index(j)], s.positions[i, bone], atol=2e-4)
            # the random camera aims at the middle of the joints' bounding box
            ok = np.isfinite(world).all(axis=1)
            c = (world[ok].min(axis=0) + world[ok].max(axis=0)) / 2
            cc = r @ (c * [1, 1, -1]) + t
            k = z["K"][v, i]
            np.testing.assert_allclose(cc[:2] / cc[2] * [k[0, 0], k[1, 1]], [0, 0], atol=0.05)


def test_smpl24_equals_the_arrays_of_extract(inputs, tmp_path):
    model, motion = inputs
    r = dataset.render(model, [motion], tmp_path, joints="smpl24", frames=(30, 30), size=(64, 64), msaa=1,
                       units="m")
    assert not r.errors
    z = load_npz(tmp_path / "wavefile_v2.npz")
    [e] = dataset.extract([motion], model, joints="smpl24", frames=[30.0])
    x = z["joints3d_cam"][0, 0].astype(np.float64)
    world = (x - z["t"][0, 0]) @ z["R"][0, 0] / 0.08
    world[:, 2] *= -1
    np.testing.assert_allclose(world, e.positions[0], atol=2e-4)
    assert list(z["joint_names"]) == e.names and str(z["units"]) == "m"


def test_same_seed_same_bytes_serial_and_dask_and_backgrounds(inputs, tmp_path):
    model, motion = inputs
    bgdir = tmp_path / "bg"
    bgdir.mkdir()
    for n, colour in (("a.png", (200, 30, 40)), ("b.png", (20, 150, 60))):
        px = np.zeros((16, 24, 3), np.uint8) + np.array(colour, np.uint8)
        px[::2, ::3] = 255 - px[::2, ::3]
        (bgdir / n).write_bytes(mmdkit._mmdkit._encode_png(px))
    kw = dict(joints="h36m17", views=1, seed=3, frames=(0, 2), step=2, size=(64, 64), msaa=1, backgrounds=bgdir,
              mask=True)

    def files(d):
        return {p.relative_to(d).as_posix(): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}
    a = tmp_path / "a"
    dataset.render(model, [motion], a, **kw)
    fa = files(a)
    assert len(fa) == 1 + 1 + 2 * 2
    # the same seed again, one frame per task on two Dask workers: the same bytes
    distributed = pytest.importorskip("distributed")
    c = tmp_path / "c"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster, distributed.Client(cluster) as client:
        dataset.render(model, [motion], c, client=client, chunk=1, **kw)
    assert files(c) == fa
    d = tmp_path / "d"
    dataset.render(model, [motion], d, **{**kw, "seed": 4, "frames": (0, 0)})
    assert files(d)["images/wavefile_v2/v00/000000.png"] != fa["images/wavefile_v2/v00/000000.png"]
    # away from the model the picture is a background image's pixels
    img = decode_png(fa["images/wavefile_v2/v00/000002.png"])
    mask = decode_png(fa["masks/wavefile_v2/v00/000002.png"])[..., 0] == 255
    colours = {tuple(p) for p in img[~mask].reshape(-1, 3)}
    known = {(200, 30, 40), (55, 225, 215), (20, 150, 60), (235, 105, 195)}
    assert sum(1 for p in img[~mask].reshape(-1, 3) if tuple(p) in known) > 0.8 * (~mask).sum(), colours


def test_cli_render_and_usage(inputs, tmp_path):
    model, motion = inputs
    out = tmp_path / "out"
    p = subprocess.run([str(cli_path()), "dataset", str(model), str(motion), "--render", "-o", str(out),
                        "--frames", "0-10", "--step", "10", "--size", "64x48", "--msaa", "1", "--joints",
                        "mediapipe33"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "wrote 4 files" in p.stderr and "2 images" in p.stderr
    images, anns, cat = read_coco(out / "coco_mediapipe33.json")
    assert len(images) == 2 and len(cat["keypoints"]) == 33
    assert png_size((out / "images/wavefile_v2/v00/000010.png").read_bytes()) == (64, 48)
    again = subprocess.run([str(cli_path()), "dataset", str(model), str(motion), "--render", "-o", str(out),
                            "--frames", "0-10", "--step", "10", "--size", "64x48"], capture_output=True, text=True)
    assert again.returncode == 1 and "output exists" in again.stderr and "--force" in again.stderr
    # usage (exit 2; the options' own errors: test_bad_options_are_errors_before_any_drawing)
    q = subprocess.run([str(cli_path()), "dataset", str(model), str(motion), "--render", "-o", str(tmp_path / "x.npz")],
                       capture_output=True, text=True)
    assert q.returncode == 2 and "writes a folder" in q.stderr, q.stderr


def test_bad_options_are_errors_before_any_drawing(tmp_path):
    m = str(tmp_path / "model.pmx")
    cases = ((dict(joints="body25"), mmdkit.ArgumentError, "unknown joint layout 'body25'"),
             (dict(views=2, camera=m), mmdkit.ArgumentError, r"camera= \(--camera\) or views="),
             (dict(step=0), mmdkit.ArgumentError, "step must be >= 1"),
             (dict(frames=(10, 5)), mmdkit.ArgumentError, "0 <= first <= last"),
             (dict(size=(0, 64)), mmdkit.ArgumentError, "size"),
             (dict(camera=tmp_path / "none.vmd"), mmdkit.FileError, "camera: file not found"),
             (dict(backgrounds=tmp_path), mmdkit.FileError, "holds no image"))
    for kw, exc, words in cases:
        with pytest.raises(exc, match=words):
            dataset.render(m, [m], tmp_path / "out", **kw)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "x.npz").write_bytes(b"")
    with pytest.raises(mmdkit.FileError, match="output exists"):
        dataset.render(m, [str(tmp_path / "x.vmd")], tmp_path / "out")
    # values of the wrong kind (a new user's finding: a TypeError, 2.5 views drawn as 2)
    for kw, words in ((dict(size=64), r"size must be \(width, height\)"), (dict(views=2.5), "views must be a whole"),
                      (dict(frames=3), r"frames must be \(first, last\)"),
                      (dict(units="m", scale=-1), "scale must be > 0")):
        with pytest.raises(mmdkit.ArgumentError, match=words):
            dataset.render(m, [m], tmp_path / "out3", **kw)
    # a model that does not load fails the call (not each motion), nothing made
    with pytest.raises(mmdkit.Error, match="model.pmx"):
        dataset.render(m, [m], tmp_path / "out2")
    assert not (tmp_path / "out2").exists() and not (tmp_path / "out3").exists()


def test_camera_without_camera_keys_and_unreadable_motions(inputs, tmp_path):
    model, motion = inputs
    # a dance VMD given as the camera (a new user's finding: silently MMD's default camera)
    with pytest.raises(mmdkit.ArgumentError, match="camera: the motion has no camera keys"):
        dataset.render(model, [motion], tmp_path / "a", camera=motion)
    with pytest.raises(mmdkit.ArgumentError, match="camera: not a motion"):
        dataset.render(model, [motion], tmp_path / "a", camera=model)
    assert not (tmp_path / "a").exists()
    # a motion that cannot be read is reported, nothing drawn
    bad = str(tmp_path / "bad.vmd")
    Path(bad).write_bytes(b"nope")
    r = dataset.render(model, [bad], tmp_path / "out")
    assert r.images == 0 and list(r.errors) == [bad] and not (tmp_path / "out" / "coco_coco17.json").exists()


def test_light_jitter_changes_the_light_only(inputs, tmp_path):
    model, motion = inputs
    kw = dict(joints="coco17", views=1, seed=5, frames=(60, 60), size=(64, 64), msaa=1, mask=True)
    dataset.render(model, [motion], tmp_path / "a", **kw)
    dataset.render(model, [motion], tmp_path / "b", light_jitter=True, **kw)
    za, zb = load_npz(tmp_path / "a" / "wavefile_v2.npz"), load_npz(tmp_path / "b" / "wavefile_v2.npz")
    for k in ("joints2d", "visibility", "K", "R", "t"):
        np.testing.assert_array_equal(za[k], zb[k])
    rel = "wavefile_v2/v00/000060.png"
    assert (tmp_path / "a/masks" / rel).read_bytes() == (tmp_path / "b/masks" / rel).read_bytes()
    assert (tmp_path / "a/images" / rel).read_bytes() != (tmp_path / "b/images" / rel).read_bytes()


def test_face_points_are_hidden_from_behind(inputs, tmp_path):
    model, motion = inputs
    behind = tmp_path / "behind.vmd"
    key = {"frame": 0, "distance": -45, "target": [0, 12, 0], "rotation": [0, 3.14159265, 0], "view_angle": 30}
    (behind).write_bytes(mmdkit.from_json(json.dumps({"format": "vmd", "model_name": "カメラ・照明",
                                                      "camera_keys": [key]})).to_bytes())
    kw = dict(joints="coco17", frames=(0, 0), size=(96, 96), msaa=1)
    dataset.render(model, [motion], tmp_path / "front", **kw)  # MMD's default camera: in front
    dataset.render(model, [motion], tmp_path / "back", camera=behind, **kw)
    front = load_npz(tmp_path / "front" / "wavefile_v2.npz")["visibility"][0, 0]
    back = load_npz(tmp_path / "back" / "wavefile_v2.npz")["visibility"][0, 0]
    assert list(front[:3]) == [2, 2, 2] and list(back[:3]) == [1, 1, 1]  # nose, eyes
    assert 2 in back[5:7]  # a shoulder is seen from behind (the other behind a twin tail here)
