#!/usr/bin/env python3
"""An independent BVH reader and forward-kinematics evaluator (NumPy), for checking the BVH files
mmdkit writes against `mmdkit sample` (docs/BVH.md "Independent check").

Written from the de-facto BVH description (Biovision's format as documented by M. Meredith and
S. Maddock, "Motion Capture File Formats Explained", 2001, and the CMU mocap BVH conversions): a
joint's world matrix is parent_world · T(offset + position channels) · R, R the product of its
rotation channels' matrices in the order the CHANNELS line lists them (angles in degrees). It
shares no code with mmdkit: it uses 4×4 matrices where mmdkit uses quaternions.

    python3 tools/bvh/bvh_fk.py positions FILE.bvh              # (F, J, 3) summary
    python3 tools/bvh/bvh_fk.py compare FILE.bvh SAMPLE.json [--scale S] [--tol 1e-4]

`compare` reads `mmdkit sample` JSON (bone heads, MMD's left-handed space, MMD units), turns each
BVH joint position into MMD space (x, y, -z) / scale, pairs joints with bones by name and prints
the largest distance; exit 1 when it exceeds --tol.
"""
import json
import sys

import numpy as np


def tokens_with_lines(text):
    for number, line in enumerate(text.splitlines(), start=1):
        for tok in line.replace("{", " { ").replace("}", " } ").split():
            yield number, tok


def parse(text):
    """-> (joints, frame_time, values): joints = list of dicts name, parent, offset, channels."""
    lines = text.splitlines()
    toks = list(tokens_with_lines(text))
    i = 0
    joints = []
    stack = []

    def expect(word):
        nonlocal i
        if toks[i][1].upper() != word.upper():
            raise ValueError("line %d: expected %s, found %r" % (toks[i][0], word, toks[i][1]))
        i += 1

    expect("HIERARCHY")
    while toks[i][1].upper() != "MOTION":
        ln, tok = toks[i]
        up = tok.upper()
        if up in ("ROOT", "JOINT"):
            name = lines[ln - 1].split(None, 1)[1].split("{")[0].strip()
            i += 1
            while toks[i][1] != "{":
                i += 1
            joints.append({"name": name, "parent": stack[-1] if stack else -1, "offset": None, "channels": []})
            stack.append(len(joints) - 1)
            i += 1
        elif up == "END":
            i += 2  # End Site
            expect("{")
            expect("OFFSET")
            i += 3
            expect("}")
        elif up == "OFFSET":
            joints[stack[-1]]["offset"] = np.array([float(t) for _, t in toks[i + 1:i + 4]])
            i += 4
        elif up == "CHANNELS":
            n = int(toks[i + 1][1])
            joints[stack[-1]]["channels"] = [t for _, t in toks[i + 2:i + 2 + n]]
            i += 2 + n
        elif tok == "}":
            stack.pop()
            i += 1
        else:
            raise ValueError("line %d: unexpected %r" % (ln, tok))
    i += 1
    assert toks[i][1].upper().startswith("FRAMES")
    frames = int(toks[i + 1][1])
    # "Frame Time: T"
    frame_time = float(toks[i + 4][1])
    first_line = toks[i + 4][0]
    rows = [l.split() for l in lines[first_line:] if l.strip()]
    if len(rows) != frames:
        raise ValueError("Frames: %d but %d frame lines" % (frames, len(rows)))
    values = np.array([[float(v) for v in r] for r in rows], dtype=np.float64).reshape(frames, -1)
    count = sum(len(j["channels"]) for j in joints)
    if values.shape[1] != count:
        raise ValueError("%d values per frame, %d channels" % (values.shape[1], count))
    return joints, frame_time, values


def axis_matrices(axis, degrees):
    """(F, 4, 4) rotation matrices about X, Y or Z."""
    a = np.radians(degrees)
    c, s = np.cos(a), np.sin(a)
    m = np.zeros((len(a), 4, 4))
    m[:, 3, 3] = 1
    if axis == "X":
        m[:, 0, 0] = 1
        m[:, 1, 1], m[:, 1, 2], m[:, 2, 1], m[:, 2, 2] = c, -s, s, c
    elif axis == "Y":
        m[:, 1, 1] = 1
        m[:, 0, 0], m[:, 0, 2], m[:, 2, 0], m[:, 2, 2] = c, s, -s, c
    else:
        m[:, 2, 2] = 1
        m[:, 0, 0], m[:, 0, 1], m[:, 1, 0], m[:, 1, 1] = c, -s, s, c
    return m


def world_positions(joints, values):
    """(F, J, 3) joint origins in the file's space."""
    frames = values.shape[0]
    world = []
    col = 0
    for j in joints:
        local = np.tile(np.eye(4), (frames, 1, 1))
        local[:, :3, 3] = j["offset"]
        rot = np.tile(np.eye(4), (frames, 1, 1))
        for ch in j["channels"]:
            v = values[:, col]
            col += 1
            kind = ch[1:].lower()
            if kind == "position":
                local[:, "XYZ".index(ch[0].upper()), 3] += v
            else:
                rot = rot @ axis_matrices(ch[0].upper(), v)
        local = local @ rot
        world.append(local if j["parent"] < 0 else world[j["parent"]] @ local)
    return np.stack([w[:, :3, 3] for w in world], axis=1)


def compare(bvh_path, sample_path, scale, tol):
    joints, _, values = parse(open(bvh_path, encoding="utf-8").read())
    pos = world_positions(joints, values)
    pos = pos * np.array([1.0, 1.0, -1.0]) / scale
    sample = json.load(open(sample_path, encoding="utf-8"))
    frames = sample["frames"]
    if len(frames) != pos.shape[0]:
        print("frame counts differ: BVH %d, sample %d" % (pos.shape[0], len(frames)))
        return 1
    names = [b["name"] for b in frames[0]["bones"]]
    index = {}
    for k, n in enumerate(names):
        index.setdefault(n, []).append(k)
    pairs = [(ji, index[j["name"]][0]) for ji, j in enumerate(joints) if len(index.get(j["name"], [])) == 1]
    ref = np.array([[frames[f]["bones"][b]["position"] for _, b in pairs] for f in range(len(frames))])
    got = pos[:, [j for j, _ in pairs], :]
    err = np.linalg.norm(got - ref, axis=2)
    worst = np.unravel_index(np.argmax(err), err.shape)
    print("joints compared: %d of %d, frames: %d, max distance %.3g (frame %d, joint %s), mean %.3g"
          % (len(pairs), len(joints), len(frames), err.max(), worst[0], joints[pairs[worst[1]][0]]["name"], err.mean()))
    return 0 if err.max() <= tol else 1


def main(argv):
    if len(argv) >= 2 and argv[0] == "positions":
        joints, ft, values = parse(open(argv[1], encoding="utf-8").read())
        p = world_positions(joints, values)
        print("joints %d, frames %d, frame time %g, shape %s" % (len(joints), values.shape[0], ft, p.shape))
        return 0
    if len(argv) >= 3 and argv[0] == "compare":
        scale, tol = 1.0, 1e-4
        rest = argv[3:]
        while rest:
            if rest[0] == "--scale":
                scale = float(rest[1])
            elif rest[0] == "--tol":
                tol = float(rest[1])
            rest = rest[2:]
        return compare(argv[1], argv[2], scale, tol)
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
