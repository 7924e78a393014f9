"""mmdkit.Evaluator equals `mmdkit sample` bit for bit (same pipeline), fills NumPy memory once."""
from __future__ import annotations

import struct
import subprocess

import numpy as np
import pytest

import mmdkit
from conftest import MEI, MIKU, WAVEFILE, cli_path, corpus_dir, corpus_file


def sample_binary(model, motions, frames, extra=()):
    """Runs `mmdkit sample --format binary --morphs` and parses its layout (src/cli/cmd_sample.hpp):
    'MMDKSMP1', u32 version, frames, bones, morphs, camera, reserved; per bone u32 index, u32
    length, name; per morph the same; per frame f64 frame, bones x 16 f32 (column-major), morphs f32."""
    out = subprocess.run([str(cli_path()), "sample", str(model), *map(str, motions), "--frames", frames,
                          "--format", "binary", "--morphs", "-o", "-", *extra], capture_output=True, check=True).stdout
    assert out[:8] == b"MMDKSMP1"
    _, nf, nb, nm, cam, _ = struct.unpack_from("<6I", out, 8)
    off = 32
    names = []
    for _ in range(nb):
        _, n = struct.unpack_from("<2I", out, off)
        names.append(out[off + 8:off + 8 + n].decode())
        off += 8 + n
    morphs = []
    for _ in range(nm):
        _, n = struct.unpack_from("<2I", out, off)
        morphs.append(out[off + 8:off + 8 + n].decode())
        off += 8 + n
    rec = np.dtype([("frame", "<f8"), ("m", "<f4", (nb, 16)), ("w", "<f4", (nm,))])
    data = np.frombuffer(out, rec, count=nf, offset=off)
    return names, morphs, data


def assert_equal_to_cli(model, motions, frames):
    names, morphs, cli = sample_binary(model, motions, frames)
    ev = mmdkit.Evaluator(model, motions)
    s = ev.sample(cli["frame"])
    assert s.bone_names == names and s.morph_names == morphs
    cm = cli["m"].reshape(len(cli), len(names), 4, 4)              # [column, row]
    np.testing.assert_array_equal(s.matrices, cm.transpose(0, 1, 3, 2))   # bit for bit
    np.testing.assert_array_equal(s.positions, cm[:, :, 3, :3])
    np.testing.assert_array_equal(s.morph_weights, cli["w"])
    return ev, s


def test_miku_wavefile_equals_cli():
    model, motion = corpus_file(MIKU), corpus_file(WAVEFILE)
    ev, s = assert_equal_to_cli(model, [motion], "0-2809:7")
    assert s.positions.shape == (402, len(ev.bone_names), 3)
    # rotations: `mmdkit sample` JSON quaternions (normalized model rotations)
    import json
    out = subprocess.run([str(cli_path()), "sample", str(model), str(motion), "--frames", "0,601.5,2809", "-o", "-"],
                         capture_output=True, check=True, text=True).stdout
    doc = json.loads(out)
    s2 = ev.sample([0, 601.5, 2809])
    for f, fr in enumerate(doc["frames"]):
        q = np.asarray([b["quaternion"] for b in fr["bones"]], dtype=np.float32)
        np.testing.assert_array_equal(s2.rotations[f], q)


def test_mei_pairs_equal_cli():
    mei = corpus_file(MEI)
    motions = sorted((corpus_dir() / "mmdagent__mmdagent-mirror/MMDAgent_Example/Motion").glob("mei_*/*.vmd"))
    assert len(motions) >= 15
    for m in motions:
        assert_equal_to_cli(mei, [m], "0-400:3")


def test_objects_equal_paths_and_pose_shapes():
    model, motion = corpus_file(MIKU), corpus_file(WAVEFILE)
    a = mmdkit.Evaluator(model, [motion]).sample([0, 100, 1000.25])
    b = mmdkit.Evaluator(mmdkit.read(model), [mmdkit.read(motion)]).sample([0, 100, 1000.25])
    np.testing.assert_array_equal(a.matrices, b.matrices)
    ev = mmdkit.Evaluator(model, [motion])
    posed = ev.pose(600)
    n = len(mmdkit.read(model).vertices)
    assert posed.positions.shape == (n, 3) and posed.normals.shape == (n, 3)
    assert posed.positions.flags.owndata  # one copy out of the pipeline's buffer
    rest = mmdkit.Evaluator(model).pose(0).positions
    # no motion: the bind pose (skinning matrices are identity up to float rounding)
    np.testing.assert_allclose(rest, mmdkit.read(model).vertices.positions, rtol=0, atol=1e-5)


