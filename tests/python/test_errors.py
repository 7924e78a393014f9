"""Errors become mmdkit exceptions carrying code, file, section, record and offset."""
from __future__ import annotations

import pickle

import pytest

import mmdkit
from conftest import MEI, WAVEFILE, corpus_file


def test_truncated_vmd_names_section_record_offset(tmp_path):
    data = corpus_file(WAVEFILE).read_bytes()
    cut = tmp_path / "cut.vmd"
    # header 50 + count 4 + 12 whole bone keys of 111 bytes + 40 bytes of the 13th
    cut.write_bytes(data[:50 + 4 + 12 * 111 + 40])
    with pytest.raises(mmdkit.FormatError) as e:
        mmdkit.read(cut)
    err = e.value
    assert err.code == "truncated"
    assert err.section == "bone keyframes"
    assert err.record == 12
    assert err.offset == 50 + 4 + 12 * 111
    assert err.file == str(cut)
    assert str(err).startswith(f"{cut}: section 'bone keyframes', record 12, byte {50 + 4 + 12 * 111}: truncated")


def test_check_of_a_path_names_the_file(tmp_path):
    """mmdkit.check(PATH) names the file as mmdkit.read does: on the error of bytes that do not
    parse, and on each finding (a fresh user found file=None on both)."""
    data = corpus_file(WAVEFILE).read_bytes()
    cut = tmp_path / "cut.vmd"
    cut.write_bytes(data[:50 + 4 + 12 * 111 + 40])
    with pytest.raises(mmdkit.FormatError) as e:
        mmdkit.check(cut)
    assert e.value.code == "truncated" and e.value.file == str(cut)
    assert str(e.value).startswith(f"{cut}: section 'bone keyframes'")
    mei = corpus_file(MEI)
    findings = mmdkit.check(mei)
    assert findings, "mei.pmd has a finding (the CLI's check: 1 warning)"
    assert all(f.file == str(mei) for f in findings)
    # An object read from the file is checked as the file (its folder for the textures); made
    # from bytes it has no file: its findings name none.
    assert [(f.message, f.file) for f in mmdkit.check(mmdkit.read(mei))] == [(f.message, f.file) for f in findings]
    assert all(f.file is None for f in mmdkit.check(mmdkit.PmdModel.from_bytes(mei.read_bytes())))


def test_count_too_large():
    data = bytearray(corpus_file(WAVEFILE).read_bytes()[:60])
    with pytest.raises(mmdkit.FormatError) as e:
        mmdkit.Motion.from_bytes(bytes(data))
    assert e.value.code == "count_too_large" and e.value.offset == 50 and e.value.record is None


def test_bad_signature_and_unknown_format(tmp_path):
    with pytest.raises(mmdkit.FormatError) as e:
        mmdkit.PmxModel.from_bytes(b"PMD \0\0\0@")
    assert e.value.code == "bad_signature" and e.value.offset == 0
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"hello")
    with pytest.raises(mmdkit.FormatError) as e:
        mmdkit.read(junk)
    assert e.value.code == "bad_signature" and e.value.file == str(junk)


def test_missing_file():
    with pytest.raises(mmdkit.FileError) as e:
        mmdkit.Motion.read("/nonexistent/x.vmd")
    assert e.value.code == "io_error" and e.value.file == "/nonexistent/x.vmd"
    # mmdkit.read (format sniffed) raises the same class, not Python's FileNotFoundError.
    with pytest.raises(mmdkit.FileError) as e:
        mmdkit.read("/nonexistent/x.vmd")
    assert e.value.code == "io_error" and e.value.file == "/nonexistent/x.vmd"
    with pytest.raises(mmdkit.FileError):
        mmdkit.read("/")  # a folder


def test_json_errors_carry_the_path():
    with pytest.raises(mmdkit.JsonError) as e:
        mmdkit.from_json('{"format": "vmd", "bone_keys": [{"frame": 1, "name": "a", "position": [1, 2]}]}')
    assert e.value.code == "json_schema"
    assert e.value.section.startswith("bone_keys[0].position")
    with pytest.raises(mmdkit.JsonError) as e:
        mmdkit.from_json('{"format": "vmd", ')
    assert e.value.code == "json_syntax" and e.value.offset is not None


def test_bad_encoding_argument():
    with pytest.raises(mmdkit.ArgumentError) as e:
        mmdkit.Motion.from_bytes(b"", encoding="latin-1")
    assert isinstance(e.value, ValueError) and e.value.code == "invalid_argument"


def test_errors_pickle():
    err = mmdkit.FormatError("why", "truncated", "f.vmd", "bone keyframes", 3, 99)
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is mmdkit.FormatError
    assert (back.code, back.file, back.section, back.record, back.offset) == ("truncated", "f.vmd", "bone keyframes", 3, 99)


def test_a_cut_project_is_refused_with_its_offset_and_checked(tmp_path):
    """MMD projects (.pmm, mmdkit.Project; docs/formats/pmm.md): a file cut after its header is
    refused with the reader's error and offset, and check_file gives the command's findings."""
    import mmdkit._mmdkit as native
    head = b"Polygon Movie maker 0002".ljust(30, b"\0")
    p = tmp_path / "p.pmm"
    p.write_bytes(head + b"\0" * 10)
    assert native.sniff(head) == "pmm"
    with pytest.raises(mmdkit.FormatError) as e:
        mmdkit.read(p)
    assert e.value.code == "truncated" and e.value.file == str(p) and e.value.offset == 30
    with pytest.raises(mmdkit.Error) as e:
        native.check_file(str(p))  # cut after the header: the reader's error, with its offset
    assert e.value.code == "truncated" and e.value.offset == 30
