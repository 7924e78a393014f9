#!/usr/bin/env python3
"""Independent PMM (MMD project) counter for mmdkit's corpus tests.

Written from ../shared/reference/PMM-NOTES.md and the layout of nanoem's reader
(hkrn/nanoem nanoem/ext/document.c, document_p.h), not from mmdkit's C++ reader; it shares no
code with it. It walks the file with fixed record sizes:
  header: signature[30], i32 width, i32 height, i32 timeline width, f32 view angle,
    6 panel bytes (+1 in version 2);
  models: u8 selected, u8 count (version 1: count x name[20]); per model u8 index, then
    v2: u8-length name, u8-length English name, path[256], u8 fixed tracks, i32 bones + u8-length
    names, i32 morphs + names, i32 IK bones + i32 each, i32 outside-parent bones + i32 each;
    v1: name[20], path[256] (bone / morph / IK counts come from the model file, --counts);
    u8 draw order, u8 visible, i32 selected bone, 4 x i32 selected morphs, u8 n + n bytes,
    i32 scroll, i32 last frame; initial bone keys (bones x 57 / 58 bytes), i32 n + n x 61 / 62;
    initial morph keys (morphs x 17), i32 n + n x 21; initial model key (12 + 1 + IK bytes +
    v2: 8 x outside parents + 1), i32 n + n x (that + 4); bone states (bones x 34 / 31), morph
    states (morphs x 4), IK states (IK x 1), v2: outside-parent states (x 16) and 7 bytes;
  camera: initial key 70 / 78 bytes, i32 n + n x 74 / 82, 37 bytes;
  light: initial 37, i32 n + n x 41, 24 bytes; u8 + i32;
  accessories: u8 n, n x name[100], per accessory u8 + name[100] + path[256] + u8, initial key 51,
    i32 n + n x 55, 38 (+1 in v2) bytes;
  settings: 16 + 4 + 8 + 1 + 256 + 12 + 256 + 4 + 12 + 256 + 4 + 4 + 12 bytes;
  v2: 2 bytes, gravity (21 bytes, initial key 34, i32 n + n x 38), self shadow (5 bytes,
    initial key 18, i32 n + n x 22), 12 + 1 + 8 + 64 + 3 + 4 bytes, then an optional u8 flag and,
    when it is not 0, models x 5 bytes; v1: the rest is not interpreted.

Usage: tools/pmm_counts.py CORPUS_DIR > tests/data/pmm_counts.tsv
       tools/pmm_counts.py FILE.pmm [--counts B,M,I;B,M,I...]   (one row on stdout)
Columns: path, status (ok or the error and its byte offset), version, models, model_keys (per
model "initial_bones+bone_keys/initial_morphs+morph_keys/model_keys", ';'-separated),
accessories, accessory_keys (per accessory, ';'-separated), camera_keys, light_keys,
gravity_keys, self_shadow_keys (regular keys, the initial one not counted), trailing_bytes.
"""
import struct
import sys
from pathlib import Path


class Truncated(Exception):
    def __init__(self, pos):
        super().__init__(pos)
        self.pos = pos


class CountTooLarge(Exception):
    def __init__(self, pos):
        super().__init__(pos)
        self.pos = pos


class Cursor:
    def __init__(self, data):
        self.data, self.pos = data, 0

    def need(self, n):
        if n < 0 or self.pos + n > len(self.data):
            raise Truncated(self.pos)

    def skip(self, n):
        self.need(n)
        self.pos += n

    def u8(self):
        self.need(1)
        self.pos += 1
        return self.data[self.pos - 1]

    def i32(self):
        self.need(4)
        self.pos += 4
        return struct.unpack_from("<i", self.data, self.pos - 4)[0]

    def count(self, size):
        n = self.i32()
        if n < 0 or n * size > len(self.data) - self.pos:
            raise CountTooLarge(self.pos - 4)
        return n

    def vstr(self):
        self.skip(self.u8())


