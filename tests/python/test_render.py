"""mmdkit.Renderer (issue 30, "Rendering into NumPy"): the same pixels as `mmdkit render` for the
same inputs (PNG bytes equal to the CLI's on corpus models), frames as arrays equal to the decoded
PNG, mask and depth consistent with each other, writing PNG / patterns / video as the CLI, errors,
the GIL released while drawing, a clear exception without OpenGL."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import warnings

import numpy as np
import pytest

import mmdkit
from conftest import MIKU, WAVEFILE, cli_path, corpus_file
from pngdecode import decode_png

SAMPLE_PMX = "miu200521358__mlib_go/test_resources/サンプルモデル.pmx"


def cli_png(tmp_path, *args):
    out = tmp_path / f"cli{len(list(tmp_path.iterdir()))}.png"
    subprocess.run([str(cli_path()), "render", *map(str, args), "-o", str(out), "-q"], check=True)
    return out.read_bytes()


def test_png_equals_the_cli_with_motion_and_physics(gl, tmp_path):
    model, motion = corpus_file(MIKU), corpus_file(WAVEFILE)
    r = mmdkit.Renderer(model, [motion], size=(320, 180))
    assert r.physics  # miku_v2 has rigid bodies: on by default, as the CLI
    assert r.png(12) == cli_png(tmp_path, model, motion, "--frame", "12", "--size", "320x180")
    # frame() is the decoded picture (RGBA, top row first).
    img = r.frame(12)
    assert img.shape == (180, 320, 4) and img.dtype == np.uint8
    assert np.array_equal(img[..., :3], decode_png(r.png(12)))  # the PNG is RGB, as the CLI writes it


def test_png_equals_the_cli_with_options(gl, tmp_path):
    model = corpus_file(SAMPLE_PMX)
    r = mmdkit.Renderer(model, size=(200, 150), msaa=1, background="336699", edges=False, shadows=False,
                        physics=False)
    cli = cli_png(tmp_path, model, "--size", "200x150", "--msaa", "1", "--background", "336699", "--no-edge",
                  "--no-shadow", "--no-physics")
    assert r.png(0) == cli
    img = r.frame(0)
    assert tuple(img[0, 0]) == (0x33, 0x66, 0x99, 255)  # background
    assert ((img[..., :3] != (0x33, 0x66, 0x99)).any(axis=2)).sum() > 500  # the model is drawn


def test_anti_aliasing_and_shadow_map_options_equal_the_cli(gl, tmp_path):
    # aa / msaa / shadow_map are render's --aa / --msaa / --shadow-map (render::choose_quality).
    model = corpus_file(MIKU)
    for kw, args in (({"aa": "msaa", "shadow_map": 2048}, ("--aa", "msaa", "--shadow-map", "2048")),
                     ({"aa": "none"}, ("--aa", "none")),
                     ({"msaa": 2}, ("--msaa", "2"))):
        r = mmdkit.Renderer(model, size=(96, 64), physics=False, **kw)
        assert r.png(0) == cli_png(tmp_path, model, "--size", "96x64", "--no-physics", *args), kw
    with pytest.raises(mmdkit.ArgumentError, match="fxaa, msaa or none"):
        mmdkit.Renderer(model, size=(96, 64), aa="smaa")
    with pytest.raises(mmdkit.ArgumentError, match="one sample"):
        mmdkit.Renderer(model, size=(96, 64), aa="fxaa", msaa=4)
    with pytest.raises(mmdkit.ArgumentError, match="msaa"):
        mmdkit.Renderer(model, size=(96, 64), msaa=0)


def test_frames_stream_and_mask_depth(gl):
    model, motion = corpus_file(MIKU), corpus_file(WAVEFILE)
    r = mmdkit.Renderer(model, [motion], size=(160, 120), physics=False)
    frames = list(r.frames(range(3)))
    assert len(frames) == 3
    for i, f in enumerate(frames):
        assert np.array_equal(f, r.frame(i))
    m, d = r.mask(2), r.depth(2)
    assert m.shape == (120, 160) and m.dtype == np.uint8
    assert d.shape == (120, 160) and d.dtype == np.float32
    assert set(np.unique(m)) == {0, 1} and r.items == [str(model)]
    assert np.array_equal(m > 0, np.isfinite(d))
    # The model stands about 45 units in front of MMD's default camera (the motion has no camera).
    assert 30 < float(d[m > 0].min()) < float(d[m > 0].max()) < 60
    # Where the mask is set the picture differs from the white background (most pixels).
    img = r.frame(2)
    drawn = (img[..., :3] != 255).any(axis=2)
    assert (drawn & (m > 0)).sum() > 0.9 * (m > 0).sum()


def test_write_png_pattern_and_video(gl, tmp_path):
    model, motion = corpus_file(MIKU), corpus_file(WAVEFILE)
    r = mmdkit.Renderer(model, [motion], size=(64, 48), physics=False)
    r.write(tmp_path / "one.png", frame=3)
    assert (tmp_path / "one.png").read_bytes() == cli_png(tmp_path, model, motion, "--frame", "3", "--size", "64x48",
                                                         "--no-physics")
    with pytest.raises(mmdkit.Error, match="exists"):
        r.write(tmp_path / "one.png", frame=3)
    r.write(str(tmp_path / "seq" / "%03d.png") if (tmp_path / "seq").mkdir() is None else None, frames=(0, 2))
    assert sorted(p.name for p in (tmp_path / "seq").iterdir()) == ["000.png", "001.png", "002.png"]
    assert (tmp_path / "seq" / "002.png").read_bytes() == r.png(2)
    r.write(tmp_path / "v.mp4", frames=(0, 5))
    data = (tmp_path / "v.mp4").read_bytes()
    assert data[4:8] == b"ftyp"
    assert not [p for p in tmp_path.iterdir() if ".tmp" in p.name]  # the temporary file is gone
    r.write(tmp_path / "v.webm", frames=(0, 2))
    assert (tmp_path / "v.webm").read_bytes()[:4] == b"\x1a\x45\xdf\xa3"  # EBML (Matroska / WebM)


def test_errors(gl, tmp_path):
    model = corpus_file(MIKU)
    with pytest.raises(mmdkit.ArgumentError, match="size"):
        mmdkit.Renderer(model, size=(0, 10))
    with pytest.raises(mmdkit.ArgumentError, match="background"):
        mmdkit.Renderer(model, background="zz")
    with pytest.raises(mmdkit.FileError):
        mmdkit.Renderer(tmp_path / "missing.pmx")
    # An MMD project none of whose models is found: said so.
    shutil.copy(model, tmp_path / "gone.pmd")
    project = mmdkit.pmm.create([tmp_path / "gone.pmd"], folder=tmp_path)
    project.write(tmp_path / "p.pmm")
    (tmp_path / "gone.pmd").unlink()
    with pytest.raises(mmdkit.ArgumentError, match="no model of the project was found"):
        mmdkit.Renderer(tmp_path / "p.pmm")
    r = mmdkit.Renderer(model, size=(31, 17), physics=True)
    with pytest.raises(mmdkit.ArgumentError, match="whole frames"):
        r.frame(0.5)
    with pytest.raises(mmdkit.ArgumentError, match="even"):
        r.write(tmp_path / "odd.mp4", frames=(0, 1))
    with pytest.raises(mmdkit.ArgumentError, match="png"):
        r.write(tmp_path / "x.gif")


def test_projects_and_scenes_draw_as_the_cli(gl, tmp_path):
    """A .pmm path, a Project and a Scene draw what `render project.pmm` and `render --scene` draw
    (PNG bytes), at the project's output size and with its view settings by default."""
    model, motion = corpus_file(MIKU), corpus_file(WAVEFILE)
    project = mmdkit.pmm.create([model], [[motion]], size=(64, 48), folder=tmp_path)
    project.write(tmp_path / "p.pmm")  # a pathlib.Path
    assert mmdkit.read(tmp_path / "p.pmm").to_bytes() == project.to_bytes()
    cli = cli_png(tmp_path, tmp_path / "p.pmm", "--frame", "20", "--no-physics")
    r = mmdkit.Renderer(tmp_path / "p.pmm", physics=False)
    assert r.size == (64, 48) and r.fps == 60  # the project's output size and preferred fps
    assert r.png(20) == cli
    assert mmdkit.Renderer(mmdkit.read(tmp_path / "p.pmm"), physics=False).png(20) == cli
    scene = mmdkit.Scene(tmp_path / "p.pmm")
    assert len(scene.models) == 1 and scene.accessories == [] and scene.camera == "camera.vmd"
    assert scene.view == {"size": [64, 48], "fps": 60, "ground_shadow_translucent": True}  # MMD's fresh project
    assert scene.renderer(physics=False).png(20) == cli
    assert scene._repr_png_()[:8] == b"\x89PNG\r\n\x1a\n"
    # The scene file `pmm extract` writes: Renderer(scene).png(f) is `render --scene`'s PNG.
    subprocess.run([str(cli_path()), "pmm", "extract", str(tmp_path / "p.pmm"), "-o", str(tmp_path / "x"), "-q"],
                   check=True)
    extracted = mmdkit.Scene(tmp_path / "x" / "scene.json")
    assert len(extracted.models) == 1 and len(extracted.models[0]["motions"]) == 1
    assert (mmdkit.Renderer(extracted, physics=False).png(20) ==
            cli_png(tmp_path, "--scene", tmp_path / "x" / "scene.json", "--frame", "20", "--no-physics") == cli)


