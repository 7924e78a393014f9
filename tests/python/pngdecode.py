"""A PNG decoder for the tests (8-bit RGB / RGBA, non-interlaced: what mmdkit writes), written from
the PNG specification (W3C PNG 2nd edition, sections 5 chunks, 9 filters), so that pictures are
checked without trusting mmdkit's own decoder."""
from __future__ import annotations

import struct
import zlib

import numpy as np


def decode_png(data: bytes) -> np.ndarray:
    """(H, W, C) uint8 array of an 8-bit RGB (C 3) or RGBA (C 4) PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        assert zlib.crc32(kind + body) == struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0], "bad CRC"
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    w, h, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    c = 4 if colour == 6 else 3
    raw = zlib.decompress(idat)
    stride = w * c
    out = np.zeros((h, stride), dtype=np.int32)
    prev = np.zeros(stride, dtype=np.int32)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = np.frombuffer(raw, dtype=np.uint8, count=stride, offset=y * (stride + 1) + 1).astype(np.int32)
        cur = np.zeros(stride, dtype=np.int32)
        if f == 0:
            cur = line
        elif f == 2:
            cur = (line + prev) & 255
        else:  # 1 sub, 3 average, 4 Paeth: depend on the byte to the left, so byte by byte
            for i in range(stride):
                a = cur[i - c] if i >= c else 0
                b = prev[i]
                if f == 1:
                    p = a
                elif f == 3:
                    p = (a + b) // 2
                else:
                    cc = prev[i - c] if i >= c else 0
                    pa, pb, pc = abs(b - cc), abs(a - cc), abs(a + b - 2 * cc)
                    p = a if pa <= pb and pa <= pc else (b if pb <= pc else cc)
                cur[i] = (line[i] + p) & 255
        out[y] = cur
        prev = cur
    return out.astype(np.uint8).reshape(h, w, c)
