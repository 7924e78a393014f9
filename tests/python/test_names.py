"""The one name type in Python (mmdkit.Text): a str whose .raw is the stored bytes, for every
format; the old *_raw attributes give the same bytes; renaming by text."""
from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import mmdkit
from conftest import MEI, MIKU, WAVEFILE, corpus_file, corpus_files


def test_text_is_a_str_with_its_stored_bytes():
    t = mmdkit.Text("センター", b"\x83\x5a\x83\x93\x83\x5e\x81\x5b")
    assert isinstance(t, str) and t == "センター" and t.text == "センター" and type(t.text) is str
    assert t.raw == "センター".encode("cp932")
    assert hash(t) == hash("センター") and {"センター": 1}[t] == 1
    assert pickle.loads(pickle.dumps(t)).raw == t.raw and copy.deepcopy(t).raw == t.raw
    assert mmdkit.Text("x").raw == b""
    with pytest.raises(AttributeError):
        t.raw = b""


def test_vmd_names_are_texts_with_the_15_byte_fields():
    m = mmdkit.read(corpus_file(WAVEFILE))
    names = m.bone_names
    assert names and all(isinstance(n, mmdkit.Text) for n in names)
    assert [n.raw for n in names] == m.bone_names_raw          # the old form: the same bytes
    assert all(len(n.raw) == 15 for n in names)                # the whole field, as stored
    # text = the field up to its NUL, decoded in the motion's encoding (an independent decode)
    for n in names:
        assert n == n.raw.split(b"\0")[0].decode("cp932", errors="ignore")
    assert isinstance(m.model_name, mmdkit.Text) and m.model_name.raw == m.model_name_raw
    assert len(m.model_name.raw) == 20  # v2 model name field


def test_pmd_pmx_vpd_names_are_texts():
    pmd = mmdkit.read(corpus_file(MIKU))
    assert pmd.name.raw == pmd.name_raw and len(pmd.name.raw) == 20
    assert [n.raw for n in pmd.bone_names] == pmd.bone_names_raw
    assert pmd.bone_names[0] == pmd.bone_names_raw[0].split(b"\0")[0].decode("cp932")
    assert all(isinstance(t, mmdkit.Text) for t in pmd.material_textures + pmd.toon_textures)
    checked = 0
    for path in corpus_files("pmx"):
        try:
            pmx = mmdkit.read(path)
        except mmdkit.Error:
            continue  # the corpus's broken files (tests/data/vmd_counts.tsv)
        enc = "utf-16-le" if pmx.encoding == "utf-16le" else "utf-8"
        for n in pmx.bone_names + pmx.material_names + [pmx.name, pmx.comment]:
            assert isinstance(n, mmdkit.Text) and n.raw.decode(enc, errors="replace") == n
        checked += 1
    assert checked > 0
    for path in corpus_files("vpd"):
        p = mmdkit.read(path)
        assert [n.raw for n in p.bone_names] == p.bone_names_raw
        assert all(n == n.raw.decode("cp932", errors="replace") for n in p.bone_names) or p.encoding != "cp932"
        assert p.model_file.raw == p.model_file_raw


def test_renaming_by_text_drops_only_the_changed_bytes():
    m = mmdkit.read(corpus_file(WAVEFILE))
    names = list(m.bone_names)
    kept = names[1].raw
    names[0] = "新しい名前"
    m.bone_names = names
    assert m.bone_names[0] == "新しい名前" and m.bone_names[0].raw == b""   # encoded on write
    assert m.bone_names[1].raw == kept                                      # unchanged: bytes kept
    back = mmdkit.Motion.from_bytes(m.to_bytes())
    assert back.bone_names[0] == "新しい名前"
    assert back.bone_names[0].raw == "新しい名前".encode("cp932").ljust(15, b"\0")
    pmd = mmdkit.read(corpus_file(MEI))
    pmd.name = "テスト"
    assert pmd.name.raw == b"" and mmdkit.PmdModel.from_bytes(pmd.to_bytes()).name == "テスト"
