#!/usr/bin/env python3
"""Silhouette comparison of the render-peer pairs (tools/render-peer, not in CI): for each frame F,
OUT/ours_F.png and OUT/babylon_F.png are reduced to masks of drawn pixels (luma < 245 composited
on white) and compared: the integer shift (dx, dy) of babylon's image that best matches ours, and
the median difference of the silhouettes' top, left and right edges. No dependencies (zlib PNG
decoding, 8-bit RGB/RGBA).

    python3 silhouette.py OUT [FRAME ...]
"""
import statistics
import struct
import sys
import zlib


def mask(path):
    d = open(path, "rb").read()
    i, idat = 8, b""
    while i < len(d):
        n, = struct.unpack(">I", d[i:i + 4])
        t, c = d[i + 4:i + 8], d[i + 8:i + 8 + n]
        if t == b"IHDR":
            w, h, _, ct = struct.unpack(">IIBB", c[:10])
        if t == b"IDAT":
            idat += c
        i += 12 + n
    raw = zlib.decompress(idat)
    bpp = {6: 4, 2: 3}[ct]
    stride, p, prev, rows = w * bpp, 0, bytearray(w * bpp), []
    for _ in range(h):
        f = raw[p]
        line = bytearray(raw[p + 1:p + 1 + stride])
        p += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    m = []
    for y in range(h):
        r = rows[y]
        row = []
        for x in range(w):
            alpha = r[x * bpp + 3] / 255 if bpp == 4 else 1.0
            lum = sum(r[x * bpp:x * bpp + 3]) / 3 * alpha + 255 * (1 - alpha)
            row.append(1 if lum < 245 else 0)
        m.append(row)
    return w, h, m


def compare(out, f):
    w, h, A = mask(f"{out}/ours_{f}.png")
    _, _, B = mask(f"{out}/babylon_{f}.png")
    best = None
    for dy in range(-6, 7):
        for dx in range(-8, 9):
            s = sum(A[y][x] != B[y + dy][x + dx] for y in range(max(0, -dy), min(h, h - dy))
                    for x in range(max(0, -dx), min(w, w - dx)))
            if best is None or s < best[0]:
                best = (s, dx, dy)
    tops, lefts, rights = [], [], []
    for x in range(w):
        ta = next((y for y in range(h) if A[y][x]), None)
        tb = next((y for y in range(h) if B[y][x]), None)
        if ta is not None and tb is not None:
            tops.append(tb - ta)
    for y in range(h):
        xa = [x for x in range(w) if A[y][x]]
        xb = [x for x in range(w) if B[y][x]]
        if xa and xb:
            lefts.append(xb[0] - xa[0])
            rights.append(xb[-1] - xa[-1])
    print(f"{f}\tbest shift dx {best[1]} dy {best[2]}\tedges babylon - ours: top {statistics.median(tops)} "
          f"left {statistics.median(lefts)} right {statistics.median(rights)}")


if __name__ == "__main__":
    out = sys.argv[1]
    for f in sys.argv[2:] or ["0", "600", "1200", "1800", "2400"]:
        compare(out, f)
