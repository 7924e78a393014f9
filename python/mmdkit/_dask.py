"""The Dask client of the commands that run on a cluster: ``mmdkit dataset`` and ``mmdkit render``
with ``--workers N`` (a local cluster of N single-threaded worker processes) or ``--scheduler
ADDRESS`` (a running scheduler)."""
from __future__ import annotations

import contextlib
import os
from typing import Dict, Iterator, List, Optional, Sequence

from .errors import Error


class DaskUnavailable(Error):
    """Dask cannot be used: not installed, or the scheduler cannot be reached (the message says which)."""


@contextlib.contextmanager
def client(workers: int = 0, scheduler: Optional[str] = None) -> Iterator["object"]:
    """A distributed.Client on `scheduler` when given, else on a local cluster of `workers`
    single-threaded processes (no dashboard); closed (the local cluster stopped) on leaving.
    Local workers share the machine's cores for drawing too: each gets llvmpipe's
    LP_NUM_THREADS = cores / workers (local_worker_env) and is bound to its share of the cores
    (PinToCores), so N workers on N cores do not contend nor migrate.
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
        # dashboard_address=":0": the scheduler's HTTP server (started whatever the setting) takes a
        # free port instead of 8787, which another cluster may hold ("Port 8787 is already in use").
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=":0", env=local_worker_env(workers)) as cluster, Client(cluster) as c:
            c.register_worker_plugin(PinToCores(_cores(), workers), name=PinToCores.name)
            yield c


def _cores() -> List[int]:
    """The CPUs this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return sorted(os.sched_getaffinity(0))
    return list(range(os.cpu_count() or 1))


class PinToCores:
    """A Dask worker plugin of mmdkit's local clusters: binds worker k of N (its name, 0 .. N−1, as
    LocalCluster names them) and every thread it has or starts later (llvmpipe's raster threads,
    the PNG writer; new threads inherit their creator's binding) to its share of `cores`:
    cores[k·C/N : (k+1)·C/N] for C cores, or the single core k mod C when N > C. Two workers on two
    cores then each keep a core of their own (llvmpipe's threads do not migrate between them:
    docs/BENCHMARKS.md measures the difference). Where the system has no affinity calls, or a
    worker's name is not its number, it does nothing."""

    name = "mmdkit-pin-to-cores"

    def __init__(self, cores: Sequence[int], workers: int):
        self.cores = list(cores)
        self.workers = max(1, int(workers))

    def share(self, k: int) -> List[int]:
        """The cores of worker k."""
        c, n = len(self.cores), self.workers
        if n > c:
            return [self.cores[k % c]]
        return self.cores[k * c // n:(k + 1) * c // n]

    def setup(self, worker=None) -> None:
        if not hasattr(os, "sched_setaffinity") or worker is None:
            return
        try:
            k = int(worker.name)
        except (TypeError, ValueError):
            return
        cores = set(self.share(k))
        if not cores:  # a worker numbered past N (not one of ours): left alone
            return
        for tid in os.listdir("/proc/self/task"):
            try:
                os.sched_setaffinity(int(tid), cores)
            except OSError:  # a thread that ended meanwhile, or a core no longer ours
                pass


def local_worker_env(workers: int, cores: Optional[int] = None) -> Dict[str, str]:
    """The environment of a local cluster's worker processes: llvmpipe's (Mesa's software
    rasteriser) thread count LP_NUM_THREADS = max(1, cores // workers), cores = the CPUs this
    process may use, so that the workers' drawing threads together match the cores (Mesa's default
    is one thread per core in every process: N workers would start N × cores threads). A value the
    caller set in the environment is kept. A GPU driver ignores the variable."""
    if "LP_NUM_THREADS" in os.environ:
        return {"LP_NUM_THREADS": os.environ["LP_NUM_THREADS"]}
    if cores is None:
        cores = len(_cores())
    return {"LP_NUM_THREADS": str(max(1, cores // max(1, workers)))}
