"""The render farm on Dask (issue 30, "Past one machine"; mmdkit.render_farm and `mmdkit render
--workers N`): PNG frames byte-equal to the single-process render, an MP4 whose frames decode
equal to the segments encoded alone (joined by stream copy, no re-encoding) and close to the
single-process video (the audio muxed once: tests/render/video_test.cpp), a failing task or a
dying worker retried with the output complete, a job
that keeps failing writes nothing. Small: 64x36, 12 frames, one cluster of 2 workers."""
from __future__ import annotations

import json
import os
import subprocess

import numpy as np
import pytest

import mmdkit
from mmdkit import _mmdkit
from conftest import MEI, MIKU, WAVEFILE, cli_path, corpus_file

SIZE = (64, 36)
FRAMES = (0, 11)


@pytest.fixture(scope="module")
def client(gl):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as c:
        yield c


@pytest.fixture(scope="module")
def inputs():
    return str(corpus_file(MIKU)), str(corpus_file(WAVEFILE))


def leftovers(folder):
    return [p for p in os.listdir(folder) if p.startswith(".")]  # temporary files and job folders


def test_png_sequence_byte_equal_to_single_process(client, inputs, tmp_path):
    model, motion = inputs
    r = mmdkit.render_farm(tmp_path / "%03d.png", model, [motion], frames=FRAMES, size=SIZE, physics=False,
                           client=client, chunk=4, quiet=True)
    assert r.frames == 12 and r.ranges == 3 and not r.baked
    single = mmdkit.Renderer(model, [motion], size=SIZE, physics=False)
    for i in range(12):
        assert (tmp_path / f"{i:03d}.png").read_bytes() == single.png(i), i
    assert not leftovers(tmp_path)
    # Existing files are kept unless force=True (checked before anything is drawn).
    with pytest.raises(mmdkit.Error, match="exists"):
        mmdkit.render_farm(tmp_path / "%03d.png", model, [motion], frames=FRAMES, size=SIZE, physics=False,
                           client=client, quiet=True)


def test_mp4_segments_joined_by_stream_copy(client, inputs, tmp_path):
    model, motion = inputs
    out = tmp_path / "farm.mp4"
    r = mmdkit.render_farm(out, model, [motion], frames=FRAMES, size=SIZE, physics=False, client=client, chunk=6,
                           quiet=True)
    assert r.ranges == 2
    farm, (w, h) = _mmdkit._decode_video(str(out))
    assert (w, h) == SIZE and farm.shape[0] == 12
    # No re-encoding: the joined file decodes to the frames of its two segments encoded alone.
    single = mmdkit.Renderer(model, [motion], size=SIZE, physics=False)
    single.write(tmp_path / "a.mp4", frames=(0, 5))
    single.write(tmp_path / "b.mp4", frames=(6, 11))
    parts = np.concatenate([_mmdkit._decode_video(str(tmp_path / n))[0] for n in ("a.mp4", "b.mp4")])
    assert np.array_equal(farm, parts)
    # Against the single-process video (one encoder run; x264's look-ahead sees other frames, and
    # frame 6 is no key frame there): the codec's noise only (docs/RENDER.md "Render farm": PSNR of
    # each frame's Y plane).
    single.write(tmp_path / "one.mp4", frames=FRAMES)
    one, _ = _mmdkit._decode_video(str(tmp_path / "one.mp4"))
    assert one.shape == farm.shape
    y = slice(0, w * h)
    mse = ((farm[:, y].astype(np.float64) - one[:, y]) ** 2).mean(axis=1)
    psnr = 10 * np.log10(255.0 ** 2 / np.maximum(mse, 1e-12))
    assert psnr.min() > 35, psnr
    assert not leftovers(tmp_path)


@pytest.mark.parametrize("mode", ["raise", "exit"])
def test_failed_range_is_drawn_again(client, inputs, tmp_path, mode):
    model, motion = inputs
    marker = tmp_path / "failed-once"
    r = mmdkit.render_farm(tmp_path / "%03d.png", model, [motion], frames=FRAMES, size=SIZE, physics=False,
                           client=client, chunk=4, quiet=True,
                           _fault={"range": 1, "mode": mode, "marker": str(marker)})
    assert marker.exists()  # the first attempt failed (raised, or its worker process died)
    single = mmdkit.Renderer(model, [motion], size=SIZE, physics=False)
    assert [(tmp_path / f"{i:03d}.png").read_bytes() == single.png(i) for i in range(12)] == [True] * 12
    if mode == "exit":
        client.wait_for_workers(2, timeout=60)  # the nanny restarts the dead worker


