"""pathpool.run(): one scenario run, its summary and its time series as DataFrames."""

import json
import os
import tempfile
from functools import cached_property
from pathlib import Path

import pandas as pd

from pathpool import _pathpool
from pathpool._args import cc_arg, override_list, scenario_arg, seed_arg


def to_toml(scenario: dict) -> str:
    """The TOML text a dict scenario is loaded as (error locations refer to its lines)."""
    return _pathpool.to_toml(scenario)


def run(scenario, seed=None, overrides=None, cc=None, out=None):
    """Runs a scenario (a file path, a TOML string or a dict) like ``pathpool run``.

    ``seed`` overrides simulation.seed (``--seed``), ``overrides`` maps dotted keys to values
    (``--set``), ``cc`` sets every multipath connection's congestion control (``--cc``).
    The output files (summary.json, flows.csv, links.csv, plots) go to ``out``, or to a new
    temporary folder that is removed with the Result (when nothing refers to it any more, or
    when Python exits): pass ``out`` to keep the files. Raises ScenarioError with the CLI's
    message for a bad scenario.
    """
    temporary = tempfile.TemporaryDirectory(prefix="pathpool-run-") if out is None else None
    folder = Path(out) if out is not None else Path(temporary.name)
    try:
        text = _pathpool.run(scenario_arg(scenario), os.fspath(folder), override_list(overrides), seed_arg(seed), cc_arg(cc))
    except BaseException:
        if temporary is not None:
            temporary.cleanup()
        raise
    return Result(folder, json.loads(text), temporary)


class Result:
    """A finished run: ``summary`` (dict, summary.json), ``flows`` / ``links`` (time series),
    ``subflows`` (the multipath subflows' rows of ``flows``), ``observations`` /
    ``decisions`` (the detector's output, for detector schemes), and ``plot()``."""

    def __init__(self, out, summary, temporary=None):
        self.out = Path(out)
        self.summary = summary
        # The temporary folder's owner: the folder goes when the Result does.
        self._temporary = temporary

    def __repr__(self):
        return f"Result(out={str(self.out)!r}, {len(self.summary)} summary keys)"

    def _csv(self, name):
        path = self.out / name
        if not path.exists():
            return pd.DataFrame()
        return pd.read_csv(path)

    @cached_property
    def flows(self) -> pd.DataFrame:
        """flows.csv: time_s, flow, throughput_mbps, cwnd_packets (one row per flow per probe)."""
        return self._csv("flows.csv")

    @cached_property
    def links(self) -> pd.DataFrame:
        """links.csv: time_s, link, queue_packets, drops."""
        return self._csv("links.csv")

    @cached_property
    def subflows(self) -> pd.DataFrame:
        """The rows of ``flows`` of multipath subflows (``CONN.sfK``), with ``connection``
        and ``subflow`` (K) columns; empty without multipath connections."""
        # summary.json names each subflow in its `mptcp.CONN.sfK.*` keys.
        names = {k[len("mptcp."):].rsplit(".", 1)[0] for k in self.summary if k.startswith("mptcp.") and ".sf" in k}
        f = self.flows
        if f.empty or not names:
            return f.iloc[0:0]
        sub = f[f["flow"].isin(names)].reset_index(drop=True)
        parts = sub["flow"].str.rsplit(".sf", n=1, expand=True)
        return sub.assign(connection=parts[0], subflow=parts[1].astype(int))

    @cached_property
    def observations(self) -> pd.DataFrame:
        return self._csv("observations.csv")

    @cached_property
    def decisions(self) -> pd.DataFrame:
        return self._csv("decisions.csv")

    def plot(self, what="throughput_mbps", ax=None):
        """Each flow's ``what`` (a flows.csv column) over time; returns the matplotlib Axes."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(8, 3.5))
        wide = self.flows.pivot(index="time_s", columns="flow", values=what)
        wide.plot(ax=ax, legend=len(wide.columns) <= 12)
        ax.set_xlabel("time (s)")
        ax.set_ylabel(what)
        return ax
