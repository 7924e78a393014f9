"""mmdkit.dataset: smpl24 joints, units, failures, memory, Dask equal to serial, the CLI."""
from __future__ import annotations

import os
import subprocess
import sys
import tracemalloc

import numpy as np
import pytest

import mmdkit
from mmdkit import dataset
from mmdkit.joints import SMPL24
from conftest import MEI, MIKU, WAVEFILE, ROOT, corpus_dir, corpus_file


def mei_motions(n=None):
    if corpus_dir() is None:
        pytest.skip("the corpus (../shared/corpus or $MMDKIT_CORPUS) is not here")
    ms = sorted((corpus_dir() / "mmdagent__mmdagent-mirror/MMDAgent_Example/Motion").glob("mei_*/*.vmd"))
    return ms[:n] if n else ms


def test_smpl24_joints_are_the_mapped_bones():
    model, motion = corpus_file(MIKU), corpus_file(WAVEFILE)
    [r] = dataset.extract([motion], model, joints="smpl24")
    assert r.ok, r.error
    assert r.names == SMPL24.names and len(r.names) == 24
    assert r.positions.shape == (2810, 24, 3) and r.rotations.shape == (2810, 24, 4)
    np.testing.assert_array_equal(r.frames, np.arange(2810.0))
    s = mmdkit.Evaluator(model, [motion]).sample(r.frames, ["左ひざ", "右足", "左足", "下半身", "頭"],
                                                 matrices=False, morphs=False)
    np.testing.assert_array_equal(r.positions[:, r.names.index("left_knee")], s.positions[:, 0])
    np.testing.assert_array_equal(r.positions[:, r.names.index("head")], s.positions[:, 4])
    pelvis = (s.positions[:, 1:3].mean(axis=1, dtype=np.float32))
    np.testing.assert_array_equal(r.positions[:, 0], pelvis)                  # mean of the hip joints
    np.testing.assert_array_equal(r.rotations[:, 0], s.rotations[:, 3])       # rotation of 下半身
    # left is +X in MMD (the model's left), as in SMPL
    assert np.median(r.positions[:, 1, 0] - r.positions[:, 2, 0]) > 0


