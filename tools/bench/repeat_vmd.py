#!/usr/bin/python3
"""A large VMD of real shape: the bone and morph keys of one VMD repeated N times, copy k shifted
by k * (last frame + 1), camera/light/self-shadow sections kept empty. Used by scripts/bench.sh
for the whole-process `info` figures (wavefile_v2.vmd x 66 = 105 MB).

Usage: repeat_vmd.py IN.vmd N OUT.vmd
"""
import struct
import sys

BONE, MORPH = 111, 23  # record sizes (name 15 + frame u32 + ...)


def main() -> int:
    src, n, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    b = open(src, "rb").read()
    head = b[:50]
    at = 50
    (nb,) = struct.unpack_from("<I", b, at)
    bones = b[at + 4: at + 4 + nb * BONE]
    at += 4 + nb * BONE
    (nm,) = struct.unpack_from("<I", b, at)
    morphs = b[at + 4: at + 4 + nm * MORPH]
    frames = [struct.unpack_from("<I", bones, i * BONE + 15)[0] for i in range(nb)]
    frames += [struct.unpack_from("<I", morphs, i * MORPH + 15)[0] for i in range(nm)]
    span = max(frames) + 1

    def shifted(recs, size, k):
        out = bytearray(recs)
        for i in range(len(recs) // size):
            f = struct.unpack_from("<I", out, i * size + 15)[0]
            struct.pack_into("<I", out, i * size + 15, f + k * span)
        return bytes(out)

    with open(dst, "wb") as f:
        f.write(head)
        f.write(struct.pack("<I", nb * n))
        for k in range(n):
            f.write(shifted(bones, BONE, k))
        f.write(struct.pack("<I", nm * n))
        for k in range(n):
            f.write(shifted(morphs, MORPH, k))
        f.write(struct.pack("<III", 0, 0, 0))  # camera, light, self-shadow
    return 0


if __name__ == "__main__":
    sys.exit(main())
