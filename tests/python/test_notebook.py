"""The example notebook docs/notebooks/quickstart.ipynb (issue 30, "notebooks"): executed headlessly
with Debian's jupyter-nbconvert, then the pictures it produced are checked: decoded with the
test's own PNG decoder, their sizes, not blank, equal to `mmdkit render`'s PNG for the same
inputs; the inline animation is an MP4."""
from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess

import numpy as np
import pytest

from conftest import MIKU, ROOT, WAVEFILE, cli_path, corpus_file
from pngdecode import decode_png

NOTEBOOK = ROOT / "docs" / "notebooks" / "quickstart.ipynb"


def test_quickstart_notebook_runs_and_draws(tmp_path):
    model, motion = corpus_file(MIKU), corpus_file(WAVEFILE)
    if shutil.which("jupyter-nbconvert") is None:
        pytest.skip("jupyter-nbconvert not installed (Debian jupyter-nbconvert, python3-ipykernel: deps/debian-packages.txt)")
    import mmdkit
    try:
        mmdkit.render.context_info()
    except mmdkit.RenderError as e:
        pytest.skip(f"no OpenGL: {e}")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (os.path.dirname(os.path.dirname(mmdkit.__file__)),
                                                     env.get("PYTHONPATH", "")) if p)
    env["MMDKIT_CORPUS"] = str(model.parents[len(MIKU.split("/")) - 1])
    subprocess.run(["jupyter-nbconvert", "--to", "notebook", "--execute", "--ExecutePreprocessor.timeout=120",
                    "--output-dir", str(tmp_path), "--output", "executed", str(NOTEBOOK)],
                   check=True, env=env, cwd=NOTEBOOK.parent, capture_output=True)
    nb = json.loads((tmp_path / "executed.ipynb").read_text(encoding="utf-8"))
    pngs, videos = [], []
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            assert out.get("output_type") != "error", out
            data = out.get("data", {})
            if "image/png" in data:
                pngs.append(base64.b64decode(data["image/png"]))
            if "text/html" in data and "<video" in "".join(data["text/html"]):
                html = "".join(data["text/html"])
                videos.append(base64.b64decode(html.split("base64,", 1)[1].split('"', 1)[0]))
    # The model at rest, the evaluator at frame 0 (640x360) and the renderer at frame 0 (320x240).
    assert len(pngs) == 3, len(pngs)
    sizes = [decode_png(p).shape for p in pngs]
    assert sizes == [(360, 640, 3), (360, 640, 3), (240, 320, 3)]
    for p in pngs:
        img = decode_png(p)
        assert ((img != 255).any(axis=2)).sum() > 1000  # not blank: the model covers pixels
    cli = cli_path()

    def render(*args):
        out = tmp_path / f"cli{len(list(tmp_path.iterdir()))}.png"
        subprocess.run([str(cli), "render", *map(str, args), "-o", str(out), "-q", "--no-physics"], check=True)
        return out.read_bytes()

    assert pngs[0] == render(model, "--size", "640x360")
    assert pngs[1] == render(model, motion, "--size", "640x360")
    assert pngs[2] == render(model, motion, "--size", "320x240")
    assert pngs[0] != pngs[1]  # posed by the motion
    assert len(videos) == 1 and videos[0][4:8] == b"ftyp"
