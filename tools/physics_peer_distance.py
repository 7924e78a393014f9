#!/usr/bin/python3
"""Mean distance between two evaluations' physics bones, per frame (docs/PHYSICS.md "Peers").

    tools/physics_peer_distance.py MODEL.json A.json B.json [--from 0] [--to 600]

MODEL.json: `mmdkit dump MODEL` (its rigid bodies give the physics bones: mode 1 or 2 with a
bone). A.json, B.json: `mmdkit sample --physics` or ../shared/peers eval_*.mjs --physics output.
Prints the mean over frames of the per-frame mean position distance (MMD units) over the physics
bones, the largest per-frame mean, and the largest single distance.
"""
import json
import math
import sys


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    opts = dict(zip(argv[1::1], argv[2::1]))
    lo, hi = int(opts.get("--from", 0)), int(opts.get("--to", 600))
    model, a_path, b_path = args[0], args[1], args[2]
    m = json.load(open(model))
    bones = sorted({r["bone"] for r in m["rigid_bodies"] if r["mode"] in (1, 2) and 0 <= r["bone"] < 0xFFFF})
    a = {round(f["frame"]): f for f in json.load(open(a_path))["frames"]}
    b = {round(f["frame"]): f for f in json.load(open(b_path))["frames"]}
    means, worst = [], 0.0
    for frame in range(lo, hi + 1):
        if frame not in a or frame not in b:
            continue
        pa = {x["index"]: x["position"] for x in a[frame]["bones"]}
        pb = {x["index"]: x["position"] for x in b[frame]["bones"]}
        d = [math.dist(pa[i], pb[i]) for i in bones if i in pa and i in pb]
        if d:
            means.append(sum(d) / len(d))
            worst = max(worst, max(d))
    print(f"{len(bones)} physics bones, frames {lo}-{hi}: mean {sum(means) / len(means):.3f}, "
          f"largest frame mean {max(means):.3f}, largest distance {worst:.3f}")


if __name__ == "__main__":
    main(sys.argv)
