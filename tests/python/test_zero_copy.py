"""Bulk arrays view the C++ records: no copy, the owning object kept alive, writes shared."""
from __future__ import annotations

import gc

import numpy as np

import mmdkit
from conftest import MIKU, WAVEFILE, corpus_file


def owner_of(a):
    while isinstance(a, np.ndarray) and a.base is not None:
        a = a.base
    return a


def test_columns_view_the_motion():
    m = mmdkit.read(corpus_file(WAVEFILE))
    pos = m.bone_keys.positions
    assert owner_of(pos) is m                # base chain ends at the C++ object
    assert not pos.flags.owndata
    assert pos.strides == (100, 4)           # one vmd::BoneKey per row (100 bytes in memory)
    assert np.shares_memory(pos, m.bone_keys.positions)
    assert np.shares_memory(m.bone_keys.rotations, m.bone_keys.interpolation) is False
    pos[3, 1] = 42.0
    assert m.bone_keys.positions[3, 1] == 42.0


def test_view_keeps_object_alive():
    rot = mmdkit.read(corpus_file(WAVEFILE)).bone_keys.rotations
    gc.collect()
    expected = mmdkit.read(corpus_file(WAVEFILE)).bone_keys.rotations.copy()
    np.testing.assert_array_equal(rot, expected)


def test_model_vertices_view():
    p = mmdkit.read(corpus_file(MIKU))
    v = p.vertices
    assert owner_of(v.positions) is p and owner_of(p.indices) is p
    assert p.indices.flags.c_contiguous
    view = p.view()
    assert owner_of(view.faces) is view and view.faces.flags.c_contiguous
