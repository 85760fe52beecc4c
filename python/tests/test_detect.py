"""pathpool.detect(): the same decisions as `pathpool detect` on a trace from `pathpool
tracegen`, from a file or a DataFrame; bad input raises the CLI's message."""

import subprocess

import pandas as pd
import pytest

import pathpool


@pytest.fixture(scope="module")
def trace(cli, tmp_path_factory):
    d = tmp_path_factory.mktemp("trace")
    subprocess.run([cli, "tracegen", "--flows", "3", "--bottleneck", "shared", "--seed", "2", "--out", d], check=True, capture_output=True)
    return d


@pytest.mark.parametrize("file, detector", [("owd.csv", "mptcp-sbd"), ("rtt.csv", "tr")])
def test_same_decisions_as_the_cli(cli, trace, tmp_path, file, detector):
    subprocess.run([cli, "detect", "--input", trace / file, "--detector", detector, "--out", tmp_path / "cli"], check=True, capture_output=True)
    d = pathpool.detect(trace / file, detector=detector, out=tmp_path / "py")
    for f in ["decisions.csv", "observations.csv"]:
        assert (tmp_path / "py" / f).read_bytes() == (tmp_path / "cli" / f).read_bytes()
    assert list(d.columns) == ["time_s", "flow", "group"] and len(d) > 0
    assert d.attrs["summary"]["detector"] == detector
    # The same trace as a DataFrame.
    again = pathpool.detect(pd.read_csv(trace / file), detector=detector)
    assert again.equals(d)


def test_the_default_detector_is_the_clis(cli, trace, tmp_path):
    subprocess.run([cli, "detect", "--input", trace / "owd.csv", "--out", tmp_path / "cli"], check=True, capture_output=True)
    d = pathpool.detect(trace / "owd.csv", out=tmp_path / "py")
    assert (tmp_path / "py" / "decisions.csv").read_bytes() == (tmp_path / "cli" / "decisions.csv").read_bytes()
    assert d.attrs["summary"]["detector"] == "pathpool"


def test_a_shared_bottleneck_is_grouped(trace):
    d = pathpool.detect(trace / "owd.csv", detector="mptcp-sbd")
    last = d[d["time_s"] == d["time_s"].max()]
    assert last["group"].nunique() == 1 and (last["group"] > 0).all()


def test_bad_input_raises_the_cli_message(cli, trace, tmp_path):
    with pytest.raises(pathpool.ScenarioError, match="--detector: expected one of rfc8382, mptcp-sbd, pathpool, tr"):
        pathpool.detect(trace / "owd.csv", detector="magic")
    with pytest.raises(pathpool.ScenarioError) as e:
        pathpool.detect(trace / "owd.csv", detector="mptcp-sbd", params={"no_such": 1}, out=tmp_path / "py")
    p = subprocess.run([cli, "detect", "--input", trace / "owd.csv", "--detector", "mptcp-sbd", "--param", "no_such=1", "--out", tmp_path / "cli"], capture_output=True, text=True)
    assert p.stderr.strip() == f"pathpool: {e.value}"
    with pytest.raises(pathpool.ScenarioError, match="tr needs round-trip times"):
        pathpool.detect(trace / "owd.csv", detector="tr")
