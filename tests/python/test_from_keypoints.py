"""`mmdkit from-keypoints` with keypoint files written by NumPy itself (np.save / np.savez): the
joints of a real motion (from `mmdkit sample`, as python/mmdkit/joints.py's smpl24 set, in metres,
right-handed) → VMD → `mmdkit sample` again: MPJPE below the bound of docs/KEYPOINTS.md; bad
inputs exit 1 / 2 with the error named (issue 17 parts 4-6)."""
from __future__ import annotations

import json
import subprocess

import numpy as np
import pytest

from conftest import MIKU, WAVEFILE, cli_path, corpus_file

SMPL = [("左足", "右足"), ("左足",), ("右足",), ("上半身",), ("左ひざ",), ("右ひざ",), ("上半身2",), ("左足首",),
        ("右足首",), ("左肩", "右肩"), ("左つま先",), ("右つま先",), ("首",), ("左肩",), ("右肩",), ("頭",),
        ("左腕",), ("右腕",), ("左ひじ",), ("右ひじ",), ("左手首",), ("右手首",), ("左中指１",), ("右中指１",)]


def run(*args, code=0):
    r = subprocess.run([str(cli_path()), *map(str, args)], capture_output=True, text=True)
    assert r.returncode == code, r.stderr
    return r


def joints(model, motion, frames, tmp_path):
    out = tmp_path / "s.json"
    run("sample", model, motion, "--frames", frames, "-o", out, "--quiet", "--force")
    s = json.loads(out.read_text(encoding="utf-8"))
    ix = {b["name"]: i for i, b in enumerate(s["frames"][0]["bones"])}
    spec = [j if all(b in ix for b in j) else (("上半身", "首") if j == ("上半身2",) else ("左手首",) if j == ("左中指１",)
            else ("右手首",)) for j in SMPL]
    return np.array([[np.mean([f["bones"][ix[b]]["position"] for b in j], axis=0) for j in spec] for f in s["frames"]])


@pytest.mark.parametrize("smooth", [False, True])
def test_round_trip_mpjpe_with_numpy_files(tmp_path, smooth):
    m, v = corpus_file(MIKU), corpus_file(WAVEFILE)
    ref = joints(m, v, "0-300", tmp_path)                  # MMD space, MMD units
    metres = ref * np.array([1, 1, -1]) * 0.08             # right-handed metres (the default --axes)
    np.savez(tmp_path / "kp.npz", joints3d=metres)
    out = tmp_path / "out.vmd"
    args = ["from-keypoints", tmp_path / "kp.npz", "--layout", "smpl24", "--model", m, "-o", out]
    if smooth:
        args.append("--smooth")
    run(*args)
    got = joints(m, out, "0-300", tmp_path)
    ok = np.isfinite(ref).all(axis=2)
    mpjpe = np.linalg.norm(got - ref, axis=2)[ok].mean()
    print(f"smpl24 {'smoothed' if smooth else 'raw'} MPJPE {mpjpe:.4f} units")
    assert mpjpe < (0.5 if smooth else 0.35)


def test_bad_inputs(tmp_path):
    m = corpus_file(MIKU)
    out = tmp_path / "o.vmd"
    np.save(tmp_path / "flat.npy", np.zeros((10, 24), np.float32))
    r = run("from-keypoints", tmp_path / "flat.npy", "--layout", "smpl24", "--model", m, "-o", out, code=1)
    assert "shape (10, 24)" in r.stderr
    np.save(tmp_path / "k.npy", np.zeros((10, 17, 3), np.float32))
    r = run("from-keypoints", tmp_path / "k.npy", "--layout", "smpl24", "--model", m, "-o", out, code=1)
    assert "layout smpl24 has 24 joints, the array 17" in r.stderr
    r = run("from-keypoints", tmp_path / "k.npy", "--layout", "body25", "--model", m, "-o", out, code=2)
    assert "--layout 'body25'" in r.stderr
    a = np.random.default_rng(1).normal(size=(5, 17, 3))
    a[:, 13, :] = np.nan                                   # left wrist never seen
    np.save(tmp_path / "nan.npy", a)
    r = run("from-keypoints", tmp_path / "nan.npy", "--layout", "h36m17", "--model", m, "-o", out, code=1)
    assert "joint 13 'left_wrist' has no valid position in any frame" in r.stderr
    np.savez_compressed(tmp_path / "c.npz", keypoints=np.zeros((2, 17, 3)))
    r = run("from-keypoints", tmp_path / "c.npz", "--layout", "h36m17", "--model", m, "-o", out, code=1)
    assert "np.savez_compressed" in r.stderr
    assert not out.exists()