def test_documents_and_evaluators_show_pictures(gl, tmp_path):
    model, motion = corpus_file(MIKU), corpus_file(WAVEFILE)
    doc = mmdkit.read(model)
    png = doc._repr_png_()
    # At rest under MMD's default camera, textures from the file's folder: the CLI's picture.
    assert png == cli_png(tmp_path, model, "--size", "640x360", "--no-physics")
    ev = mmdkit.Evaluator(model, [motion])
    assert ev._repr_png_() == cli_png(tmp_path, model, motion, "--size", "640x360", "--no-physics")
    ev.pose(45)  # the current frame: the last one posed
    assert ev._repr_png_() == cli_png(tmp_path, model, motion, "--frame", "45", "--size", "640x360", "--no-physics")
    # A changed document is drawn from its own bytes (a temporary copy).
    doc.vertices.positions[:, 1] += 5.0
    moved = doc._repr_png_()
    assert moved is not None and moved != png
    assert mmdkit.Motion()._repr_png_() if hasattr(mmdkit.Motion, "_repr_png_") else True


def test_show_returns_an_inline_video(gl):
    model, motion = corpus_file(MIKU), corpus_file(WAVEFILE)
    a = mmdkit.show(model, [motion], frames=(0, 4), size=(64, 48), physics=False)
    assert a.mimetype == "video/mp4" and a.data[4:8] == b"ftyp"
    assert a._repr_html_().startswith("<video") and "base64," in a._repr_html_()