def test_arrays_are_filled_in_place():
    ev = mmdkit.Evaluator(corpus_file(MIKU), [corpus_file(WAVEFILE)], geometry=False)
    frames = np.arange(10, dtype=np.float64)
    bones = ev.bone_indices(["センター", "頭"])
    pos = np.zeros((10, 2, 3), np.float32)
    before = pos.__array_interface__["data"][0]
    ev.sample_into(frames, bones, positions=pos)
    assert pos.__array_interface__["data"][0] == before
    np.testing.assert_array_equal(pos, ev.sample(frames, ["センター", "頭"]).positions)
    with pytest.raises(mmdkit.ArgumentError):
        ev.sample_into(frames, bones, positions=np.zeros((10, 2, 3), np.float64))
    with pytest.raises(mmdkit.ArgumentError):
        ev.sample([0], ["no such bone"])
    with pytest.raises(mmdkit.ArgumentError):
        ev.pose(0)  # geometry=False


def test_physics_equals_the_cli():
    """physics=True: the frames of `mmdkit sample --physics` bit for bit (both simulate from frame
    0), different from the sample without physics (miku_v2's hair moves), whole frames only."""
    model, motion = corpus_file(MIKU), corpus_file(WAVEFILE)
    version = subprocess.run([str(cli_path()), "--version"], capture_output=True, text=True).stdout
    if "physics yes" not in version:
        pytest.skip("mmdkit was built without the physics layer (MMDKIT_WITH_PHYSICS=OFF)")
    names, _, cli = sample_binary(model, [motion], "40,10", extra=("--physics",))
    ev = mmdkit.Evaluator(model, [motion], physics=True)
    s = ev.sample([40, 10])
    np.testing.assert_array_equal(s.matrices, np.transpose(cli["m"].reshape(2, len(names), 4, 4), (0, 1, 3, 2)))
    plain = mmdkit.Evaluator(model, [motion]).sample([40])
    assert np.abs(plain.positions[0] - s.positions[0]).max() > 1e-3
    with pytest.raises(mmdkit.ArgumentError):
        ev.sample([2.5])
    with pytest.raises(mmdkit.ArgumentError):
        mmdkit.Evaluator(model, [motion], physics=True, physics_fps=90)


def test_errors_carry_the_motion_file(tmp_path):
    bad = tmp_path / "bad.vmd"
    bad.write_bytes(corpus_file(WAVEFILE).read_bytes()[:200])
    with pytest.raises(mmdkit.FormatError) as e:
        mmdkit.Evaluator(corpus_file(MIKU), [bad])
    assert e.value.file == str(bad) and e.value.section == "bone keyframes"


def test_negative_frames_are_refused_with_a_value_error():
    ev = mmdkit.Evaluator(corpus_file(MIKU), [corpus_file(WAVEFILE)])
    with pytest.raises(ValueError) as e:
        ev.sample([0, 5, -1])
    assert isinstance(e.value, mmdkit.ArgumentError)
    assert "negative" in str(e.value) and "frames[2]" in str(e.value)
    with pytest.raises(mmdkit.ArgumentError, match="negative"):
        ev.pose(-0.5)
    nb = len(ev.bone_names)
    pos = np.full((1, nb, 3), 7, np.float32)
    with pytest.raises(mmdkit.ArgumentError, match="negative"):   # the low-level form too
        ev.sample_into(np.array([-3.0]), np.arange(nb, dtype=np.int32), pos)
    assert (pos == 7).all()  # refused before anything was evaluated
    s = ev.sample([0.0, 0.5])  # frame 0 and fractional frames are fine
    assert s.positions.shape == (2, nb, 3)
