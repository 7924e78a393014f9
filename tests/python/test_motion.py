"""mmdkit.motion: every operation's result has the bytes the CLI writes for the same operation
(`mmdkit motion OP`, `convert` with BVH, `from-keypoints`), on files the CLI generated; argument
errors are ArgumentError, bad input names the place. The values themselves are checked by the
CLI tests (tests/cli/motion_cli_test.cpp) independently of both."""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

import mmdkit
from conftest import cli_path


def run(*args, code=0):
    r = subprocess.run([str(cli_path()), *map(str, args)], capture_output=True, text=True)
    assert r.returncode == code, r.stderr
    return r


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("motion")
    run("generate", "pmx", "-o", d / "h.pmx", "--vertices", "0", "--morphs", "8")
    run("generate", "vmd", "-o", d / "g.vmd", "--frames", "120", "--bone-keys", "400", "--morph-keys", "60",
        "--camera-keys", "12", "--light-keys", "6", "--seed", "7")
    # a 1.25 times larger humanoid (bone heads and tail offsets scaled through the NumPy views)
    big = mmdkit.read(d / "h.pmx")
    big.bones.positions[:] *= 1.25
    big.bones.tail_offsets[:] *= 1.25
    big.write(str(d / "big.pmx"))
    return d


def cli_bytes(d, *args):
    # the extension the command writes (motion operations refuse another): a pose from a motion's
    # frame is a .vpd, everything else here a .vmd
    pose = args[:2] == ("motion", "vpd") and str(args[2]).endswith(".vmd")
    out = d / ("cli.vpd" if pose else "cli.vmd")
    run(*args, "-o", out, "--force")
    return out.read_bytes()


def test_edit_operations_equal_the_cli(files):
    d = files
    g = mmdkit.read(d / "g.vmd")
    before = g.to_bytes()
    cases = [
        (("motion", "trim", d / "g.vmd", "--frames", "30-90"), mmdkit.motion.trim(g, 30, 90)),
        (("motion", "trim", d / "g.vmd", "--frames", "30-90", "--exact"), mmdkit.motion.trim(g, 30, 90, exact=True)),
        (("motion", "shift", d / "g.vmd", "--by", "7"), mmdkit.motion.shift(g, 7)),
        (("motion", "shift", d / "g.vmd", "--by", "-5", "--clamp"), mmdkit.motion.shift(g, -5, clamp=True)),
        (("motion", "mirror", d / "g.vmd"), mmdkit.motion.mirror(g)),
        (("motion", "mirror", d / "g.vmd", "--morph-names"), mmdkit.motion.mirror(g, morph_names=True)),
        (("motion", "resample", d / "g.vmd", "--fps", "60", "--every", "2"), mmdkit.motion.resample(g, fps=60, every=2)),
        (("motion", "filter", d / "g.vmd", "--bones", "センター,上半身", "--no-camera"),
         mmdkit.motion.filter(g, bones=["センター", "上半身"], camera=False)),
        (("motion", "filter", d / "g.vmd", "--drop-bones", "センター", "--no-light", "--no-property"),
         mmdkit.motion.filter(g, drop_bones=["センター"], light=False, property=False)),
    ]
    for args, got in cases:
        assert isinstance(got, mmdkit.Motion)
        assert got.to_bytes() == cli_bytes(d, *args), args
    assert g.to_bytes() == before  # the input is not changed


def test_merge_reduce_rename_with_reports(files):
    d = files
    g = mmdkit.read(d / "g.vmd")
    s = mmdkit.motion.shift(g, 7)
    s.write(str(d / "s.vmd"), force=True)
    m, rep = mmdkit.motion.merge(g, s, report=True)
    assert m.to_bytes() == cli_bytes(d, "motion", "merge", d / "g.vmd", d / "s.vmd")
    m, rep = mmdkit.motion.merge(g, g, report=True)  # every key of A meets B's on its frame
    out = run("motion", "merge", d / "g.vmd", d / "g.vmd", "-o", d / "gg.vmd", "--force").stderr  # the summary line
    assert m.to_bytes() == (d / "gg.vmd").read_bytes()
    assert f"{rep['replaced']} of A replaced" in out and rep["replaced"] > 0
    baked = mmdkit.motion.resample(g)
    baked.write(str(d / "b.vmd"), force=True)
    r, rep = mmdkit.motion.reduce(baked, tol_deg=0.2, report=True)
    assert r.to_bytes() == cli_bytes(d, "motion", "reduce", d / "b.vmd", "--tol-deg", "0.2")
    assert rep["bone_keys_out"] < rep["bone_keys_in"] and rep["max_rotation_error_deg"] <= 0.2
    (d / "map.tsv").write_text("センター\tCenter\n上半身\t上半身X\nnothing\tx\n", encoding="utf-8")
    want = cli_bytes(d, "motion", "rename", d / "g.vmd", "--map", d / "map.tsv")
    got, unused = mmdkit.motion.rename(g, d / "map.tsv", report=True)
    assert got.to_bytes() == want and unused == ["nothing"]
    assert mmdkit.motion.rename(g, {"センター": "Center", "上半身": "上半身X"}).to_bytes() == want


