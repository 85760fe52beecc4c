"""Every bad argument raises an exception naming it, before anything runs: the multipath
scheme, worker and job counts, seeds, and a paper name (a path separator in it is no paper)."""

import time
import tracemalloc
from concurrent.futures import ThreadPoolExecutor

import pytest

import pathpool
from pathpool import _sweep

SHORT = {"simulation.duration": "25s"}


def test_cc_that_is_no_name_is_named(root):
    with pytest.raises(pathpool.ScenarioError, match=r"^cc: expected the name of a multipath congestion control .* got 5"):
        pathpool.run(root / "scenarios/examples/dumbbell.toml", cc=5, overrides=SHORT)
    with pytest.raises(pathpool.ScenarioError, match=r"^grid: cc\[1\]: expected .* got 5"):
        pathpool.sweep(root / "scenarios/examples/dumbbell.toml", grid={"cc": ["olia", 5]}, progress=False)


@pytest.mark.parametrize("jobs", [-1, 0, 1.5, True])
def test_jobs_out_of_range_are_named(jobs, tmp_path):
    with pytest.raises(pathpool.ScenarioError, match=r"^jobs: expected a whole number >= 1"):
        pathpool.reproduce("raiciu2009", quick=True, jobs=jobs, out=tmp_path / "r")
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("paper", ["../ferlin2016", "a/b", "nosuchpaper"])
def test_a_paper_name_that_is_no_paper_is_named(paper):
    with pytest.raises(pathpool.ScenarioError, match=r"^paper: expected one of .*ferlin2016.* or 'all'"):
        pathpool.reproduce(paper)


@pytest.mark.parametrize(("seeds", "where"), [([1, -1], r"seeds\[1\]"), ([2**63], r"seeds\[0\]"), (range(-3, 5), r"seeds\[0\]"), (range(1, 2**64), r"seeds\[18446744073709551614\]"), ([1, "2"], r"seeds\[1\]"), ([], "seeds"), (5, "seeds")])
def test_seeds_out_of_range_are_named_before_anything_runs(root, tmp_path, seeds, where):
    with pytest.raises(pathpool.ScenarioError, match=r"^" + where):
        pathpool.sweep(root / "scenarios/examples/dumbbell.toml", seeds=seeds, out=tmp_path / "s", overrides=SHORT, progress=False)
    assert list((tmp_path / "s").glob("*.json")) == []


@pytest.mark.parametrize("workers", [0, -1, 2.5])
def test_workers_out_of_range_are_named(root, tmp_path, workers):
    with pytest.raises(pathpool.ScenarioError, match=r"^workers: expected a whole number >= 1"):
        pathpool.sweep(root / "scenarios/examples/dumbbell.toml", workers=workers, out=tmp_path / "s", overrides=SHORT, progress=False)


def test_a_large_grid_costs_no_memory_before_its_check_fails(root, tmp_path):
    """200 000 seeds, and a bad value at the grid's second point: the error comes before any
    run, and the sweep never listed the runs (it holds one point at a time)."""
    grid = {"links.bottleneck.rate": ["10Mbps", "fast"]}
    tracemalloc.start()
    try:
        with pytest.raises(pathpool.ScenarioError, match=r"links\.bottleneck\.rate"):
            pathpool.sweep(root / "scenarios/examples/dumbbell.toml", grid=grid, seeds=range(1, 200_001), out=tmp_path / "s", overrides=SHORT, progress=False)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20e6, f"the sweep allocated {peak / 1e6:.0f} MB before its first run"


def test_runs_in_flight_are_bounded(root, tmp_path, monkeypatch):
    """40 runs on 2 workers: never more than 4 submitted and not yet finished."""
    state = {"submitted": 0, "done": 0, "most": 0}

    class Counting(ThreadPoolExecutor):
        def submit(self, fn, *args, **kwargs):
            state["submitted"] += 1
            state["most"] = max(state["most"], state["submitted"] - state["done"])
            return super().submit(fn, *args, **kwargs)

    def fake_run(task):
        time.sleep(0.005)
        state["done"] += 1
        return {"seed": task["seed"], "x": task["seed"] * 2}

    monkeypatch.setattr(_sweep, "ThreadPoolExecutor", Counting)
    monkeypatch.setattr(_sweep, "_run_task", fake_run)
    df = pathpool.sweep(root / "scenarios/examples/dumbbell.toml", seeds=range(1, 41), out=tmp_path / "s", overrides=SHORT, workers=2, progress=False)
    assert list(df["x"]) == [2 * s for s in range(1, 41)], "rows in grid order"
    assert state["submitted"] == 40
    assert state["most"] <= 4, f"{state['most']} runs in flight"


def test_quantity_reads_units_as_scenario_files_do():
    assert pathpool.quantity("10Mbps") == (10_000_000, "bps")
    assert pathpool.quantity("20ms") == (0.02, "s")
    assert pathpool.quantity("64KiB") == (65536, "bytes")
    for bad in ["20", "fast", 20, None, "-5ms"]:
        with pytest.raises(ValueError, match="expected a rate, time or size with a unit"):
            pathpool.quantity(bad)
