"""mmdkit.read of DirectX .x (XFile) and .vac (VacFile): read-only views whose counts and values
equal what the CLI's `mmdkit dump` prints for the same file (a second reading of the file, by the
command), on files written here and on the corpus' .x files."""
from __future__ import annotations

import json
import subprocess

import numpy as np
import pytest

import mmdkit
from conftest import cli_path, corpus_files

TRIANGLES = (
    "xof 0302txt 0032\n"
    "Material Red { 1.0;0.0;0.0;0.5;; 12.0; 0.2;0.3;0.4;; 0.1;0.0;0.0;; TextureFilename { \"tex.png*s.sph\"; } }\n"
    "Frame Root {\n FrameTransformMatrix { 1,0,0,0, 0,1,0,0, 0,0,1,0, 2,3,4,1;; }\n"
    " Mesh Tri {\n  4;\n  0.0;0.0;0.0;,\n  1.0;0.0;0.0;,\n  0.0;1.0;0.0;,\n  1.0;1.0;0.0;;\n"
    "  2;\n  3;0,1,2;,\n  3;1,3,2;;\n"
    "  MeshMaterialList { 1; 2; 0, 0;; { Red } }\n"
    "  MeshTextureCoords { 4; 0.0;0.0;, 1.0;0.0;, 0.0;1.0;, 1.0;1.0;; }\n"
    " }\n}\n")


def dump(path):
    out = subprocess.run([str(cli_path()), "dump", str(path)], check=True, capture_output=True)
    return json.loads(out.stdout)


def faces(mesh):
    """The flat face list as the dump's list of index lists."""
    out, at = [], 0
    for n in mesh["face_sizes"].tolist():
        out.append(mesh["face_indices"][at:at + n].tolist())
        at += n
    return out


def expect_x_equals_dump(x, d):
    assert x.header == d["header"]
    assert len(x.frames) == len(d["frames"])
    assert len(x.meshes) == len(d["meshes"])
    assert len(x.materials) == len(d["materials"])
    assert len(x.templates) == len(d["templates"])
    assert x.skipped == d["skipped"]
    for f, df in zip(x.frames, d["frames"]):
        assert f["name"] == df["name"] and f["parent"] == df["parent"]
        # The dump prints the column-major 16 numbers (shortest float text); ours is [row, column].
        np.testing.assert_allclose(f["transform"].flatten(order="F"), df["transform"], rtol=1e-6)
    for m, dm in zip(x.meshes, d["meshes"]):
        assert m["name"] == dm["name"] and m["frame"] == dm["frame"]
        np.testing.assert_allclose(m["world"].flatten(order="F"), dm["world"], rtol=1e-6, atol=1e-7)
        assert m["positions"].shape == (len(dm["positions"]), 3)
        np.testing.assert_allclose(m["positions"], np.array(dm["positions"], dtype=np.float32).reshape(-1, 3), rtol=1e-6)
        assert faces(m) == dm["faces"]
        assert len(m["normals"]) == len(dm.get("normals") or [])
        assert len(m["uvs"]) == len(dm.get("uvs") or [])
        assert m["vertex_color_vertices"].tolist() == [c["vertex"] for c in dm.get("vertex_colors") or []]
        if dm.get("material_list"):
            assert m["face_materials"].tolist() == dm["material_list"]["face_materials"]
            assert m["materials"].tolist() == dm["material_list"]["materials"]
        assert not m["positions"].flags.writeable
    for mt, dmt in zip(x.materials, d["materials"]):
        assert mt["name"] == dmt["name"]
        assert mt["texture_filename"] == dmt["texture_filename"]
        np.testing.assert_allclose(mt["face_color"], dmt["face_color"], rtol=1e-6)
        assert mt["power"] == pytest.approx(dmt["power"], rel=1e-6)
    assert json.loads(x.to_json()) == d