def test_drawing_releases_the_gil(gl):
    model = corpus_file(MIKU)
    r = mmdkit.Renderer(model, size=(640, 480), physics=False)
    r.frame(0)
    started, done = threading.Event(), threading.Event()
    turns = 0

    errors = []

    def work():
        started.set()
        try:
            for _ in range(3):
                r.frame(0)  # from another thread than the one that made the renderer
        except Exception as e:  # noqa: BLE001 (reported below)
            errors.append(e)
        finally:
            done.set()

    t = threading.Thread(target=work)
    t.start()
    started.wait()
    while not done.is_set():
        turns += 1
    t.join()
    assert not errors, errors
    # With the GIL held for the whole draw the main thread would get a handful of switch
    # intervals (5 ms each) per frame; released, it spins the whole time (millions of turns).
    assert turns > 100000, turns


def test_without_opengl_a_clear_error(tmp_path):
    model = corpus_file(MIKU)
    env = dict(os.environ, __EGL_VENDOR_LIBRARY_FILENAMES=str(tmp_path / "none.json"),
               __EGL_VENDOR_LIBRARY_DIRS=str(tmp_path), MMDKIT_RENDER_SOFTWARE="1")
    code = ("import mmdkit, sys\n"
            "try:\n    mmdkit.Renderer(sys.argv[1])\n"
            "except mmdkit.RenderError as e:\n    print('RenderError', isinstance(e, RuntimeError), e)\n")
    out = subprocess.run([sys.executable, "-c", code, str(model)], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("RenderError True"), out.stdout
    assert "libegl" in out.stdout.lower() or "mesa" in out.stdout.lower(), out.stdout


def test_a_frame_far_past_the_keys_with_physics_warns_once(gl):
    # A new user's finding: frame(1e9) with physics simulated for hours without a word. Lowered
    # threshold so that the test simulates 30 frames only.
    r = mmdkit.Renderer(corpus_file(MIKU), size=(32, 18))
    assert r.physics and r.last_frame == 0
    r._FAR_FRAMES = 10
    with pytest.warns(RuntimeWarning, match=r"frame 30 is 30 frames past the inputs' last key \(0\)"):
        r.frame(30)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r.frame(40)                       # once per renderer
        r.frame(5)                        # near the keys: no word
        quiet = mmdkit.Renderer(corpus_file(MIKU), size=(32, 18), physics=False)
        quiet._FAR_FRAMES = 10
        quiet.frame(30)                   # without physics the frame is drawn at once