def test_a_job_that_keeps_failing_writes_nothing(client, inputs, tmp_path):
    model, motion = inputs
    with pytest.raises(RuntimeError, match="injected"):
        mmdkit.render_farm(tmp_path / "x.mp4", model, [motion], frames=FRAMES, size=SIZE, physics=False,
                           client=client, chunk=6, retries=0, quiet=True,
                           _fault={"range": 1, "mode": "raise", "marker": str(tmp_path / "m")})
    assert sorted(os.listdir(tmp_path)) == ["m"]  # no output, no segment, no job folder


def test_physics_baked_once_on_the_client(client, inputs, tmp_path):
    model, motion = inputs
    r = mmdkit.render_farm(tmp_path / "%03d.png", model, [motion], frames=(0, 5), size=SIZE, client=client,
                           chunk=3, quiet=True)
    assert r.baked  # miku_v2 has rigid bodies: physics on by default, simulated once
    single = mmdkit.Renderer(model, [motion], size=SIZE)
    assert single.physics
    from pngdecode import decode_png
    for i in range(6):
        a = decode_png((tmp_path / f"{i:03d}.png").read_bytes()).astype(int)
        b = decode_png(single.png(i)).astype(int)
        # the baked replay is within 1e-5 units of the simulation (docs/PHYSICS.md "Bake"): a few
        # pixels one level off at most (docs/RENDER.md "Render farm")
        assert np.abs(a - b).max() <= 2 and (a != b).any(axis=2).mean() < 0.005, i


