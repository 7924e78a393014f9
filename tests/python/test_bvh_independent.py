"""The BVH files `mmdkit convert MOTION.vmd OUT.bvh --model MODEL` writes, read by an independent
reader (tools/bvh/bvh_fk.py: its own parser, 4x4 matrix forward kinematics in NumPy): every
joint's position equals the bone head `mmdkit sample` gives, within 1e-4 MMD units
(docs/BVH.md "Independent check"). Uses only the CLI and the corpus (skips without them)."""
from __future__ import annotations

import importlib.util
import subprocess

import pytest

from conftest import MEI, MIKU, ROOT, WAVEFILE, cli_path, corpus_file

spec = importlib.util.spec_from_file_location("bvh_fk", ROOT / "tools" / "bvh" / "bvh_fk.py")
bvh_fk = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bvh_fk)

MEI_MOTIONS = "mmdagent__mmdagent-mirror/MMDAgent_Example/Motion/"


def run(*args):
    r = subprocess.run([str(cli_path()), *map(str, args)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r


@pytest.mark.parametrize(
    "model, motion, frames, scale",
    [
        (MIKU, WAVEFILE, "0-300", 1.0),
        (MIKU, WAVEFILE, "1200-1320", 0.08),
        (MEI, MEI_MOTIONS + "mei_greeting/mei_greeting.vmd", "0-200", 1.0),
        (MEI, MEI_MOTIONS + "mei_guide/mei_guide_happy.vmd", "0-150", 8.0),
    ],
)
def test_bvh_positions_equal_sample(tmp_path, model, motion, frames, scale):
    m, v = corpus_file(model), corpus_file(motion)
    bvh = tmp_path / "out.bvh"
    sample = tmp_path / "sample.json"
    run("convert", v, bvh, "--model", m, "--frames", frames, "--scale", scale)
    run("sample", m, v, "--frames", frames, "-o", sample, "--quiet")
    assert bvh_fk.compare(bvh, sample, scale, 1e-4) == 0


def test_independent_reader_reads_the_hierarchy(tmp_path):
    m, v = corpus_file(MIKU), corpus_file(WAVEFILE)
    bvh = tmp_path / "out.bvh"
    run("convert", v, bvh, "--model", m, "--frames", "0-10")
    joints, frame_time, values = bvh_fk.parse(bvh.read_text(encoding="utf-8"))
    assert values.shape[0] == 11
    assert abs(frame_time - 1 / 30) < 1e-9
    assert joints[0]["parent"] == -1
    # one joint per bone of the model (mmdkit info counts them)
    info = run("info", m).stdout
    assert f"bones: {len(joints)}\n" in info
