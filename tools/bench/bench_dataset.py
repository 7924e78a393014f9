#!/usr/bin/python3
"""Speed of mmdkit.dataset next to a peer: frames x bones evaluated per second on one core
(mmdkit.Evaluator.sample vs babylon-mmd's MmdRuntime and MmdWasmRuntime in Node, the same model,
motion and frames), and the speed-up of a Dask smpl24 extraction of every corpus VMD on miku_v2
from 1 to 2 worker processes (LocalCluster, one thread each), and the frames per second of
`dataset --render` (dataset.render: coco17, 512×512, images + COCO JSON + NPZ) in one process and on
1 and 2 Dask workers. Prints a Markdown table (and JSON with --json).

Usage: PYTHONPATH=build/default/python /usr/bin/python3 tools/bench/bench_dataset.py [--repeat N]
         [--peers DIR] [--json out.json] [--render-frames N] [--render-only]
         [--one-core-per-worker] [--out-dir DIR]
Environment: MMDKIT_CORPUS (default ../shared/corpus), MMD_PEERS_DIR (default /tmp/mmd-peers).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import mmdkit
from mmdkit import dataset

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(os.environ.get("MMDKIT_CORPUS", ROOT.parent / "shared" / "corpus"))
MIKU = CORPUS / "jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd"
WAVEFILE = CORPUS / "moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd"
MEI = CORPUS / "mmdagent__mmdagent-mirror/MMDAgent_Example/Model/mei/mei.pmd"


def median_time(fn, repeat):
    ts = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


def mmdkit_rate(repeat):
    ev = mmdkit.Evaluator(str(MIKU), [str(WAVEFILE)], geometry=False)
    frames = np.arange(ev.last_frame + 1, dtype=np.float64)
    nb = len(ev.bone_names)
    t = median_time(lambda: ev.sample(frames, matrices=True, morphs=True), repeat)
    return {"frames": len(frames), "bones": nb, "seconds": t, "rate": len(frames) * nb / t}


def babylon_rate(peers, wasm, repeat, nframes):
    rates = []
    for _ in range(repeat):
        cmd = ["node", str(Path(peers) / "eval_babylon.mjs"), str(MIKU), str(WAVEFILE), "--frames",
               f"0-{nframes - 1}:1", "--timing-only"] + (["--wasm"] if wasm else [])
        out = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=peers).stdout
        r = json.loads(out)
        rates.append((r["frameCount"], r["bones"], r["evalMs"] / 1000.0))
    f, b, _ = rates[0]
    t = statistics.median(x[2] for x in rates)
    return {"frames": f, "bones": b, "seconds": t, "rate": f * b / t}


def corpus_motions():
    """Every VMD of the corpus MANIFEST (the unreadable one fails and is reported, as in real use)."""
    import csv
    with open(CORPUS / "MANIFEST.tsv", newline="", encoding="utf-8") as f:
        return [str(CORPUS / r["local_path"]) for r in csv.DictReader(f, delimiter="\t") if r["kind"] == "vmd"]


def _warm():
    import mmdkit.dataset  # noqa: F401  (imports NumPy and the extension in the worker)
    return True


def dask_speedup(repeat):
    """1 and 2 worker processes (one thread each), both clusters up, runs alternated so that a
    change of machine load hits both alike; medians."""
    motions = corpus_motions()
    serial = dataset.extract(motions, str(MIKU), joints="smpl24")
    out = {"motions": len(motions), "failed": sum(not r.ok for r in serial),
           "frames": sum(len(r.frames) for r in serial if r.ok)}
    out["seconds_serial"] = median_time(lambda: dataset.extract(motions, str(MIKU), joints="smpl24"), repeat)
    out["seconds_1"], out["seconds_2"] = alternated(repeat, lambda client: median_time(
        lambda: dataset.extract(motions, str(MIKU), joints="smpl24", client=client), 1))
    out["speedup"] = out["seconds_1"] / out["seconds_2"]
    return out


PIN = [False]  # --one-core-per-worker
OUT_DIR = [None]  # --out-dir (None: the system's temporary folder)


def alternated(repeat, run):
    """run(client) -> seconds on a 1- and a 2-worker LocalCluster (processes, one thread each, the
    environment of `--workers N`: mmdkit._dask.local_worker_env), both up, runs alternated so
    that a change of machine load hits both alike; the medians. The workers are bound to their
    share of the cores as `--workers N` binds them (mmdkit._dask.PinToCores). With PIN[0] every
    worker has a core of its own and draws with one llvmpipe thread: N workers have N cores."""
    from distributed import Client, LocalCluster
    # llvmpipe threads = cores / workers and the cores bound, as --workers N
    from mmdkit._dask import PinToCores, _cores, local_worker_env
    kw = dict(threads_per_worker=1, processes=True, dashboard_address=":0")
    cores = _cores()
    env1, env2 = ({"LP_NUM_THREADS": "1"},) * 2 if PIN[0] else (local_worker_env(1), local_worker_env(2))
    pin1, pin2 = (PinToCores(cores[:1], 1), PinToCores(cores[:2], 2)) if PIN[0] else \
        (PinToCores(cores, 1), PinToCores(cores, 2))
    with LocalCluster(n_workers=1, env=env1, **kw) as c1, Client(c1) as k1, \
            LocalCluster(n_workers=2, env=env2, **kw) as c2, Client(c2) as k2:
        k1.register_worker_plugin(pin1, name=PinToCores.name)
        k2.register_worker_plugin(pin2, name=PinToCores.name)
        k1.run(_warm)
        k2.run(_warm)
        times = {1: [], 2: []}
        for _ in range(repeat):
            for n, client in ((1, k1), (2, k2)):
                times[n].append(run(client))
    return statistics.median(times[1]), statistics.median(times[2])


def render_rates(repeat, nframes):
    """dataset.render of miku_v2 + wavefile_v2 frames 0 .. nframes-1 at 512×512 (coco17, the
    defaults: MSAA 4, edges, shadows, no physics): serial, then Dask 1 and 2 worker processes (both
    clusters up, runs alternated); frames per second, medians. Each run writes into a fresh folder."""
    import shutil
    import tempfile
    kw = dict(joints="coco17", frames=(0, nframes - 1), size=(512, 512))
    tmp = tempfile.mkdtemp(prefix="bench-render-", dir=OUT_DIR[0])
    count = [0]

    def run(client=None):
        count[0] += 1
        out = os.path.join(tmp, str(count[0]))
        t0 = time.perf_counter()
        r = dataset.render(str(MIKU), [str(WAVEFILE)], out, client=client, **kw)
        t = time.perf_counter() - t0
        assert r.images == nframes and not r.errors, r.errors
        shutil.rmtree(out)
        return t

    try:
        res = {"frames": nframes, "size": "512x512"}
        res["seconds_serial"] = statistics.median(run() for _ in range(repeat))
        res["seconds_1"], res["seconds_2"] = alternated(repeat, run)
        for k in ("serial", "1", "2"):
            res[f"fps_{k}"] = nframes / res[f"seconds_{k}"]
        res["speedup"] = res["seconds_1"] / res["seconds_2"]
        return res
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--peers", default=os.environ.get("MMD_PEERS_DIR", "/tmp/mmd-peers"))
    ap.add_argument("--json")
    ap.add_argument("--render-frames", type=int, default=60, help="frames of the dataset --render run (default 60)")
    ap.add_argument("--render-only", action="store_true", help="only the dataset --render figures")
    ap.add_argument("--one-core-per-worker", action="store_true",
                    help="bind each Dask worker to a core of its own, one llvmpipe thread (the farm's scaling)")
    ap.add_argument("--out-dir", help="folder the dataset --render runs write into (e.g. /dev/shm: no disk waits)")
    a = ap.parse_args()
    PIN[0] = a.one_core_per_worker
    OUT_DIR[0] = a.out_dir
    load = os.getloadavg()
    if a.render_only:
        r = render_rates(a.repeat, a.render_frames)
        if a.json:
            Path(a.json).write_text(json.dumps({"load": load, "render": r}, indent=1))
        print(f"load average before: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; medians of {a.repeat}")
        print_render(r)
        return 0
    res = {"load": load, "mmdkit": mmdkit_rate(a.repeat)}
    if (Path(a.peers) / "eval_babylon.mjs").exists():
        res["babylon_js"] = babylon_rate(a.peers, False, a.repeat, res["mmdkit"]["frames"])
        res["babylon_wasm"] = babylon_rate(a.peers, True, a.repeat, res["mmdkit"]["frames"])
    res["dask"] = dask_speedup(a.repeat)
    res["render"] = render_rates(a.repeat, a.render_frames)
    if a.json:
        Path(a.json).write_text(json.dumps(res, indent=1))
    m = res["mmdkit"]
    print(f"load average before: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; medians of {a.repeat}")
    print("| evaluation, miku_v2 + wavefile_v2, all bones, one core | frames x bones / s | ratio to mmdkit |")
    print("| --- | --- | --- |")
    print(f"| mmdkit Evaluator.sample ({m['frames']} frames x {m['bones']} bones, matrices + morphs) | {m['rate']:.3g} | 1 |")
    for k, label in (("babylon_js", "babylon-mmd MmdRuntime (JS)"), ("babylon_wasm", "babylon-mmd MmdWasmRuntime")):
        if k in res:
            print(f"| {label} | {res[k]['rate']:.3g} | {m['rate'] / res[k]['rate']:.1f}x faster |")
    d = res["dask"]
    print(f"\nsmpl24 extraction of the {d['motions']} corpus VMDs on miku_v2.pmd ({d['frames']} frames, "
          f"{d['failed']} file reported as failed): serial {d['seconds_serial']:.2f} s, Dask 1 worker "
          f"{d['seconds_1']:.2f} s, 2 workers {d['seconds_2']:.2f} s: speed-up {d['speedup']:.2f}x")
    print_render(res["render"])


def print_render(r):
    print(f"\ndataset --render, miku_v2 + wavefile_v2, {r['frames']} frames at {r['size']} (coco17, defaults)")
    print("| run | seconds | frames / s |")
    print("| --- | --- | --- |")
    for k, label in (("serial", "one process"), ("1", "Dask, 1 worker"), ("2", "Dask, 2 workers")):
        print(f"| {label} | {r[f'seconds_{k}']:.2f} | {r[f'fps_{k}']:.2f} |")
    print(f"speed-up 1 → 2 workers: {r['speedup']:.2f}x")


if __name__ == "__main__":
    sys.exit(main())
