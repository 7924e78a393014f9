#!/usr/bin/env python3
"""Independent VMD section counter for mmdkit's corpus tests.

Written from ../shared/reference/FORMAT-NOTES.md ("VMD (motion)"), not from the C++ reader:
  header: signature[30] ("Vocaloid Motion Data 0002" -> model name[20], "... file" -> [10]);
  sections, each a u32 count + records: bone 111 B, morph 23 B, camera 61 B, light 28 B,
  self-shadow 9 B, property (frame u32, visible u8, IK count u32, IK count x (name[20], u8)).
Bone and morph are mandatory; a count beyond the bytes left is an error. The optional sections
(camera on) are taken one by one while they parse completely; the first that does not, and
everything after it, is trailing data (as are bytes after the property section).

Usage: tools/vmd_counts.py CORPUS_DIR > tests/data/vmd_counts.tsv
Columns: path, status (ok or the error: count_too_large / truncated), version, bone, morph,
camera, light, self_shadow, property, ik_states, sections_present, trailing_bytes,
bone_tracks, morph_tracks (distinct 15-byte raw names).
"""
import struct
import sys
from pathlib import Path

RECORD = {"bone": 111, "morph": 23, "camera": 61, "light": 28, "self_shadow": 9}


def parse(data):
    row = {"status": "ok", "version": "", "bone": 0, "morph": 0, "camera": 0, "light": 0,
           "self_shadow": 0, "property": 0, "ik_states": 0, "sections_present": 0,
           "trailing_bytes": 0, "bone_tracks": 0, "morph_tracks": 0}
    sig = data[:30].split(b"\0", 1)[0]
    if sig == b"Vocaloid Motion Data 0002":
        row["version"], pos = "v2", 50
    elif sig == b"Vocaloid Motion Data file":
        row["version"], pos = "v1", 40
    else:
        row["status"] = "bad_signature"
        return row
    if len(data) < pos:
        row["status"] = "truncated"
        return row
    for name, tracks in (("bone", "bone_tracks"), ("morph", "morph_tracks")):
        if len(data) - pos < 4:
            row["status"] = "truncated"
            return row
        (n,) = struct.unpack_from("<I", data, pos)
        pos += 4
        size = RECORD[name]
        if n * size > len(data) - pos:
            row["status"] = "count_too_large" if (len(data) - pos) // size == 0 else "truncated"
            return row
        row[name] = n
        row[tracks] = len({data[pos + i * size: pos + i * size + 15] for i in range(n)})
        pos += n * size
    row["sections_present"] = 2
    for name in ("camera", "light", "self_shadow"):
        if pos == len(data):
            return row
        if len(data) - pos < 4:
            break
        (n,) = struct.unpack_from("<I", data, pos)
        if n * RECORD[name] > len(data) - pos - 4:
            break
        row[name] = n
        pos += 4 + n * RECORD[name]
        row["sections_present"] += 1
    else:
        if pos == len(data):
            return row
        p = pos
        ok = len(data) - p >= 4
        if ok:
            (n,) = struct.unpack_from("<I", data, p)
            p += 4
            states = 0
            for _ in range(n):
                if len(data) - p < 9:
                    ok = False
                    break
                (c,) = struct.unpack_from("<I", data, p + 5)
                p += 9
                if c * 21 > len(data) - p:
                    ok = False
                    break
                p += 21 * c
                states += c
        if ok:
            row["property"], row["ik_states"] = n, states
            row["sections_present"] = 6
            pos = p
    row["trailing_bytes"] = len(data) - pos
    return row


def main():
    corpus = Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/corpus")
    cols = ["status", "version", "bone", "morph", "camera", "light", "self_shadow", "property",
            "ik_states", "sections_present", "trailing_bytes", "bone_tracks", "morph_tracks"]
    print("path\t" + "\t".join(cols))
    for line in (corpus / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        f = line.split("\t")
        if len(f) < 7 or f[6] != "vmd":
            continue
        row = parse((corpus / f[0]).read_bytes())
        print(f[0] + "\t" + "\t".join(str(row[c]) for c in cols))


if __name__ == "__main__":
    main()
