#!/usr/bin/env python3
"""Independent PMD section counter (written from ../shared/reference/FORMAT-NOTES.md and the seed
notes, not from mmdkit's C++). Prints one TSV row per corpus PMD, used as the expected values of
tests/formats/pmd (tests/data/pmd_counts.tsv).

Usage: tools/pmd_counts.py [CORPUS_DIR] > tests/data/pmd_counts.tsv

Columns: local_path, vertices, face_indices, materials, bones, ik_chains, ik_links (sum of chain
lengths), morphs, morph_offsets (sum of per-morph vertex counts), morph_display, bone_frames,
bone_display, english (-1 = tail ends before the flag, 0/1 = flag), toon (0/1 = the 1000-byte toon
list present), rigid_bodies (-1 = absent), joints (-1 = absent), trailing_bytes.
"""
import os
import struct
import sys


def parse(b):
    p = 0

    def take(n):
        nonlocal p
        if p + n > len(b):
            raise ValueError("truncated at %d (need %d)" % (p, n))
        s = b[p:p + n]
        p += n
        return s

    def u8():
        return take(1)[0]

    def u16():
        return struct.unpack("<H", take(2))[0]

    def u32():
        return struct.unpack("<I", take(4))[0]

    if take(3) != b"Pmd":
        raise ValueError("bad signature")
    take(4 + 20 + 256)  # version, name, comment
    r = {}
    r["vertices"] = u32(); take(38 * r["vertices"])
    r["face_indices"] = u32(); take(2 * r["face_indices"])
    r["materials"] = u32(); take(70 * r["materials"])
    r["bones"] = u16(); take(39 * r["bones"])
    r["ik_chains"] = u16()
    links = 0
    for _ in range(r["ik_chains"]):
        take(4)  # target, effector
        n = u8()
        take(2 + 4)  # iterations, unit angle
        take(2 * n)
        links += n
    r["ik_links"] = links
    r["morphs"] = u16()
    offsets = 0
    for _ in range(r["morphs"]):
        take(20)
        n = u32()
        take(1)
        take(16 * n)
        offsets += n
    r["morph_offsets"] = offsets
    r["morph_display"] = u8(); take(2 * r["morph_display"])
    r["bone_frames"] = u8(); take(50 * r["bone_frames"])
    r["bone_display"] = u32(); take(3 * r["bone_display"])
    r["english"] = -1
    r["toon"] = 0
    r["rigid_bodies"] = -1
    r["joints"] = -1
    # Optional tail: each part only if its bytes are all there.
    if p < len(b):
        flag = b[p]
        eng = 1 + 20 + 256 + 20 * r["bones"] + 20 * max(r["morphs"] - 1, 0) + 50 * r["bone_frames"]
        if flag == 0:
            p += 1
            r["english"] = 0
        elif flag == 1 and p + eng <= len(b):
            p += eng
            r["english"] = 1
    if r["english"] != -1 and p + 1000 <= len(b):
        p += 1000
        r["toon"] = 1
    if r["toon"] and p + 4 <= len(b):
        n = struct.unpack("<I", b[p:p + 4])[0]
        if p + 4 + 83 * n <= len(b):
            p += 4 + 83 * n
            r["rigid_bodies"] = n
    if r["rigid_bodies"] != -1 and p + 4 <= len(b):
        n = struct.unpack("<I", b[p:p + 4])[0]
        if p + 4 + 124 * n <= len(b):
            p += 4 + 124 * n
            r["joints"] = n
    r["trailing_bytes"] = len(b) - p
    return r


COLUMNS = ["vertices", "face_indices", "materials", "bones", "ik_chains", "ik_links", "morphs",
           "morph_offsets", "morph_display", "bone_frames", "bone_display", "english", "toon",
           "rigid_bodies", "joints", "trailing_bytes"]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    corpus = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "shared", "corpus")
    print("\t".join(["local_path"] + COLUMNS))
    with open(os.path.join(corpus, "MANIFEST.tsv"), encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            row = dict(zip(header, line.rstrip("\n").split("\t")))
            if row.get("kind") != "pmd":
                continue
            with open(os.path.join(corpus, row["local_path"]), "rb") as g:
                r = parse(g.read())
            print("\t".join([row["local_path"]] + [str(r[c]) for c in COLUMNS]))


if __name__ == "__main__":
    main()
