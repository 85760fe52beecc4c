"""pathpool.detect(): shared bottleneck detection on a packet trace, as ``pathpool detect``
(the same code: crates/python compiles the CLI's command)."""

import json
import os
import tempfile
from pathlib import Path

import pandas as pd

from pathpool import _pathpool


def detect(trace, detector="pathpool", params=None, out=None):
    """Runs a detector over ``trace``: a CSV file as ``pathpool detect --input`` reads it
    (``flow,send_time_us,recv_time_us[,lost]`` or ``flow,ack_time_us,rtt_us``) or a DataFrame
    with those columns. ``detector`` is rfc8382, mptcp-sbd, pathpool (the default, as the CLI's) or tr; ``params`` maps
    parameter names to values (``--param``). Returns the decisions (``time_s, flow, group``;
    equal non-zero groups share a bottleneck) with ``.attrs["summary"]`` (summary.json) and
    ``.attrs["observations"]`` (observations.csv); the files go to ``out`` (default: a new
    temporary folder)."""
    folder = Path(out) if out is not None else Path(tempfile.mkdtemp(prefix="pathpool-detect-"))
    sets = [f"{k}={v}" for k, v in (params or {}).items()]
    if isinstance(trace, pd.DataFrame):
        # Written outside the output folder, which holds only what detect writes (a run into
        # it replaces its files).
        with tempfile.TemporaryDirectory(prefix="pathpool-trace-") as tmp:
            path = Path(tmp) / "trace.csv"
            # Whole-number float columns (pandas reads a column with gaps as float) go back to
            # integers: the reader expects whole microseconds.
            trace.convert_dtypes().to_csv(path, index=False)
            _pathpool.detect(os.fspath(path), detector, os.fspath(folder), sets)
    else:
        _pathpool.detect(os.fspath(Path(trace)), detector, os.fspath(folder), sets)
    decisions = pd.read_csv(folder / "decisions.csv")
    decisions.attrs["summary"] = json.loads((folder / "summary.json").read_text())
    decisions.attrs["observations"] = pd.read_csv(folder / "observations.csv")
    return decisions
