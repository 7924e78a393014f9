"""The local Dask cluster of `--workers N` (mmdkit._dask): each worker process gets llvmpipe's
thread count so that the workers' drawing threads together match the cores (docs/RENDER.md
"Render farm")."""
from __future__ import annotations

import os

import pytest

from mmdkit import _dask


def test_thread_share(monkeypatch):
    monkeypatch.delenv("LP_NUM_THREADS", raising=False)
    assert _dask.local_worker_env(1, cores=2) == {"LP_NUM_THREADS": "2"}
    assert _dask.local_worker_env(2, cores=2) == {"LP_NUM_THREADS": "1"}
    assert _dask.local_worker_env(3, cores=2) == {"LP_NUM_THREADS": "1"}  # never 0 (Mesa's "no threads")
    assert _dask.local_worker_env(2, cores=8) == {"LP_NUM_THREADS": "4"}
    monkeypatch.setenv("LP_NUM_THREADS", "3")  # the caller's choice is kept
    assert _dask.local_worker_env(2, cores=8) == {"LP_NUM_THREADS": "3"}


def test_workers_see_it(monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.delenv("LP_NUM_THREADS", raising=False)
    expected = _dask.local_worker_env(2)["LP_NUM_THREADS"]
    with _dask.client(workers=2) as c:
        seen = c.run(lambda: os.environ.get("LP_NUM_THREADS"))
    assert sorted(seen.values()) == [expected, expected]


def test_core_shares():
    # worker k of N gets cores[k*C/N : (k+1)*C/N]; past one worker a core, core k mod C
    p = _dask.PinToCores([0, 1], 1)
    assert p.share(0) == [0, 1]
    p = _dask.PinToCores([0, 1], 2)
    assert [p.share(0), p.share(1)] == [[0], [1]]
    p = _dask.PinToCores([4, 5, 6, 7, 8, 9, 10, 11], 3)
    assert [p.share(k) for k in range(3)] == [[4, 5], [6, 7, 8], [9, 10, 11]]
    p = _dask.PinToCores([2, 3], 3)
    assert [p.share(k) for k in range(3)] == [[2], [3], [2]]
    # every core is given, none twice, when N <= C
    p = _dask.PinToCores(list(range(7)), 3)
    assert sorted(c for k in range(3) for c in p.share(k)) == list(range(7))


def test_workers_are_bound_to_their_share():
    pytest.importorskip("distributed")
    if not hasattr(os, "sched_getaffinity"):
        pytest.skip("no CPU affinity calls here")
    cores = sorted(os.sched_getaffinity(0))
    with _dask.client(workers=2) as c:
        # every thread of each worker (the task's own thread included) is bound
        seen = c.run(lambda: sorted({tuple(sorted(os.sched_getaffinity(int(t))))
                                     for t in os.listdir("/proc/self/task")}))
    shares = _dask.PinToCores(cores, 2)
    by_worker = sorted(seen.values())
    expected = sorted([[tuple(shares.share(0))], [tuple(shares.share(1))]])
    assert by_worker == expected