def test_keypoint_layouts_are_points_on_the_bones(tmp_path):
    # coco17 / h36m17 / mediapipe33 without --render: the points dataset --render projects, no
    # rotations; knees, hips and eyes are the bones docs/KEYPOINTS.md names, ears have no bone (NaN)
    model, motion = corpus_file(MIKU), corpus_file(WAVEFILE)
    frames = [0, 300, 1200]
    [r] = dataset.extract(motion, model, joints="coco17", frames=frames, morphs=True)
    assert r.ok, r.error
    assert r.names[:3] == ["nose", "left_eye", "right_eye"] and len(r.names) == 17
    assert r.positions.shape == (3, 17, 3) and r.rotations is None
    s = mmdkit.Evaluator(model, [motion]).sample(frames, ["左ひざ", "右足", "左目"], matrices=False)
    np.testing.assert_array_equal(r.positions[:, r.names.index("left_knee")], s.positions[:, 0])
    np.testing.assert_array_equal(r.positions[:, r.names.index("right_hip")], s.positions[:, 1])
    np.testing.assert_array_equal(r.positions[:, r.names.index("left_eye")], s.positions[:, 2])
    assert np.isnan(r.positions[:, r.names.index("left_ear")]).all()
    np.testing.assert_array_equal(r.morph_weights, s.morph_weights)          # morphs as for bones
    [m] = dataset.extract(motion, model, joints="coco17", frames=frames, units="m")
    expect = r.positions * np.float32(0.08)
    expect[..., 2] *= -1
    np.testing.assert_array_equal(m.positions, expect)
    with pytest.raises(mmdkit.Error, match="keypoint layouts: coco17, h36m17, mediapipe33"):
        dataset.extract(motion, model, joints="coco18")
    for layout, count in (("h36m17", 17), ("mediapipe33", 33)):
        [k] = dataset.extract(motion, model, joints=layout, frames=frames)
        assert k.ok and k.positions.shape == (3, count, 3) and k.rotations is None
    # the command writes no rotations for a layout
    out = tmp_path / "k.npz"
    run = subprocess.run([sys.executable, "-m", "mmdkit", "dataset", str(model), str(motion), "-o", str(out),
                          "--joints", "coco17", "--frames", "0,300,1200"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    z = np.load(out)
    stem = motion.stem
    assert f"{stem}/rotations" not in z.files and list(z[f"{stem}/names"]) == r.names
    np.testing.assert_array_equal(z[f"{stem}/positions"], r.positions)


def test_metres_right_handed_and_fps():
    model, motion = corpus_file(MIKU), corpus_file(WAVEFILE)
    [mmd] = dataset.extract(motion, model, joints="smpl24", frames=[0, 300, 1200])
    [m] = dataset.extract(motion, model, joints="smpl24", frames=[0, 300, 1200], units="m")
    expect = mmd.positions * np.float32(0.08)
    expect[..., 2] *= -1
    np.testing.assert_array_equal(m.positions, expect)
    np.testing.assert_array_equal(m.rotations[..., :2], -mmd.rotations[..., :2])
    np.testing.assert_array_equal(m.rotations[..., 2:], mmd.rotations[..., 2:])
    assert 1.0 < float(m.positions[0, 15, 1] - m.positions[0, 7, 1]) < 2.0  # head above ankle: a person's height
    [h] = dataset.extract(motion, model, bones=["センター"], fps=60)
    assert len(h.frames) == 2 * 2809 + 1 and h.frames[1] == 0.5


def test_a_failing_file_does_not_stop_the_rest(tmp_path):
    bad = tmp_path / "broken.vmd"
    bad.write_bytes(b"Vocaloid Motion Data 0002\0" + b"\0" * 30)
    ms = mei_motions(2)
    rs = dataset.extract([ms[0], bad, tmp_path / "missing.vmd", ms[1]], corpus_file(MEI), joints="smpl24")
    assert [r.ok for r in rs] == [True, False, False, True]
    assert isinstance(rs[1].error, mmdkit.FormatError) and rs[1].error.file == str(bad)
    assert isinstance(rs[2].error, mmdkit.FileError)
    with pytest.raises(mmdkit.ArgumentError):
        dataset.extract(ms[:1], corpus_file(MEI), joints="smpl99")


def test_memory_of_a_7000_frame_extraction():
    model, motion = corpus_file(MIKU), corpus_file(WAVEFILE)
    opts = dataset._options(**dataset._defaults(dict(frames=np.arange(7000.0), joints="smpl24")))
    tracemalloc.start()
    try:
        r = dataset.extract_one(str(motion), str(model), opts)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert r.ok, r.error
    out = r.positions.nbytes + r.rotations.nbytes
    assert out == 7000 * 24 * 7 * 4
    assert peak <= 1.5 * (out + opts["frames"].nbytes), (peak, out)


def test_dask_two_workers_equal_serial():
    distributed = pytest.importorskip("distributed")
    model = corpus_file(MEI)
    motions = [str(m) for m in mei_motions()] + ["/nonexistent/x.vmd"]
    serial = dataset.extract(motions, model, joints="smpl24", units="m", morphs=True)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        parallel = dataset.extract(motions, str(model), joints="smpl24", units="m", morphs=True, client=client)
    assert len(parallel) == len(serial)
    for a, b in zip(serial, parallel):
        assert a.motion == b.motion and a.ok == b.ok
        if a.ok:
            for k in ("frames", "positions", "rotations", "morph_weights"):
                assert getattr(a, k).tobytes() == getattr(b, k).tobytes()   # bit for bit
        else:
            assert type(a.error) is type(b.error) and str(a.error) == str(b.error)


def test_cli_writes_npz(tmp_path):
    ms = mei_motions(3)
    out = tmp_path / "out.npz"
    env = dict(os.environ)
    r = subprocess.run([sys.executable, "-m", "mmdkit", "dataset", str(corpus_file(MEI)), *map(str, ms),
                        "-o", str(out), "--joints", "smpl24", "--units", "m"], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    z = np.load(out)
    ref = dataset.extract(ms, corpus_file(MEI), joints="smpl24", units="m")
    for m, rr in zip(ms, ref):
        np.testing.assert_array_equal(z[f"{m.stem}/positions"], rr.positions)
        assert list(z[f"{m.stem}/names"]) == SMPL24.names
    again = subprocess.run([sys.executable, "-m", "mmdkit", "dataset", str(corpus_file(MEI)), str(ms[0]),
                            "-o", str(out)], capture_output=True, text=True, env=env)
    assert again.returncode == 1 and "use --force to replace it" in again.stderr
    assert "force=True" not in again.stderr  # the command's option, not the Python keyword
    usage = subprocess.run([sys.executable, "-m", "mmdkit", "dataset", str(corpus_file(MEI))],
                           capture_output=True, text=True, env=env)
    assert usage.returncode == 2
    # --fps beside --frames would be ignored (--frames lists 30 fps frames): refused, nothing written.
    both = subprocess.run([sys.executable, "-m", "mmdkit", "dataset", str(corpus_file(MEI)), str(ms[0]),
                           "-o", str(tmp_path / "both.npz"), "--frames", "0-10", "--fps", "15"],
                          capture_output=True, text=True, env=env)
    assert both.returncode == 2 and "--fps and --frames exclude each other" in both.stderr, both.stderr
    assert not (tmp_path / "both.npz").exists()
    folder = tmp_path / "many"
    bad = tmp_path / "bad.vmd"
    bad.write_bytes(b"nope")
    r = subprocess.run([sys.executable, "-m", "mmdkit", "dataset", str(corpus_file(MEI)), str(ms[0]), str(bad),
                        "-o", str(folder)], capture_output=True, text=True, env=env)
    assert r.returncode == 1 and "bad.vmd" in r.stderr
    assert sorted(os.listdir(folder)) == [f"{ms[0].stem}.npz"]


def test_mmdkit_dataset_command_runs_the_python_command(tmp_path):
    from conftest import cli_path
    ms = mei_motions(2)
    out = tmp_path / "cli.npz"
    r = subprocess.run([str(cli_path()), "dataset", str(corpus_file(MEI)), *map(str, ms), "-o", str(out),
                        "--joints", "smpl24", "--fps", "15"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    z = np.load(out)
    [ref] = dataset.extract(ms[:1], corpus_file(MEI), joints="smpl24", fps=15)
    np.testing.assert_array_equal(z[f"{ms[0].stem}/positions"], ref.positions)
    np.testing.assert_array_equal(z[f"{ms[0].stem}/frames"], np.arange(len(ref.frames)) * 2.0)
    h = subprocess.run([str(cli_path()), "dataset", "--help"], capture_output=True, text=True)
    assert h.returncode == 0 and "--joints" in h.stdout
    # `mmdkit help dataset` is the same page (a new user's finding: it printed the usage line only)
    h2 = subprocess.run([str(cli_path()), "help", "dataset"], capture_output=True, text=True)
    assert h2.returncode == 0 and h2.stdout == h.stdout
    u = subprocess.run([str(cli_path()), "dataset", str(corpus_file(MEI))], capture_output=True, text=True)
    assert u.returncode == 2
    none = subprocess.run([str(cli_path()), "dataset", str(corpus_file(MEI)), str(tmp_path / "missing.vmd"),
                           "-o", str(tmp_path / "none.npz")], capture_output=True, text=True)
    assert none.returncode == 1 and "missing.vmd" in none.stderr and not (tmp_path / "none.npz").exists()


def test_cli_output_errors_name_the_output_not_a_temporary_file(tmp_path):
    ms = mei_motions(1)
    out = tmp_path / "no" / "such" / "folder" / "out.npz"
    r = subprocess.run([sys.executable, "-m", "mmdkit", "dataset", str(corpus_file(MEI)), str(ms[0]),
                        "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 1
    assert "does not exist" in r.stderr and str(out) in r.stderr
    assert ".tmp" not in r.stderr and "Traceback" not in r.stderr
    assert not any(tmp_path.rglob("*.tmp*"))
    # the Python API: FileError naming the output, force=True wording
    res = dataset.extract(ms, corpus_file(MEI), joints="smpl24")
    with pytest.raises(mmdkit.FileError) as e:
        dataset.save(res, out)
    assert e.value.file == str(out) and ".tmp" not in str(e.value)
    ok = tmp_path / "ok.npz"
    dataset.save(res, ok)
    with pytest.raises(mmdkit.FileError) as e:
        dataset.save(res, ok)
    assert "force=True" in str(e.value)


def test_cli_unreachable_scheduler_is_one_clear_error(tmp_path):
    import socket
    with socket.socket() as s:  # a local port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT="2s")
    r = subprocess.run([sys.executable, "-m", "mmdkit", "dataset", str(corpus_file(MEI)), str(mei_motions(1)[0]),
                        "-o", str(tmp_path / "x.npz"), "--scheduler", f"tcp://127.0.0.1:{port}"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr
    assert f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port}" in r.stderr
    assert not (tmp_path / "x.npz").exists()


def test_cli_warns_about_unmatched_tracks_as_sample_does_and_says_what_it_wrote(tmp_path):
    """Generated files (no corpus): the standard VMD names include 5 bones and 13 morphs a
    generated model of 3 morphs lacks; `dataset` prints sample's two warning lines (one library
    function, anim::unmatched_messages), then the summary line of every writing command; -q
    silences both."""
    from conftest import cli_path
    m, std, own = tmp_path / "m.pmx", tmp_path / "std.vmd", tmp_path / "own.vmd"
    for args in (["pmx", "--vertices", "40", "--morphs", "3", "-o", str(m)],
                 ["vmd", "--bone-keys", "100", "--morph-keys", "32", "--frames", "20", "-o", str(std)],
                 ["vmd", "--model", str(m), "--bone-keys", "60", "--morph-keys", "6", "--frames", "10", "-o", str(own)]):
        assert subprocess.run([str(cli_path()), "generate", *args], capture_output=True).returncode == 0
    s = subprocess.run([str(cli_path()), "sample", str(m), str(std), "--frames", "0", "-o", str(tmp_path / "s.json")],
                       capture_output=True, text=True)
    assert s.returncode == 0, s.stderr
    warnings = [line for line in s.stderr.splitlines() if line.startswith("mmdkit: warning: ")]
    assert len(warnings) == 2 and warnings[0].startswith(f"mmdkit: warning: {std}: 5 bone tracks of the motion match no bone")
    assert warnings[1].startswith(f"mmdkit: warning: {std}: 13 morph tracks of the motion match no morph")
    ev = mmdkit.Evaluator(str(m), [str(std)], geometry=False)
    assert ["mmdkit: warning: " + w for w in ev.unmatched_messages] == warnings
    assert mmdkit.Evaluator(str(m), [str(own)], geometry=False).unmatched_messages == []

    out = tmp_path / "d.npz"
    r = subprocess.run([str(cli_path()), "dataset", str(m), str(std), str(own), "-o", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()
    assert lines[:2] == warnings  # own.vmd binds fully: no line of its own
    # 21 frames (0..20) + 11 frames (0..10), 29 bones (the generated humanoid)
    assert lines[2:] == [f"mmdkit dataset: wrote {out} (2 motions, 32 frames x 29 bones, {os.path.getsize(out)} bytes)"]
    q = subprocess.run([str(cli_path()), "dataset", str(m), str(std), "-o", str(out), "--force", "-q"],
                       capture_output=True, text=True)
    assert q.returncode == 0 and q.stderr == ""
    folder = tmp_path / "f"
    j = subprocess.run([str(cli_path()), "dataset", str(m), str(own), str(tmp_path / "missing.vmd"), "-o", str(folder),
                        "--joints", "smpl24"], capture_output=True, text=True)
    assert j.returncode == 1
    assert j.stderr.splitlines()[-1] == (f"mmdkit dataset: wrote {folder / 'own.npz'} (1 motion of 2, 11 frames x "
                                         f"24 joints, {os.path.getsize(folder / 'own.npz')} bytes)")


def test_a_motion_keying_nothing_of_the_model_fails_as_sample_refuses_it(tmp_path):
    """A camera-only motion (generated: no bone, no morph keys): `mmdkit sample` refuses it;
    before, dataset.extract and `mmdkit dataset` returned 91 rest-pose frames without a word.
    Now that file fails with sample's words and the others go on; the Evaluator itself stays
    usable and says so in its warnings. Also on the corpus's camera-only wavefile_camera.vmd."""
    from conftest import cli_path
    m, cam, own = tmp_path / "m.pmx", tmp_path / "cam.vmd", tmp_path / "own.vmd"
    for args in (["pmx", "--vertices", "40", "-o", str(m)],
                 ["vmd", "--bone-keys", "0", "--morph-keys", "0", "--camera-keys", "4", "--frames", "90", "-o", str(cam)],
                 ["vmd", "--model", str(m), "--bone-keys", "60", "--frames", "10", "-o", str(own)]):
        assert subprocess.run([str(cli_path()), "generate", *args], capture_output=True).returncode == 0
    words = f"the motion keys no bone or morph of the model '{m}': every frame would be the rest pose"
    s = subprocess.run([str(cli_path()), "sample", str(m), str(cam), "-o", str(tmp_path / "s.json")],
                       capture_output=True, text=True)
    assert s.returncode == 1 and words in s.stderr

    ev = mmdkit.Evaluator(str(m), [str(cam)], geometry=False)
    assert (ev.keyed_bones, ev.keyed_morphs, ev.camera_keys) == (0, 0, 4)
    assert [(w["file"], w["message"]) for w in ev.warnings] == [
        (str(cam), "the motion keys no bone or morph of the model: every frame is the rest pose (a camera motion)")]
    assert mmdkit.Evaluator(str(m), [str(own)], geometry=False).warnings == []
    assert mmdkit.Evaluator(str(m), [], geometry=False).warnings == []  # the rest pose asked for

    bad, good = dataset.extract([cam, own], str(m))
    assert not bad.ok and bad.positions is None
    assert isinstance(bad.error, mmdkit.Error) and bad.error.file == str(cam)
    assert bad.error.message == words + " (a camera motion: a dataset holds bones and morphs only)"
    last = mmdkit.Evaluator(str(m), [str(own)], geometry=False).last_frame
    assert good.ok and good.positions.shape == (last + 1, 29, 3)  # 0 .. its last key, 29 bones

    out = tmp_path / "d.npz"
    r = subprocess.run([str(cli_path()), "dataset", str(m), str(cam), str(own), "-o", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 1  # a file failed, the others were written
    assert f"mmdkit: error: {cam}: invalid_value: {words}" in r.stderr
    assert sorted(np.load(out).files) == ["own/frames", "own/names", "own/positions", "own/rotations", "own/units"]
    alone = subprocess.run([str(cli_path()), "dataset", str(m), str(cam), "-o", str(tmp_path / "e.npz")],
                           capture_output=True, text=True)
    assert alone.returncode == 1 and not (tmp_path / "e.npz").exists()

    if corpus_dir() is not None:
        real = corpus_dir() / "jomin398__jomin398.github.io/docs/assets/models/mmd/vmds/wavefile_camera.vmd"
        [res] = dataset.extract([real], str(m))
        assert not res.ok and "keys no bone or morph" in str(res.error)


def test_cli_usage_errors_have_the_one_error_form(tmp_path):
    """Every error line is "mmdkit: error: ..." (cli/messages.hpp diagnostic_line); before, the
    dataset command's usage errors were "mmdkit: bad --frames ..." / "mmdkit: invalid_argument: ..."."""
    from conftest import cli_path
    m, own = tmp_path / "m.pmx", tmp_path / "own.vmd"
    for args in (["pmx", "--vertices", "40", "-o", str(m)], ["vmd", "--model", str(m), "--bone-keys", "6", "-o", str(own)]):
        assert subprocess.run([str(cli_path()), "generate", *args], capture_output=True).returncode == 0
    for extra, words in ((["--frames", "x"], "bad --frames 'x'"), (["--bones", "センター", "--joints", "smpl24"], None)):
        r = subprocess.run([str(cli_path()), "dataset", str(m), str(own), "-o", str(tmp_path / "d.npz"), *extra],
                           capture_output=True, text=True)
        assert r.returncode == 2, r.stderr
        last = r.stderr.splitlines()[-1]
        assert last.startswith("mmdkit: error: "), r.stderr
        if words:
            assert words in last
