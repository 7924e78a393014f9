"""Reading and writing every format through Python objects: byte-exact bytes and JSON."""
from __future__ import annotations

import numpy as np
import pytest

import mmdkit
from conftest import MIKU, WAVEFILE, corpus_file, corpus_files, require_corpus

FILES = corpus_files("vmd", "vpd", "pmd", "pmx")


def expected_failures():
    """Corpus files that are not valid, with the error code the C++ tests expect
    (tests/data/vmd_counts.tsv, status column)."""
    import csv
    from conftest import ROOT
    out = {}
    with open(ROOT / "tests" / "data" / "vmd_counts.tsv", newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if row["status"] != "ok":
                out[row["path"]] = row["status"]
    return out


BROKEN = expected_failures()
CLASSES = {"vmd": mmdkit.Motion, "vpd": mmdkit.Pose, "pmd": mmdkit.PmdModel, "pmx": mmdkit.PmxModel}


def test_corpus_present_or_skipped():
    require_corpus()
    assert len(FILES) > 100  # MANIFEST lists 79 VMD, 8 VPD, 26 PMD, 43 PMX


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_round_trip_bytes_and_json(path):
    data = path.read_bytes()
    broken = next((code for local, code in BROKEN.items() if str(path).endswith(local)), None)
    if broken:
        with pytest.raises(mmdkit.FormatError) as e:
            mmdkit.read(path)
        assert e.value.code == broken and e.value.file == str(path)
        return
    obj = mmdkit.read(path)
    assert isinstance(obj, CLASSES[path.suffix.lower()[1:]])
    assert obj.to_bytes() == data
    back = mmdkit.from_json(obj.to_json())
    assert type(back) is type(obj)
    assert back.to_bytes() == data


def test_write_refuses_existing_output_without_force(tmp_path):
    src = corpus_file(WAVEFILE)
    m = mmdkit.read(src)
    out = tmp_path / "out.vmd"
    mmdkit.write(m, out)
    assert out.read_bytes() == src.read_bytes()
    with pytest.raises(mmdkit.FileError) as e:
        mmdkit.write(m, out)
    assert e.value.code == "io_error" and e.value.file == str(out)
    mmdkit.write(m, out, force=True)
    mmdkit.write(m, tmp_path / "out.json")
    assert mmdkit.read(tmp_path / "out.json").to_bytes() == src.read_bytes()


def test_vmd_arrays_match_json():
    m = mmdkit.read(corpus_file(WAVEFILE))
    k = m.bone_keys
    assert len(k) == 14160 and len(m.bone_names) == 140  # mmdkit info (README)
    assert m.frame_range == (0, 2809)
    assert k.positions.shape == (14160, 3) and k.rotations.shape == (14160, 4)
    assert k.positions.dtype == np.float32 and k.frames.dtype == np.uint32
    assert k.interpolation.shape == (14160, 64)
    import json
    doc = json.loads(m.to_json())
    for i in (0, 1, 777, 14159):
        key = doc["bone_keys"][i]
        assert key["frame"] == int(k.frames[i])
        assert m.bone_names[k.tracks[i]] == key["name"]
        np.testing.assert_array_equal(np.float32(key["position"]), k.positions[i])
        np.testing.assert_array_equal(np.float32(key["rotation"]), k.rotations[i])
        for c, name in enumerate(("x", "y", "z", "rotation")):
            if "interpolation" in key and name in key["interpolation"]:
                assert list(k.curves[i, c]) == key["interpolation"][name]
    assert len(m.morph_keys) == 1279
    assert all(isinstance(n, bytes) and len(n) == 15 for n in m.bone_names_raw)


def test_edit_through_view_changes_the_file():
    src = corpus_file(WAVEFILE)
    m = mmdkit.read(src)
    m.bone_keys.positions[0] = (1.5, -2.0, 0.25)
    m2 = mmdkit.Motion.from_bytes(m.to_bytes())
    np.testing.assert_array_equal(m2.bone_keys.positions[0], np.float32([1.5, -2.0, 0.25]))
    # 111-byte records after the 50-byte header and the 4-byte count: position at +19
    data = bytearray(src.read_bytes())
    data[50 + 4 + 19:50 + 4 + 31] = np.float32([1.5, -2.0, 0.25]).tobytes()
    assert m.to_bytes() == bytes(data)


def test_rename_track_encodes_new_text():
    m = mmdkit.read(corpus_file(WAVEFILE))
    names = m.bone_names
    names[0] = "全ての親"
    m.bone_names = names
    assert m.bone_names_raw[0] == b""  # dropped: the writer encodes the new text
    back = mmdkit.Motion.from_bytes(m.to_bytes())
    assert back.bone_names[0] == "全ての親"
    assert back.bone_names_raw[0] == "全ての親".encode("cp932").ljust(15, b"\0")


def test_pmd_arrays():
    p = mmdkit.read(corpus_file(MIKU))
    assert isinstance(p, mmdkit.PmdModel)
    v = p.vertices
    assert v.positions.shape == (len(v), 3) and v.uvs.shape == (len(v), 2) and v.bones.shape == (len(v), 2)
    assert p.indices.dtype == np.uint16 and len(p.indices) % 3 == 0
    assert int(p.materials.index_count.sum()) == len(p.indices)
    assert p.bone_names[0] == "センター"
    view = p.view()
    assert view.faces.shape == (len(p.indices) // 3, 3)
    np.testing.assert_array_equal(view.vertices.positions, v.positions)
    assert not view.vertices.positions.flags.writeable
    assert view.bone_names == p.bone_names
    assert len(view.morph_names) == len(p.morph_names) - 1  # the view drops the base morph
    verts, offs = p.morph_offsets(0)
    assert verts.shape == (offs.shape[0],) and offs.shape[1] == 3


def test_pmx_arrays_and_view():
    pmx = [f for f in corpus_files("pmx")]
    if not pmx:
        pytest.skip("no corpus")
    biggest = max(pmx, key=lambda f: f.stat().st_size)
    m = mmdkit.read(biggest)
    assert isinstance(m, mmdkit.PmxModel)
    assert m.vertices.weights.shape == (len(m.vertices), 4)
    assert m.faces.dtype == np.uint32
    assert int(m.materials.face_index_count.sum()) == len(m.faces)
    view = mmdkit.ModelView.load(str(biggest))
    assert view.source == "pmx" and len(view.bone_names) == len(m.bone_names)
    np.testing.assert_array_equal(view.vertices.positions, m.vertices.positions)


def test_vpd_arrays():
    vpds = corpus_files("vpd")
    if not vpds:
        pytest.skip("no corpus")
    p = mmdkit.read(vpds[0])
    assert isinstance(p, mmdkit.Pose)
    assert p.bones.rotations.shape == (len(p.bone_names), 4)
    assert p.to_bytes() == vpds[0].read_bytes()


def test_check_matches_cli():
    import json
    import subprocess
    from conftest import MEI, cli_path
    mei = corpus_file(MEI)
    found = mmdkit.check(mei)
    out = subprocess.run([str(cli_path()), "check", str(mei), "--json"], capture_output=True, text=True)
    cli = json.loads(out.stdout)
    assert len(found) == len(cli["findings"])
    assert [f.severity for f in found] == [f["severity"] for f in cli["findings"]]
    assert any(f.code == "texture_missing" for f in found)  # blouse.png (README)
