"""pathpool.reproduce(): a paper's quick preset, its tables as DataFrames and its headline
keys as `pathpool reproduce` writes them. raiciu2009's quick preset is the cheapest (66 runs,
about 11 CPU seconds); ferlin2016's works the same way and takes minutes."""

import pandas as pd
import pytest

import pathpool


def test_a_quick_reproduction_returns_its_tables(root, tmp_path, monkeypatch):
    monkeypatch.chdir(root)
    r = pathpool.reproduce("raiciu2009", quick=True, out=tmp_path / "py", jobs=2)
    assert "raiciu2009" in pathpool.papers() and "ferlin2016" in pathpool.papers()
    assert r.runs == 66 and r.reused == 0
    assert r.summary["quick"] is True and r.summary["papers"] == ["raiciu2009"]
    assert r.tables and all(isinstance(t, pd.DataFrame) and not t.empty for t in r.tables.values())
    assert r.report.read_text().startswith("# pathpool")
    # Calling again resumes: every run is reused.
    again = pathpool.reproduce("raiciu2009", quick=True, out=tmp_path / "py", jobs=2)
    assert again.reused == 66


def test_an_unknown_paper_is_refused():
    with pytest.raises(pathpool.ScenarioError, match="ferlin2016"):
        pathpool.reproduce("nobody2099")
