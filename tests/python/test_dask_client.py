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
