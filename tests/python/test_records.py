"""Records beyond the main columns as arrays / lists: PMX IK links, morph offsets of every type,
display frames and soft bodies, PMD IK chains and display lists. Checked against the object's own
lossless JSON (an independent writer) and, for views, by editing through them."""
from __future__ import annotations

import json

import numpy as np
import pytest

import mmdkit
from conftest import MEI, MIKU, corpus_file, corpus_files


def text_of(v):
    return v["text"] if isinstance(v, dict) else v


def pmx_with_every_morph_type():
    """A corpus PMX holding IK bones and display frames (skips without one)."""
    for p in corpus_files("pmx"):
        try:
            m = mmdkit.read(p)
        except mmdkit.Error:
            continue
        types = set(m.morph_types.tolist())
        if any(len(m.ik_links(i)) for i in range(len(m.bone_names))) and len(types) >= 2 and m.display_frames:
            return m
    pytest.skip("no corpus PMX with IK bones, display frames and two morph types")


def test_pmx_ik_links_match_json():
    m = pmx_with_every_morph_type()
    bones = json.loads(m.to_json())["bones"]
    for i, b in enumerate(bones):
        t = m.ik_links(i)
        links = b.get("ik_links", [])
        assert len(t) == len(links)
        for k, l in enumerate(links):
            assert t.bones[k] == l["bone"]
            assert bool(t.has_limits[k]) == ("lower" in l)
            if "lower" in l:
                np.testing.assert_array_equal(t.lower[k], np.float32(l["lower"]))
                np.testing.assert_array_equal(t.upper[k], np.float32(l["upper"]))
    with pytest.raises(IndexError):
        m.ik_links(len(bones))


def test_pmx_morph_offsets_match_json_for_every_type():
    m = pmx_with_every_morph_type()
    morphs = json.loads(m.to_json())["morphs"]
    columns = {"group": ("morph", "morphs"), "flip": ("morph", "morphs"), "vertex": ("vertex", "vertices"),
               "bone": ("bone", "bones"), "material": ("material", "materials"),
               "impulse": ("rigid_body", "rigid_bodies")}
    seen = set()
    for i, mo in enumerate(morphs):
        t = m.morph_offsets(i)
        assert len(t) == len(mo["offsets"]), mo["type"]
        key, col = columns.get(mo["type"], ("vertex", "vertices"))  # uv types: vertex
        assert [int(x) for x in t[col]] == [o[key] for o in mo["offsets"]]
        if mo["type"] == "bone":
            for k, o in enumerate(mo["offsets"]):
                np.testing.assert_array_equal(t.translations[k], np.float32(o["translation"]))
                np.testing.assert_array_equal(t.rotations[k], np.float32(o["rotation"]))
        if mo["type"] in ("group", "flip"):
            np.testing.assert_array_equal(t.weights, np.float32([o["weight"] for o in mo["offsets"]]))
        seen.add(mo["type"])
    assert len(seen) >= 2
    assert list(m.morph_panels) == [mo["panel"] for mo in morphs]


def test_pmx_display_frames_match_json_and_are_views():
    m = pmx_with_every_morph_type()
    frames = json.loads(m.to_json())["display_frames"]
    got = m.display_frames
    assert len(got) == len(frames)
    for g, f in zip(got, frames):
        assert g["name"] == text_of(f["name"]) and isinstance(g["name"], mmdkit.Text)
        assert g["special"] == f["special"]
        want = [(0, e["bone"]) if "bone" in e else (1, e["morph"]) for e in f["elements"]]
        assert list(zip(g["kinds"].tolist(), g["indices"].tolist())) == want
    # a view: editing an index changes the model
    k = next(i for i, g in enumerate(got) if len(g["indices"]))
    old = int(got[k]["indices"][0])
    got[k]["indices"][0] = old + 1
    assert int(m.display_frames[k]["indices"][0]) == old + 1


def test_pmx_soft_bodies_from_json():
    """A PMX 2.1 with one soft body (built through JSON): the table, names, anchors and pinned
    vertices give back what the JSON says."""
    base = None
    for p in corpus_files("pmx"):
        try:
            base = mmdkit.read(p)
            break
        except mmdkit.Error:
            continue
    if base is None:
        pytest.skip("no corpus PMX")
    doc = json.loads(base.to_json())
    doc["version"] = "2.1"
    doc["version_value"] = 2.1
    body = json.loads(json.dumps({"name": "布", "name_en": "cloth", "shape": 1, "material": 0, "group": 3,
                                  "non_collision_mask": 65533, "flags": 5, "b_link_distance": 2,
                                  "cluster_count": 7, "total_mass": 1.5, "collision_margin": 0.25,
                                  "aero_model": 2, "config": [float(i) for i in range(12)],
                                  "cluster": [0.5] * 6, "iterations": [1, 2, 3, 4],
                                  "material_params": [0.1, 0.2, 0.3],
                                  "anchors": [{"rigid_body": 0, "vertex": 4, "near_mode": 1}],
                                  "pinned_vertices": [1, 2, 3]}))
    doc["soft_bodies"] = [body]
    m = mmdkit.PmxModel.from_json(json.dumps(doc))
    t = m.soft_bodies
    assert len(t) == 1 and m.soft_body_names == ["布"]
    assert (t.shapes[0], t.materials[0], t.groups[0], t.non_collision_masks[0], t.flags[0]) == (1, 0, 3, 65533, 5)
    assert (t.b_link_distances[0], t.cluster_counts[0], t.aero_models[0]) == (2, 7, 2)
    np.testing.assert_array_equal(t.config[0], np.arange(12, dtype=np.float32))
    np.testing.assert_array_equal(t.iterations[0], [1, 2, 3, 4])
    a = m.soft_body_anchors(0)
    assert (a.rigid_bodies.tolist(), a.vertices.tolist(), a.near_mode.tolist()) == ([0], [4], [1])
    assert m.soft_body_pinned(0).tolist() == [1, 2, 3]
    back = json.loads(m.to_json())["soft_bodies"][0]
    assert back["pinned_vertices"] == [1, 2, 3] and back["total_mass"] == 1.5


def test_pmd_ik_chains_and_display_lists_match_json():
    m = mmdkit.read(corpus_file(MIKU))
    doc = json.loads(m.to_json())
    chains = doc["ik_chains"]
    t = m.ik_chains
    assert len(t) == len(chains) > 0
    for i, c in enumerate(chains):
        assert (int(t.targets[i]), int(t.effectors[i]), int(t.iterations[i])) == (c["target"], c["effector"],
                                                                                 c["iterations"])
        assert m.ik_links(i).tolist() == [l if isinstance(l, int) else l["bone"] for l in c["links"]]
    assert len(m.bone_frame_names) == len(doc["bone_frames"])
    assert len(m.bone_display) == len(doc["bone_display"])
    assert len(m.toon_textures) == 10
    e = m.english
    assert e is None or len(e["bone_names"]) == len(m.bone_names)
