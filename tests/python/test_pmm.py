"""MMD projects (.pmm) in Python: mmdkit.read / mmdkit.pmm.read give a Project whose bytes are the
file's, whose JSON round-trips, whose counts equal tools/pmm_counts.py's (an independent reader),
and whose scene() holds every key; mmdkit.pmm.create writes a project the counter reads with the
keys of the motion given."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

import mmdkit

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(os.environ.get("MMDKIT_CORPUS", ROOT.parent / "shared" / "corpus"))
SAMPLE = CORPUS / "oigami__PMMEditor" / "UserFile" / "サンプル（きしめんAllStar).pmm"


def counts(path):
    row = subprocess.run([sys.executable, str(ROOT / "tools" / "pmm_counts.py"), str(path)], check=True,
                         capture_output=True, text=True).stdout.rstrip("\n").split("\t")
    return dict(zip(["path", "status", "version", "models", "model_keys", "accessories", "accessory_keys",
                     "camera_keys", "light_keys", "gravity_keys", "self_shadow_keys", "trailing_bytes"], row))


needs_corpus = pytest.mark.skipif(not SAMPLE.exists(), reason=f"real-file corpus not found ({SAMPLE})")


@needs_corpus
def test_sample_reads_byte_exact_with_the_independent_counts():
    p = mmdkit.read(SAMPLE)
    assert isinstance(p, mmdkit.Project) and p.format == "pmm" and p.version == 2
    assert p.to_bytes() == SAMPLE.read_bytes()
    assert mmdkit.Project.from_json(p.to_json()).to_bytes() == p.to_bytes()
    c = counts(SAMPLE)
    assert c["status"] == "ok"
    assert p.counts["models"] == int(c["models"]) and p.counts["accessories"] == int(c["accessories"])
    assert p.counts["camera_keys"] == int(c["camera_keys"]) and p.counts["light_keys"] == int(c["light_keys"])
    per_model = [f"{len(m['bone_names'])}+{m['bone_keys'] - len(m['bone_names'])}/"
                 f"{len(m['morph_names'])}+{m['morph_keys'] - len(m['morph_names'])}/{m['model_keys'] - 1}"
                 for m in p.models]
    assert ";".join(per_model) == c["model_keys"]
    assert p.output_size == (512, 288)
    assert [f.severity for f in p.check()].count("error") == 0


@needs_corpus
def test_sample_as_a_scene_holds_every_key():
    p = mmdkit.pmm.read(SAMPLE)
    s = p.scene(folder=str(SAMPLE.parent))
    assert len(s["models"]) == 11 and s["size"] == (512, 288)
    for m, summary in zip(s["models"], p.models):
        assert m["file"]["found"] is not None
        assert len(m["motion"].bone_keys) == summary["bone_keys"]  # initial + regular, all reached
    assert len(s["camera"].camera_keys) == p.counts["camera_keys"] + 1


@needs_corpus
def test_a_project_as_a_scene_folder_names_its_files_as_pmm_extract(tmp_path):
    # one rule (scene::project_file_names): the motions Renderer / Scene write for a project are
    # named as `mmdkit pmm extract` names them, by the model (the sample has two ダミーボーン)
    from mmdkit import render
    cli = os.environ.get("MMDKIT_CLI") or str(ROOT / "build" / "default" / "mmdkit")
    out = tmp_path / "extracted"
    subprocess.run([cli, "pmm", "extract", str(SAMPLE), "-o", str(out), "-q"], check=True, capture_output=True)
    tmp, scene_json, _ = render._project_scene(mmdkit.pmm.read(SAMPLE), str(SAMPLE.parent), [], False)
    try:
        mine = sorted(os.listdir(tmp))
    finally:
        import shutil
        shutil.rmtree(tmp)
    assert mine == sorted(n for n in os.listdir(out) if not n.endswith(".vac"))
    assert "ダミーボーン.vmd" in mine and "ダミーボーン_2.vmd" in mine and "初音ミク.vmd" in mine


@needs_corpus
def test_a_project_read_from_a_file_finds_its_files_beside_it(tmp_path, monkeypatch):
    # As `mmdkit check` / `render project.pmm`: the folder of the file read is the project's folder,
    # whatever the current one (a new user's finding: read() forgot it, every model was "not found").
    monkeypatch.chdir(tmp_path)
    for p in (mmdkit.read(SAMPLE), mmdkit.pmm.read(str(SAMPLE))):
        assert p.path is not None and Path(p.path) == SAMPLE
        messages = [f.message for f in p.check()]
        assert not [m for m in messages if "not read from a file" in m]
        # the 11 models lie below the project's folder; only accessories (elsewhere) are missing
        assert not [m for m in messages if "model file" in m], messages
        s = p.scene()
        assert [m["file"]["found"] is not None for m in s["models"]] == [True] * 11
    assert repr(p).startswith("<mmdkit.Project version 2: 11 models, 29 accessories, ")
    assert "output 512x288" in repr(p) and str(SAMPLE) in repr(p)
    # made from bytes there is no such folder: the current one (tmp_path, empty) is used
    q = mmdkit.pmm.from_bytes(SAMPLE.read_bytes())
    assert q.path is None
    assert any("not read from a file" in f.message for f in q.check())
    assert [m["file"]["found"] for m in q.scene()["models"]] == [None] * 11


@needs_corpus
def test_create_from_a_model_and_a_motion(tmp_path):
    model = SAMPLE.parent / "Model" / "初音ミク.pmd"
    # A motion of two keys on センター and one on あ, written with the module.
    m = mmdkit.from_json('{"format": "vmd", "version": 2, "model_name": "初音ミク", "bone_keys": ['
                         '{"name": "センター", "frame": 0, "position": [0, 1, 0], "rotation": [0, 0, 0, 1]},'
                         '{"name": "センター", "frame": 30, "position": [0, 2, 0], "rotation": [0, 0, 0, 1]}],'
                         '"morph_keys": [{"name": "あ", "frame": 10, "weight": 1}]}')
    vmd = tmp_path / "dance.vmd"
    mmdkit.write(m, vmd)
    p = mmdkit.pmm.create([model], [[vmd]], size=(640, 360), folder=tmp_path)
    assert p.warnings == []
    out = tmp_path / "p.pmm"
    p.write(str(out))
    c = counts(out)
    assert c["status"] == "ok" and c["models"] == "1"
    assert c["model_keys"] == "122+1/16+1/0"  # one regular bone key (frame 30), one morph key (frame 10)
    back = mmdkit.read(out)
    assert back.output_size == (640, 360)
    keys = back.scene(folder=str(SAMPLE.parent))["models"][0]["motion"].bone_keys
    assert sorted(int(f) for f in keys.frames[keys.frames > 0]) == [30]
    assert mmdkit.check(out) == []  # the model found again by its stored absolute path