def walk(data, v1_counts=None):
    c = Cursor(data)
    sig = data[:30].split(b"\0", 1)[0]
    if sig == b"Polygon Movie maker 0002":
        v2 = True
    elif sig == b"Polygon Movie maker 0001":
        v2 = False
    else:
        return {"status": "bad_signature@0"}
    row = {"status": "ok", "version": 2 if v2 else 1}
    try:
        c.skip(30 + 16 + 6 + (1 if v2 else 0))
        c.u8()
        nmodels = c.u8()
        if not v2:
            c.skip(20 * nmodels)
        per_model = []
        for m in range(nmodels):
            c.u8()
            if v2:
                c.vstr()
                c.vstr()
                c.skip(256 + 1)
                bones = c.count(1)
                for _ in range(bones):
                    c.vstr()
                morphs = c.count(1)
                for _ in range(morphs):
                    c.vstr()
                iks = c.count(4)
                c.skip(4 * iks)
                ops = c.count(4)
                c.skip(4 * ops)
            else:
                if v1_counts is None or m >= len(v1_counts):
                    return {"status": f"needs_model_counts@{c.pos}", "version": 1}
                bones, morphs, iks = v1_counts[m]
                ops = 0
                c.skip(20 + 256)
            c.skip(1 + 1 + 4 + 16)
            c.skip(c.u8())
            c.skip(8)
            bone_key = 57 + (1 if v2 else 0)
            c.skip(bones * bone_key)
            nbk = c.count(bone_key + 4)
            c.skip(nbk * (bone_key + 4))
            c.skip(morphs * 17)
            nmk = c.count(21)
            c.skip(nmk * 21)
            model_key = 12 + 1 + iks + (8 * ops if v2 else 0) + 1
            c.skip(model_key)
            nk = c.count(model_key + 4)
            c.skip(nk * (model_key + 4))
            c.skip(bones * (31 if v2 else 34) + morphs * 4 + iks)
            if v2:
                c.skip(ops * 16 + 7)
            per_model.append(f"{bones}+{nbk}/{morphs}+{nmk}/{nk}")
        cam = 70 + (8 if v2 else 0)
        c.skip(cam)
        ncam = c.count(cam + 4)
        c.skip(ncam * (cam + 4) + 37)
        c.skip(37)
        nlight = c.count(41)
        c.skip(nlight * 41 + 24)
        c.skip(5)
        nacc = c.u8()
        c.skip(100 * nacc)
        acc_keys = []
        for _ in range(nacc):
            c.skip(1 + 100 + 256 + 1 + 51)
            n = c.count(55)
            c.skip(n * 55 + 38 + (1 if v2 else 0))
            acc_keys.append(str(n))
        c.skip(16 + 4 + 8 + 1 + 256 + 12 + 256 + 4 + 12 + 256 + 4 + 4 + 12)
        ngrav = nshadow = ""
        if v2:
            c.skip(2 + 21 + 34)
            ngrav = c.count(38)
            c.skip(ngrav * 38)
            c.skip(5 + 18)
            nshadow = c.count(22)
            c.skip(nshadow * 22)
            c.skip(12 + 1 + 8 + 64 + 3 + 4)
            if c.pos < len(data):
                if c.u8() != 0:
                    c.skip(5 * nmodels)
            trailing = len(data) - c.pos
        else:
            trailing = ""  # version 1's tail is not interpreted
        row.update(models=nmodels, model_keys=";".join(per_model), accessories=nacc,
                   accessory_keys=";".join(acc_keys), camera_keys=ncam, light_keys=nlight,
                   gravity_keys=ngrav, self_shadow_keys=nshadow, trailing_bytes=trailing)
    except Truncated as e:
        row["status"] = f"truncated@{e.pos}"
    except CountTooLarge as e:
        row["status"] = f"count_too_large@{e.pos}"
    return row


COLUMNS = ["status", "version", "models", "model_keys", "accessories", "accessory_keys",
           "camera_keys", "light_keys", "gravity_keys", "self_shadow_keys", "trailing_bytes"]


def line(path, row):
    return "\t".join([path] + [str(row.get(k, "")) for k in COLUMNS])


def main(argv):
    target = Path(argv[1])
    if target.is_file():
        counts = None
        if len(argv) > 3 and argv[2] == "--counts":
            counts = [tuple(int(x) for x in m.split(",")) for m in argv[3].split(";")]
        print(line(str(target), walk(target.read_bytes(), counts)))
        return 0
    print("\t".join(["path"] + COLUMNS))
    manifest = (target / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]
    for entry in manifest:
        fields = entry.split("\t")
        if len(fields) > 6 and fields[6] == "pmm":
            print(line(fields[0], walk((target / fields[0]).read_bytes())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
