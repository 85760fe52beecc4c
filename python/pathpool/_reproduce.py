"""pathpool.reproduce(): a paper's experiments, as ``pathpool reproduce`` runs them, with the
tables behind its report as DataFrames."""

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from pathpool import _pathpool


def papers():
    """The papers ``reproduce`` knows."""
    return list(_pathpool.paper_names())


@dataclass
class Reproduction:
    """``summary``: the headline keys (summary.json); ``tables``: every CSV the report's
    tables and figures are drawn from, by file stem (e.g. ``"fig5_nsb"``); ``report``: the
    path of report.md; ``runs`` and ``reused``: simulations in total and reused from an
    earlier call with the same ``out``."""

    out: Path
    report: Path
    summary: dict
    tables: dict = field(default_factory=dict)
    runs: int = 0
    reused: int = 0


def reproduce(paper, quick=False, out=None, scenarios=None, jobs=None):
    """Runs ``paper`` (a name from ``papers()`` or "all") into ``out`` (a new temporary
    folder by default; an earlier call's folder resumes). ``scenarios``: a folder with one
    folder of scenario files per paper (like the sources' scenarios/papers); by default the
    files built into pathpool, as the CLI."""
    names = papers()
    if not isinstance(paper, str) or paper not in names + ["all"]:
        raise _pathpool.ScenarioError(f"paper: expected one of {', '.join(names)} or 'all', got {paper!r}")
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise _pathpool.ScenarioError(f"jobs: expected a whole number >= 1 or None (every core), got {jobs!r}")
    if not isinstance(quick, bool):
        raise _pathpool.ScenarioError(f"quick: expected True or False, got {quick!r}")
    root = Path(out) if out is not None else Path(tempfile.mkdtemp(prefix=f"pathpool-{paper}-"))
    scen = os.fspath(scenarios) if scenarios is not None else None
    runs, reused = _pathpool.reproduce(paper, os.fspath(root), scen, quick, jobs)
    summary = json.loads((root / "summary.json").read_text())
    names = summary.get("papers", [])
    tables = {}
    for name in names:
        for csv in sorted((root / name).glob("*.csv")):
            key = csv.stem if len(names) == 1 else f"{name}/{csv.stem}"
            tables[key] = pd.read_csv(csv)
    return Reproduction(out=root, report=root / "report.md", summary=summary, tables=tables, runs=runs, reused=reused)