def test_pose_both_ways_and_fit_equal_the_cli(files):
    d = files
    g = mmdkit.read(d / "g.vmd")
    pose = mmdkit.motion.to_pose(g, str(d / "h.pmx"), 23.5)
    assert isinstance(pose, mmdkit.Pose)
    assert pose.to_bytes() == cli_bytes(d, "motion", "vpd", d / "g.vmd", "--model", d / "h.pmx", "--frame", "23.5")
    pose.write(str(d / "p.vpd"), force=True)
    assert mmdkit.motion.from_pose(pose, 3).to_bytes() == cli_bytes(d, "motion", "vpd", d / "p.vpd", "--frame", "3")
    # the model given as an object too
    assert mmdkit.motion.to_pose(g, mmdkit.read(d / "h.pmx"), 23.5, model_file="h.pmx").to_bytes() == pose.to_bytes()
    f, rep = mmdkit.motion.fit(g, d / "h.pmx", d / "big.pmx", report=True)
    assert f.to_bytes() == cli_bytes(d, "motion", "fit", d / "g.vmd", "--from", d / "h.pmx", "--to", d / "big.pmx")
    assert rep["xz_ratio"] == pytest.approx(1.25, abs=1e-6) and rep["y_ratio"] == pytest.approx(1.25, abs=1e-6)
    f2 = mmdkit.motion.fit(g, d / "h.pmx", d / "big.pmx", legs=False, arms=False)
    assert f2.to_bytes() == cli_bytes(d, "motion", "fit", d / "g.vmd", "--from", d / "h.pmx", "--to", d / "big.pmx",
                                      "--no-legs", "--no-arms")


def test_bvh_both_ways_equal_the_cli(files):
    d = files
    g = mmdkit.read(d / "g.vmd")
    bvh = mmdkit.motion.to_bvh(d / "h.pmx", g)
    run("convert", d / "g.vmd", d / "c.bvh", "--model", d / "h.pmx", "--force")
    assert bvh.to_text() == (d / "c.bvh").read_text(encoding="utf-8")
    assert bvh.frame_count == 121 and bvh.values.shape == (121, sum(len(c) for c in bvh.channels))
    assert len(bvh.joint_names) == len(bvh.parents) == bvh.offsets.shape[0]
    part = mmdkit.motion.to_bvh(d / "h.pmx", g, first=10, last=20, scale=0.08, ik=False)
    run("convert", d / "g.vmd", d / "p.bvh", "--model", d / "h.pmx", "--frames", "10-20", "--scale", "0.08", "--no-ik",
        "--force")
    assert part.to_text() == (d / "p.bvh").read_text(encoding="utf-8")
    mmdkit.motion.write_bvh(bvh, d / "w.bvh", force=True)
    back = mmdkit.motion.from_bvh(d / "w.bvh", d / "h.pmx")
    run("convert", d / "c.bvh", d / "c.vmd", "--model", d / "h.pmx", "--force")
    assert back.to_bytes() == (d / "c.vmd").read_bytes()
    with pytest.raises(mmdkit.FileError):
        mmdkit.motion.write_bvh(bvh, d / "w.bvh")
    text = (d / "c.bvh").read_text(encoding="utf-8").rstrip("\n")
    cut = text[: text.rfind(" ")]  # the last frame line loses its last value
    with pytest.raises(mmdkit.Error) as e:
        mmdkit.motion.bvh_from_text(cut + "\n")
    last = bvh.joint_names[-1]  # the last channel belongs to the last joint of the hierarchy
    assert f"frame 120 has {bvh.values.shape[1] - 1} of {bvh.values.shape[1]} values: joint '{last}' misses channel" in str(e.value)


def smpl24_of(model, motion, frames):
    """smpl24 joints (docs/KEYPOINTS.md) of the generated humanoid from mmdkit.Evaluator."""
    s = mmdkit.Evaluator(model, [motion]).sample(frames)
    ix = {n: i for i, n in enumerate(s.bone_names)}
    spec = [("左足", "右足"), ("左足",), ("右足",), ("上半身",), ("左ひざ",), ("右ひざ",), ("上半身", "首"), ("左足首",),
            ("右足首",), ("左肩", "右肩"), ("左つま先",), ("右つま先",), ("首",), ("左肩",), ("右肩",), ("頭",),
            ("左腕",), ("右腕",), ("左ひじ",), ("右ひじ",), ("左手首",), ("右手首",), ("左手首",), ("右手首",)]
    return np.stack([s.positions[:, [ix[b] for b in j], :].mean(axis=1) for j in spec], axis=1)


