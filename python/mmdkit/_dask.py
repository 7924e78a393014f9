"""The Dask client of the commands that run on a cluster: ``mmdkit dataset`` and ``mmdkit render``
with ``--workers N`` (a local cluster of N single-threaded worker processes) or ``--scheduler
ADDRESS`` (a running scheduler)."""
from __future__ import annotations

import contextlib
from typing import Iterator, Optional

from .errors import Error


class DaskUnavailable(Error):
    """Dask cannot be used: not installed, or the scheduler cannot be reached (the message says which)."""


@contextlib.contextmanager
def client(workers: int = 0, scheduler: Optional[str] = None) -> Iterator["object"]:
    """A distributed.Client on `scheduler` when given, else on a local cluster of `workers`
    single-threaded processes (no dashboard); closed (the local cluster stopped) on leaving.
    Raises DaskUnavailable when Dask is missing or the scheduler is unreachable."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise DaskUnavailable("Dask is not installed (Debian: python3-distributed)") from None
    if scheduler:
        try:
            c = Client(scheduler)
        except (OSError, TimeoutError, ValueError) as e:  # unreachable, refused, bad address
            reason = str(e).strip() or type(e).__name__
            raise DaskUnavailable(f"cannot reach the Dask scheduler at {scheduler}: {reason}") from None
        with c:
            yield c
    else:
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as c:
            yield c
