#!/usr/bin/env python3
"""Independent PMX 2.0/2.1 section counter, written from the PMX specification (PmxEditor's
PMX仕様.txt), not from mmdkit's C++. Writes tests/data/pmx_counts.tsv for the corpus:

    python3 tools/pmx_counts.py ../shared/corpus > tests/data/pmx_counts.tsv

Columns: local_path, version (2.0/2.1), encoding (0 UTF-16LE / 1 UTF-8), additional UVs,
index sizes (v,t,m,b,morph,r), vertices, sdef vertices, triangles, textures, materials, bones,
morphs, display frames, rigid bodies, joints, soft bodies, trailing bytes, name (UTF-8).
"""
import struct
import sys
from pathlib import Path


class R:
    def __init__(self, b):
        self.b = b
        self.p = 0

    def take(self, n):
        if self.p + n > len(self.b):
            raise ValueError(f"truncated at {self.p}")
        s = self.b[self.p:self.p + n]
        self.p += n
        return s

    def u8(self):
        return self.take(1)[0]

    def i32(self):
        return struct.unpack('<i', self.take(4))[0]

    def f32(self):
        return struct.unpack('<f', self.take(4))[0]

    def skip(self, n):
        self.take(n)

    def text(self):
        n = self.i32()
        return self.take(n)


def count(path):
    r = R(Path(path).read_bytes())
    if r.take(4) != b'PMX ':
        raise ValueError('signature')
    version = r.f32()
    v21 = abs(version - 2.1) < 1e-3
    g = r.take(r.u8())
    enc, auv, vi, ti, mi, bi, mo, ri = g[:8]
    name = r.text()
    r.text(); r.text(); r.text()
    # vertices
    nv = r.i32()
    sdef = 0
    for _ in range(nv):
        r.skip(32 + 16 * auv)
        t = r.u8()
        if t == 0:
            r.skip(bi)
        elif t == 1:
            r.skip(2 * bi + 4)
        elif t in (2, 4):
            r.skip(4 * bi + 16)
        elif t == 3:
            r.skip(2 * bi + 4 + 36)
            sdef += 1
        else:
            raise ValueError('deform')
        r.skip(4)
    nf = r.i32()
    r.skip(nf * vi)
    nt = r.i32()
    for _ in range(nt):
        r.text()
    nm = r.i32()
    for _ in range(nm):
        r.text(); r.text()
        r.skip(16 + 12 + 4 + 12 + 1 + 16 + 4 + 2 * ti + 1)
        toon = r.u8()
        r.skip(1 if toon == 1 else ti)
        r.text()
        r.skip(4)
    nb = r.i32()
    for _ in range(nb):
        r.text(); r.text()
        r.skip(12 + bi + 4)
        flags = struct.unpack('<H', r.take(2))[0]
        r.skip(bi if flags & 0x1 else 12)
        if flags & 0x300:
            r.skip(bi + 4)
        if flags & 0x400:
            r.skip(12)
        if flags & 0x800:
            r.skip(24)
        if flags & 0x2000:
            r.skip(4)
        if flags & 0x20:
            r.skip(bi + 8)
            for _ in range(r.i32()):
                r.skip(bi)
                if r.u8():
                    r.skip(24)
    nmo = r.i32()
    for _ in range(nmo):
        r.text(); r.text()
        r.u8()
        t = r.u8()
        k = r.i32()
        size = {0: mo + 4, 1: vi + 12, 2: bi + 28, 8: mi + 1 + 112, 9: mo + 4, 10: ri + 25}
        r.skip(k * size.get(t, vi + 16))
    nd = r.i32()
    for _ in range(nd):
        r.text(); r.text()
        r.u8()
        for _ in range(r.i32()):
            r.skip(bi if r.u8() == 0 else mo)
    nr = r.i32()
    for _ in range(nr):
        r.text(); r.text()
        r.skip(bi + 1 + 2 + 1 + 36 + 20 + 1)
    nj = r.i32()
    for _ in range(nj):
        r.text(); r.text()
        r.skip(1 + 2 * ri + 96)
    ns = 0
    if v21:
        ns = r.i32()
        for _ in range(ns):
            r.text(); r.text()
            r.skip(1 + mi + 1 + 2 + 1 + 20 + 4 * 25)
            r.skip(r.i32() * (ri + vi + 1))
            r.skip(r.i32() * vi)
    trailing = len(r.b) - r.p
    text = name.decode('utf-16-le' if enc == 0 else 'utf-8', errors='replace')
    text = text.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ')
    return ['2.1' if v21 else '2.0', enc, auv, f'{vi},{ti},{mi},{bi},{mo},{ri}', nv, sdef, nf // 3, nt, nm, nb,
            nmo, nd, nr, nj, ns, trailing, text]


def main():
    corpus = Path(sys.argv[1] if len(sys.argv) > 1 else '../shared/corpus')
    print('\t'.join(['local_path', 'version', 'encoding', 'additional_uvs', 'index_sizes', 'vertices', 'sdef',
                     'triangles', 'textures', 'materials', 'bones', 'morphs', 'display_frames', 'rigid_bodies',
                     'joints', 'soft_bodies', 'trailing', 'name']))
    for line in (corpus / 'MANIFEST.tsv').read_text(encoding='utf-8').splitlines()[1:]:
        cols = line.split('\t')
        if len(cols) < 7 or cols[6] != 'pmx':
            continue
        row = count(corpus / cols[0])
        print('\t'.join([cols[0]] + [str(x) for x in row]))


if __name__ == '__main__':
    main()
