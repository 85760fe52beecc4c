"""pathpool.sweep(): a 2 x 2 x 3 grid on a Dask LocalCluster gives 12 rows; a sweep killed
half way runs only the missing runs when called again; local threads give the same numbers."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pandas as pd
import pytest

import pathpool

GRID = {"links.bottleneck.rate": ["10Mbps", "20Mbps"], "flows.reno.cc": ["reno", "cubic"]}
SEEDS = [1, 2, 3]
# Long enough per run (about 0.3 s) that a kill lands half way through the sweep.
SETS = {"simulation.duration": "300s", "simulation.probe_interval": "1s"}


def _files(out):
    return sorted(p.name for p in out.glob("*.json"))


def test_a_grid_on_a_local_cluster_gives_one_row_per_run(root, tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        df = pathpool.sweep(root / "scenarios/examples/dumbbell.toml", grid=GRID, seeds=SEEDS, out=tmp_path / "s", client=client, overrides={"simulation.duration": "25s"}, progress=False)
    assert len(df) == 12 and df.attrs == {"ran": 12, "reused": 0, "mismatched": 0}
    assert list(df.columns[:3]) == ["links.bottleneck.rate_bps", "flows.reno.cc", "seed"]
    assert len(_files(tmp_path / "s")) == 12
    # Each row is the run its parameters describe.
    one = pathpool.run(root / "scenarios/examples/dumbbell.toml", seed=2, overrides={"simulation.duration": "25s", "links.bottleneck.rate": "20Mbps", "flows.reno.cc": "cubic"})
    row = df[(df["seed"] == 2) & (df["links.bottleneck.rate_bps"] == 20_000_000) & (df["flows.reno.cc"] == "cubic")].iloc[0]
    assert row["total_throughput_mbps"] == one.summary["total_throughput_mbps"]
    # Local threads give the same table.
    local = pathpool.sweep(root / "scenarios/examples/dumbbell.toml", grid=GRID, seeds=SEEDS, out=tmp_path / "t", overrides={"simulation.duration": "25s"}, progress=False)
    cols = [c for c in df.columns if not c.startswith("wall_")]
    assert local[cols].equals(df[cols])



def test_pathpools_local_cluster_starts_its_workers_with_dasks_timers_quiet(root, tmp_path):
    distributed = pytest.importorskip("distributed")
    with pathpool.local_cluster(2) as cluster, distributed.Client(cluster) as client:
        # The settings reach the worker processes, not only this one.
        profiling = client.run(lambda: __import__("dask").config.get("distributed.worker.profile.enabled"))
        ticks = client.run(lambda: __import__("dask").config.get("distributed.admin.tick.interval"))
        assert len(profiling) == 2 and not any(profiling.values()) and set(ticks.values()) == {"1s"}
        df = pathpool.sweep(root / "scenarios/examples/dumbbell.toml", grid=GRID, seeds=SEEDS, out=tmp_path / "s", client=client, overrides={"simulation.duration": "25s"}, progress=False)
    local = pathpool.sweep(root / "scenarios/examples/dumbbell.toml", grid=GRID, seeds=SEEDS, out=tmp_path / "t", overrides={"simulation.duration": "25s"}, progress=False)
    cols = [c for c in df.columns if not c.startswith("wall_")]
    assert local[cols].equals(df[cols])


KILLED = textwrap.dedent(
    """
    import sys, distributed, pathpool
    root, out = sys.argv[1], sys.argv[2]
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as c, distributed.Client(c) as client:
        pathpool.sweep(root + "/scenarios/examples/dumbbell.toml", grid={grid!r}, seeds={seeds!r}, out=out, client=client, overrides={sets!r}, progress=False)
    """
).format(grid=GRID, seeds=SEEDS, sets=SETS)


def test_a_killed_sweep_resumes_with_only_the_missing_runs(root, tmp_path):
    distributed = pytest.importorskip("distributed")
    out = tmp_path / "s"
    p = subprocess.Popen([sys.executable, "-c", KILLED, str(root), str(out)], start_new_session=True)
    deadline = time.time() + 120
    while len(_files(out)) < 5 if out.exists() else True:
        assert p.poll() is None, "the sweep ended before it could be killed"
        assert time.time() < deadline, "no results appeared"
        time.sleep(0.02)
    os.killpg(p.pid, signal.SIGKILL)
    p.wait()
    before = {f: (out / f).stat().st_mtime_ns for f in _files(out)}
    assert 5 <= len(before) < 12, f"killed after {len(before)} runs; expected half way"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c, distributed.Client(c) as client:
        df = pathpool.sweep(root / "scenarios/examples/dumbbell.toml", grid=GRID, seeds=SEEDS, out=out, client=client, overrides=SETS, progress=False)
    assert len(df) == 12
    assert df.attrs == {"ran": 12 - len(before), "reused": len(before), "mismatched": 0}
    # The stored runs were not run again, and the new ones were stored.
    assert {f: (out / f).stat().st_mtime_ns for f in before} == before
    assert len(_files(out)) == 12
    again = pathpool.sweep(root / "scenarios/examples/dumbbell.toml", grid=GRID, seeds=SEEDS, out=out, overrides=SETS, progress=False)
    assert again.attrs == {"ran": 0, "reused": 12, "mismatched": 0}


def test_a_bad_grid_value_fails_before_anything_runs(root, tmp_path):
    with pytest.raises(pathpool.ScenarioError, match=r"links\.bottleneck\.rate"):
        pathpool.sweep(root / "scenarios/examples/dumbbell.toml", grid={"links.bottleneck.rate": ["10Mbps", "fast"]}, out=tmp_path / "s", progress=False)
    assert _files(tmp_path / "s") == []


def test_grid_values_with_units_are_numbers_in_one_unit_per_column(root, tmp_path):
    grid = {"links.bottleneck.rate": ["10Mbps", "1.5Mbps"], "links.bottleneck.delay": ["2ms", "1s"], "links.bottleneck.buffer": ["64KiB"], "flows.reno.cc": ["reno"]}
    df = pathpool.sweep(root / "scenarios/examples/dumbbell.toml", grid=grid, out=tmp_path / "s", overrides={"simulation.duration": "25s"}, progress=False)
    assert list(df.columns[:5]) == ["links.bottleneck.rate_bps", "links.bottleneck.delay_s", "links.bottleneck.buffer_bytes", "flows.reno.cc", "seed"]
    assert sorted(df["links.bottleneck.rate_bps"].unique()) == [1_500_000, 10_000_000]
    assert sorted(df["links.bottleneck.delay_s"].unique()) == [0.002, 1.0]
    assert list(df["links.bottleneck.buffer_bytes"].unique()) == [65536]
    for column in df.columns[:3]:
        assert pd.api.types.is_numeric_dtype(df[column]), column
    # Read back from the stored files, the same table.
    again = pathpool.sweep(root / "scenarios/examples/dumbbell.toml", grid=grid, out=tmp_path / "s", overrides={"simulation.duration": "25s"}, progress=False)
    assert again.attrs["reused"] == 4
    cols = [c for c in df.columns if not c.startswith("wall_")]
    assert again[cols].equals(df[cols])


def test_a_grid_key_mixing_units_is_refused_naming_it(root, tmp_path):
    with pytest.raises(pathpool.ScenarioError, match=r"grid: links\.bottleneck\.buffer: expected values with one kind of unit"):
        pathpool.sweep(root / "scenarios/examples/dumbbell.toml", grid={"links.bottleneck.buffer": [25, "64KiB"]}, out=tmp_path / "s", progress=False)
    assert _files(tmp_path / "s") == []


def test_runs_batched_into_dask_tasks_give_the_same_table(root, tmp_path):
    """Several runs per Dask task (what makes quick runs scale over workers, BENCHMARKS.md
    "Sweeps"): the same rows as one run per task, every run stored in its own file."""
    distributed = pytest.importorskip("distributed")
    grid = {"links.bottleneck.rate": ["10Mbps", "20Mbps", "30Mbps"]}
    sets = {"simulation.duration": "25s"}
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        one = pathpool.sweep(root / "scenarios/examples/dumbbell.toml", grid=grid, seeds=[1, 2, 3], out=tmp_path / "one", client=client, overrides=sets, progress=False, batch=1)
        # 9 runs in tasks of 4: two full tasks and one of a single run.
        four = pathpool.sweep(root / "scenarios/examples/dumbbell.toml", grid=grid, seeds=[1, 2, 3], out=tmp_path / "four", client=client, overrides=sets, progress=False, batch=4)
    assert four.attrs == {"ran": 9, "reused": 0, "mismatched": 0} and len(_files(tmp_path / "four")) == 9
    cols = [c for c in one.columns if not c.startswith("wall_")]
    assert four[cols].equals(one[cols])
    assert _files(tmp_path / "four") == _files(tmp_path / "one")


@pytest.mark.parametrize("batch", [0, 2.5, True, "4"])
def test_a_bad_batch_is_refused_naming_it(root, tmp_path, batch):
    with pytest.raises(pathpool.ScenarioError, match=r"batch: expected a whole number >= 1 or None"):
        pathpool.sweep(root / "scenarios/examples/dumbbell.toml", out=tmp_path / "s", progress=False, batch=batch)
    assert not (tmp_path / "s").exists() or _files(tmp_path / "s") == []


def _guided_tasks(total, in_flight):
    """The task sizes a sweep of ``total`` runs submits with ``in_flight`` tasks at a time."""
    from pathpool._sweep import _chunks, _guided_size

    items = ((i, None) for i in range(total))
    return [len(c) for c in _chunks(items, lambda index: _guided_size(total - index, in_flight))]


def test_guided_batches_are_large_while_much_remains_and_single_runs_at_the_end():
    """Guided self-scheduling: a sweep's end spreads over every worker (its last tasks hold
    one run each) while most runs travel ten to a task; every run is sent exactly once."""
    from pathpool._sweep import BATCH_MAX

    sizes = _guided_tasks(200, 4)  # BENCHMARKS.md's sweep on 2 single-threaded workers
    assert sum(sizes) == 200 and max(sizes) == BATCH_MAX and sizes[:12] == [BATCH_MAX] * 12
    assert sizes == sorted(sizes, reverse=True)
    assert sizes[-4:] == [1, 1, 1, 1]  # one run each for the last task of every slot in flight
    assert len(sizes) < 30  # against 200 tasks of one run
    # BENCHMARKS.md ("Sweeps") quotes this sequence.
    assert sizes == [BATCH_MAX] * 17 + [8, 6, 4, 3, 3, 2, 1, 1, 1, 1]
    # A small grid is never one task per worker: 12 runs on 4 slots, at most 3 runs a task.
    assert _guided_tasks(12, 4) == [3, 3, 2, 1, 1, 1, 1]
    # A huge grid costs no listing: sizes come from what remains, lazily.
    from pathpool._sweep import _guided_size

    assert _guided_size(10**12, 128) == BATCH_MAX and _guided_size(1, 128) == 1