def test_x_file_written_here_equals_the_dump(tmp_path):
    p = tmp_path / "tri.x"
    p.write_text(TRIANGLES)
    x = mmdkit.read(p)
    assert isinstance(x, mmdkit.XFile) and x.format == "x"
    d = dump(p)
    expect_x_equals_dump(x, d)
    # Values of the text itself (not only the dump's): one frame moved by (2, 3, 4), one mesh of
    # 4 vertices and 2 triangles, the material's colours and texture.
    assert len(x.frames) == 1 and len(x.meshes) == 1 and len(x.materials) == 1
    assert x.frames[0]["transform"][:3, 3].tolist() == [2, 3, 4]
    m = x.meshes[0]
    assert m["positions"].tolist()[3] == [1, 1, 0]
    assert faces(m) == [[0, 1, 2], [1, 3, 2]]
    assert m["uvs"].shape == (4, 2)
    assert x.materials[0]["face_color"] == pytest.approx([1, 0, 0, 0.5])
    assert x.materials[0]["specular"] == pytest.approx([0.2, 0.3, 0.4])
    assert x.materials[0]["texture_filename"] == "tex.png*s.sph"
    with pytest.raises(mmdkit.ArgumentError):
        mmdkit.write(x, tmp_path / "copy.x")


@pytest.mark.parametrize("path", corpus_files("x"), ids=lambda p: p.name)
def test_corpus_x_files_equal_the_dump(path):
    try:
        d = dump(path)
    except subprocess.CalledProcessError:
        with pytest.raises(mmdkit.Error):
            mmdkit.read(path)
        return
    expect_x_equals_dump(mmdkit.read(path), d)


def test_vac_placement_equals_the_dump_and_its_text(tmp_path):
    (tmp_path / "tri.x").write_text(TRIANGLES)
    text = "三角\r\ntri.x\r\n1.5\r\n0.5,1.25,-2\r\n10,20,-30\r\n右手首\r\n"
    p = tmp_path / "tri.vac"
    p.write_bytes(text.encode("cp932"))
    v = mmdkit.read(p)
    assert isinstance(v, mmdkit.VacFile) and v.format == "vac"
    d = dump(p)
    assert v.name == d["name"] == "三角" and v.name.raw == "三角".encode("cp932")
    assert v.x_file == d["x_file"] == "tri.x"
    assert v.bone == d["bone"] == "右手首"
    assert v.scale == pytest.approx(d["scale"]) == 1.5
    np.testing.assert_array_equal(v.position, np.array(d["position"], dtype=np.float32))
    np.testing.assert_array_equal(v.rotation_degrees, np.array(d["rotation_degrees"], dtype=np.float32))
    assert v.line_ending == d["line_ending"] == "crlf"
    np.testing.assert_allclose(v.placement_matrix.flatten(order="F"), d["placement_matrix"], rtol=1e-6, atol=1e-7)
    assert json.loads(v.to_json()) == d
    # The matrix independently: T · Rz · Ry · Rx · S in MMD's (left-handed, fixed-axis) rotations.
    rx, ry, rz = np.radians([10.0, 20.0, -30.0])
    Rx = np.array([[1, 0, 0], [0, np.cos(rx), -np.sin(rx)], [0, np.sin(rx), np.cos(rx)]])
    Ry = np.array([[np.cos(ry), 0, np.sin(ry)], [0, 1, 0], [-np.sin(ry), 0, np.cos(ry)]])
    Rz = np.array([[np.cos(rz), -np.sin(rz), 0], [np.sin(rz), np.cos(rz), 0], [0, 0, 1]])
    np.testing.assert_allclose(v.placement_matrix[:3, :3], Rz @ Ry @ Rx * 1.5, atol=1e-6)
    np.testing.assert_allclose(v.placement_matrix[:3, 3], [0.5, 1.25, -2], atol=1e-6)
    assert v.x_path() == str(tmp_path / "tri.x")
    assert mmdkit.check(p) == [] or all(f.severity == "warning" for f in mmdkit.check(p))


def test_vac_without_bone_line_and_errors(tmp_path):
    p = tmp_path / "w.vac"
    p.write_bytes(b"w\ntri.x\n1\n0,0,0\n0,0,0\n")  # LF, no line 6: the world, with a warning
    v = mmdkit.read(p)
    assert v.bone == "" and not v.has_bone_line and v.line_ending == "lf"
    assert len(v.warnings) == 1
    with pytest.raises(mmdkit.FileError):
        v.x_path()  # tri.x is not there
    bad = tmp_path / "bad.vac"
    bad.write_bytes(b"n\r\ntri.x\r\nbig\r\n0,0,0\r\n0,0,0\r\n")
    with pytest.raises(mmdkit.FormatError) as e:
        mmdkit.read(bad)
    assert e.value.file == str(bad)
