"""A Dask cluster on this machine for sweeps of quick runs (docs/python.md, "Dask's own
timers").

A Dask cluster wakes up on timers whether or not it works: each worker samples its threads
for the dashboard's profile every 10 ms; the scheduler, the nannies (in the caller's process)
and the workers check their event loop every 20 ms, the workers' memory every 100 ms and the
machine every 500 ms. Where every core runs a worker, that time comes out of the runs: on two
cores, two workers ran a sweep of quick runs 1.61 times as fast as one with Dask's defaults
and 1.81 times with these timers rare or off (BENCHMARKS.md, "Sweeps"). Nothing a sweep does
depends on them; a worker's memory limit is then enforced within a second instead of 100 ms.
"""

# The timers made rare or off. The workers are started under these settings (a nanny hands
# its configuration to the worker process it starts), and the scheduler and nannies read
# theirs when they are made.
QUIET_DASK = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
}


def local_cluster(n_workers=None, threads_per_worker=1, **kwargs):
    """A ``dask.distributed.LocalCluster`` of ``n_workers`` worker processes (default: one per
    core) with ``threads_per_worker`` threads each, its timers rare or off (``QUIET_DASK``), and
    no dashboard unless ``dashboard_address`` is given. Other keyword arguments go to
    ``LocalCluster``. Use it as ``LocalCluster``: ``with pathpool.local_cluster(2) as cluster,
    Client(cluster) as client: pathpool.sweep(..., client=client)``."""
    import dask
    from dask.distributed import LocalCluster

    kwargs.setdefault("dashboard_address", None)
    kwargs.setdefault("processes", True)
    with dask.config.set(QUIET_DASK):
        return LocalCluster(n_workers=n_workers, threads_per_worker=threads_per_worker, **kwargs)