def test_cli_scheduler(client, inputs, tmp_path):
    # `render --scheduler ADDR` on the module's cluster (`--workers N` makes its own the same way as
    # `dataset --workers`: mmdkit._dask.client).
    model, motion = inputs
    p = subprocess.run([str(cli_path()), "render", model, motion, "--frames", "0-3", "--size", "64x36",
                        "--no-physics", "-o", str(tmp_path / "%02d.png"), "--scheduler", client.scheduler.address],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "4/4 frames" in p.stderr and "on 2 Dask worker(s)" in p.stderr
    single = mmdkit.Renderer(model, [motion], size=SIZE, physics=False)
    assert [(tmp_path / f"{i:02d}.png").read_bytes() == single.png(i) for i in range(4)] == [True] * 4
    p = subprocess.run([str(cli_path()), "render", model, "-o", str(tmp_path / "x.png"), "--workers", "2",
                        "--stage", model], capture_output=True, text=True)
    assert p.returncode == 2 and "--stage" in p.stderr


def test_range_rule():
    from mmdkit.farm import _ranges
    # a video's ranges are whole GOPs (a key frame every 2 s) unless a worker would be idle
    assert _ranges(300, 2, True, 30, None) == [(i, 60) for i in range(0, 300, 60)]
    assert _ranges(12, 2, True, 30, None) == [(0, 6), (6, 6)]
    assert _ranges(601, 2, True, 60, None)[:2] == [(0, 120), (120, 120)]
    # PNG: about four ranges per worker
    assert _ranges(40, 2, False, 30, None) == [(i, 5) for i in range(0, 40, 5)]
    assert _ranges(5, 1, False, 30, 2) == [(0, 2), (2, 2), (4, 1)]


def test_cli_scene_view_defaults(client, inputs, tmp_path):
    # A scene file's "view" (size, fps, background) is the farm's default as it is render's: the
    # farm's frames equal `render --scene`'s (before, the farm refused the unset --fps).
    import json
    model, motion = inputs
    scene = tmp_path / "s.json"
    scene.write_text(json.dumps({"models": [{"file": model, "motions": [motion]}],
                                 "view": {"size": [48, 28], "fps": 60, "background": [0.25, 0.5, 0]}}))
    farm = subprocess.run([str(cli_path()), "render", "--scene", str(scene), "--frames", "0-1", "--no-physics", "-q",
                           "-o", str(tmp_path / "f%02d.png"), "--scheduler", client.scheduler.address],
                          capture_output=True, text=True)
    assert farm.returncode == 0, farm.stderr
    plain = subprocess.run([str(cli_path()), "render", "--scene", str(scene), "--frames", "0-1", "--no-physics", "-q",
                            "-o", str(tmp_path / "p%02d.png")], capture_output=True, text=True)
    assert plain.returncode == 0, plain.stderr
    from pngdecode import decode_png
    files = sorted(p.name for p in tmp_path.glob("f*.png"))
    assert files == ["f00.png", "f01.png", "f02.png"]  # 60 fps: frames 0, 0.5, 1
    for name in files:
        a = (tmp_path / name).read_bytes()
        assert a == (tmp_path / ("p" + name[1:])).read_bytes(), name
    assert decode_png(a).shape[:2] == (28, 48) and tuple(decode_png(a)[0, 0, :3]) == (64, 128, 0)


def test_inputs_warnings_are_said_once(client, tmp_path, capsys):
    # The workers' Renderers read the same inputs as the client's probe: its warnings (here mei's
    # textures not found) are the result's and are printed as `mmdkit render` prints them.
    model = str(corpus_file(MEI))
    plain = mmdkit.Renderer(model, size=SIZE, physics=False)
    assert plain.warnings  # the corpus copy of mei lacks some textures
    r = mmdkit.render_farm(tmp_path / "%02d.png", model, frames=(0, 1), size=SIZE, physics=False, client=client)
    assert [w["message"] for w in r.warnings] == [w["message"] for w in plain.warnings]
    err = capsys.readouterr().err
    assert err.count("mmdkit: warning: ") == len(plain.warnings)
    assert plain.warnings[0]["message"] in err
    assert r.frames == 2


def test_scene_with_physics_says_how_to_draw_it(inputs, tmp_path):
    # A scene cannot be baked per model: refused before any worker starts, in words that name the
    # CLI's option too (a new user's finding: the bake's own usage text leaked out).
    model, motion = inputs
    scene = tmp_path / "scene.json"
    scene.write_text('{"models": [{"file": %s, "motions": [%s]}]}' % (json.dumps(model), json.dumps(motion)))
    with pytest.raises(mmdkit.ArgumentError, match=r"not a scene.*--no-physics"):
        mmdkit.render_farm(tmp_path / "x.mp4", scene, physics=True, workers=2)
    assert not list(tmp_path.glob(".*"))
    with pytest.raises(mmdkit.ArgumentError, match=r"--fps 30.*--no-physics"):
        mmdkit.render_farm(tmp_path / "x.mp4", model, [motion], physics=True, fps=60, workers=2)


def test_physics_bones_the_bake_cannot_key_are_refused(tmp_path):
    # A new user's finding: 巡音ルカ.pmd has two physics bones whose names are longer than a VMD's
    # 15 bytes (右外枝後髪後列３ / ４, 16 bytes in CP932): the bake leaves them out, so the workers
    # drew a hair lock without physics while the summary said "physics baked". Now refused, before
    # any worker starts, naming the bones and the ways out; nothing written.
    luka = corpus_file("oigami__PMMEditor/UserFile/Model/巡音ルカ.pmd")
    motion = corpus_file("mmdagent__mmdagent-mirror/MMDAgent_Example/Motion/mei_guide/mei_guide_happy.vmd")
    with pytest.raises(mmdkit.ArgumentError, match=r"右外枝後髪後列３.*--workers.*--no-physics"):
        mmdkit.render_farm(tmp_path / "x.mp4", luka, [motion], frames=(0, 5), size=SIZE, workers=2)
    assert os.listdir(tmp_path) == []
    r = subprocess.run([cli_path(), "render", str(luka), str(motion), "--frames", "0-5", "--size", "64x36",
                        "--workers", "2", "-o", str(tmp_path / "y.mp4")], capture_output=True, text=True)
    assert r.returncode != 0 and "cannot be keyed in VMD" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert os.listdir(tmp_path) == []