def test_from_keypoints_equals_the_cli(files):
    d = files
    k = (smpl24_of(str(d / "h.pmx"), str(d / "g.vmd"), range(0, 60)) * np.array([1, 1, -1]) * 0.08).astype(np.float32)
    k[10:14, 20, :] = np.nan  # a wrist missing for 4 frames: held
    np.save(d / "k.npy", k)
    got, rep = mmdkit.motion.from_keypoints(k, "smpl24", d / "h.pmx", report=True)
    assert got.to_bytes() == cli_bytes(d, "from-keypoints", d / "k.npy", "--layout", "smpl24", "--model", d / "h.pmx")
    assert rep["missing"] == 4 and rep["frames"] == 60
    got = mmdkit.motion.from_keypoints(k, "smpl24", d / "h.pmx", smooth=True, leg_ik=False, scale=0.08)
    assert got.to_bytes() == cli_bytes(d, "from-keypoints", d / "k.npy", "--layout", "smpl24", "--model", d / "h.pmx",
                                       "--smooth", "--no-leg-ik", "--scale", "0.08")


def test_argument_errors(files):
    d = files
    g = mmdkit.read(d / "g.vmd")
    with pytest.raises(mmdkit.ArgumentError):
        mmdkit.motion.trim(g, 40, 10)
    with pytest.raises(mmdkit.ArgumentError):
        mmdkit.motion.resample(g, every=0)
    with pytest.raises(mmdkit.ArgumentError):
        mmdkit.motion.shift("g.vmd", 1)  # not a Motion
    with pytest.raises(mmdkit.Error) as e:
        mmdkit.motion.shift(g, -5)
    assert "before frame 0" in str(e.value)
    with pytest.raises(mmdkit.ArgumentError) as e:
        mmdkit.motion.from_keypoints(np.zeros((10, 24)), "smpl24", d / "h.pmx")
    assert "shape (10, 24)" in str(e.value)
    with pytest.raises(mmdkit.ArgumentError) as e:
        mmdkit.motion.from_keypoints(np.zeros((2, 17, 3)), "body25", d / "h.pmx")
    assert "body25" in str(e.value)
    with pytest.raises(mmdkit.Error) as e:
        mmdkit.motion.from_keypoints(np.zeros((2, 17, 3)), "smpl24", d / "h.pmx")
    assert "layout smpl24 has 24 joints, the array 17" in str(e.value)
    (d / "bad.tsv").write_text("ok\tfine\nno tab\n", encoding="utf-8")
    with pytest.raises(mmdkit.Error) as e:
        mmdkit.motion.rename(g, d / "bad.tsv")
    assert e.value.file == str(d / "bad.tsv")


def test_rename_onto_an_existing_track_is_refused_unless_merge(files):
    d = files
    g = mmdkit.read(d / "g.vmd")
    with pytest.raises(mmdkit.FormatError, match="'センター' -> '上半身': the motion already has a bone track '上半身'"):
        mmdkit.motion.rename(g, {"センター": "上半身"})
    swapped = mmdkit.motion.rename(g, {"センター": "上半身", "上半身": "センター"})  # a swap is fine
    names = g.bone_names
    assert swapped.bone_names == ["上半身" if n == "センター" else "センター" if n == "上半身" else n for n in names]
    (d / "onto.tsv").write_text("センター\t上半身\n", encoding="utf-8")
    merged = mmdkit.motion.rename(g, {"センター": "上半身"}, merge=True)
    assert merged.to_bytes() == cli_bytes(d, "motion", "rename", d / "g.vmd", "--map", d / "onto.tsv", "--merge")


def test_write_refuses_an_extension_it_does_not_write(files, tmp_path):
    g = mmdkit.read(files / "g.vmd")
    for write in (lambda p: mmdkit.write(g, p), lambda p: g.write(str(p))):
        with pytest.raises(mmdkit.ArgumentError, match=r"a VMD motion converts only to \.vmd or \.json, not \.pmx"):
            write(tmp_path / "x.pmx")
        assert not (tmp_path / "x.pmx").exists()
    g.write(str(tmp_path / "x.json"))  # its JSON, as mmdkit.write
    assert mmdkit.read(tmp_path / "x.json").to_bytes() == g.to_bytes()
    mmdkit.write(g, tmp_path / "x.vmd")
    assert (tmp_path / "x.vmd").read_bytes() == (files / "g.vmd").read_bytes()
    h = mmdkit.read(files / "h.pmx")
    with pytest.raises(mmdkit.ArgumentError, match=r"a PMX model converts only to \.pmx or \.json, not \.vmd"):
        h.write(str(tmp_path / "h.vmd"))
    assert not (tmp_path / "h.vmd").exists()
