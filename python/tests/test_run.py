"""pathpool.run(): the same numbers and files as `pathpool run`, the CLI's error messages, and
the three ways of giving a scenario."""

import json
import subprocess
import threading
import time

import pandas as pd
import pytest

import pathpool

DUMBBELL = "scenarios/examples/dumbbell.toml"


def _without_wall(summary):
    return {k: v for k, v in summary.items() if not k.startswith("wall_")}


def test_same_numbers_and_files_as_the_cli(root, cli, tmp_path):
    sets = {"simulation.duration": "25s", "links.bottleneck.rate": "30Mbps"}
    subprocess.run([cli, "run", root / DUMBBELL, "--out", tmp_path / "cli", "--seed", "7", *[a for k, v in sets.items() for a in ("--set", f"{k}={v}")]], check=True, capture_output=True)
    r = pathpool.run(root / DUMBBELL, seed=7, overrides=sets, out=tmp_path / "py")
    cli_summary = json.loads((tmp_path / "cli" / "summary.json").read_text())
    assert _without_wall(r.summary) == _without_wall(cli_summary)
    assert r.summary["seed"] == 7
    for f in ["flows.csv", "links.csv"]:
        assert (tmp_path / "py" / f).read_bytes() == (tmp_path / "cli" / f).read_bytes(), f


def test_multipath_cc_matches_the_cli(root, cli, tmp_path):
    scen = root / "scenarios/examples/mptcp-disjoint-paths.toml"
    sets = ["--set", "simulation.duration=30s", "--set", "simulation.warmup=10s"]
    subprocess.run([cli, "run", scen, "--out", tmp_path / "cli", "--cc", "olia", *sets], check=True, capture_output=True)
    r = pathpool.run(scen, cc="olia", overrides={"simulation.duration": "30s", "simulation.warmup": "10s"})
    assert _without_wall(r.summary) == _without_wall(json.loads((tmp_path / "cli" / "summary.json").read_text()))
    assert set(r.subflows["flow"]) == {"mptcp.sf0", "mptcp.sf1"}
    assert set(r.subflows["subflow"]) == {0, 1} and set(r.subflows["connection"]) == {"mptcp"}


def test_path_toml_text_and_dict_give_the_same_summary(root):
    text = (root / DUMBBELL).read_text()
    sets = {"simulation.duration": "25s"}
    by_path = pathpool.run(str(root / DUMBBELL), overrides=sets).summary
    by_text = pathpool.run(text, overrides=sets).summary
    import tomllib

    by_dict = pathpool.run(tomllib.loads(text), overrides=sets).summary
    assert _without_wall(by_path) == _without_wall(by_text) == _without_wall(by_dict)


def test_time_series_are_dataframes(root):
    r = pathpool.run(root / DUMBBELL, overrides={"simulation.duration": "24s"})
    assert isinstance(r.flows, pd.DataFrame) and list(r.flows.columns[:4]) == ["time_s", "flow", "throughput_mbps", "cwnd_packets"]
    assert set(r.flows["flow"]) == {"reno", "cubic", "paced", "background"}
    assert set(r.links["link"]) >= {"bottleneck", "bottleneck.reverse"}
    # 24 s at the example's 100 ms probe interval.
    assert r.flows["time_s"].nunique() == 240
    ax = r.plot()
    assert len(ax.get_lines()) == 4


def test_a_bad_scenario_raises_the_message_the_cli_prints(root, cli, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text((root / DUMBBELL).read_text().replace('rate = "20Mbps"', 'rate = "20 parsecs"'))
    p = subprocess.run([cli, "run", bad, "--out", tmp_path / "o"], capture_output=True, text=True)
    assert p.returncode == 2
    with pytest.raises(pathpool.ScenarioError) as e:
        pathpool.run(bad)
    assert p.stderr.strip() == f"pathpool: {e.value}"
    assert "links.bottleneck.rate" in str(e.value)
    with pytest.raises(pathpool.ScenarioError) as o:
        pathpool.run(root / DUMBBELL, overrides={"flows.reno.cc": "vegas-ish"})
    assert "flows" in str(o.value) and "cc" in str(o.value)


def test_a_bad_dict_names_the_field():
    with pytest.raises(pathpool.ScenarioError, match=r"simulation\.duration"):
        pathpool.run({"simulation": {"duration": 5}})
    with pytest.raises(pathpool.ScenarioError, match=r"links\.a\.rate: expected a string"):
        pathpool.run({"links": {"a": {"rate": None}}})
    with pytest.raises(pathpool.ScenarioError, match=r"flows\[0\]\.count: the integer 100000000000000000000 is out of range"):
        pathpool.run({"flows": [{"count": 10**20}]})
    with pytest.raises(ValueError):  # ScenarioError is a ValueError
        pathpool.run({"simulation": {}})


def test_the_simulator_runs_without_the_gil(root):
    # A Python thread keeps counting while a run is in progress: it could not if the run
    # held the GIL.
    ticks, done = [], threading.Event()

    def count():
        while not done.is_set():
            ticks.append(1)
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    start = len(ticks)
    r = pathpool.run(root / DUMBBELL, overrides={"simulation.duration": "600s", "simulation.probe_interval": "1s"})
    done.set()
    t.join()
    assert r.summary["wall_seconds"] > 0.2, "the run is too short to tell"
    assert len(ticks) - start > 50
