"""pathpool.run() without ``out`` leaves nothing in the temporary folder: its run folder goes
with the Result (issue: one folder under /tmp per call), while ``out`` keeps the files."""

import gc
import tempfile

import pathpool

SHORT = {"simulation.duration": "25s"}


def _isolated_tmp(monkeypatch, tmp_path):
    """A temporary folder of this test's own, for Python's tempfile and for the extension
    (TMPDIR), so that other programs' files cannot change the count."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
    return tmp


def test_runs_without_out_leave_no_folder(root, tmp_path, monkeypatch):
    tmp = _isolated_tmp(monkeypatch, tmp_path)
    before = sorted(tmp.iterdir())
    for seed in (1, 2, 3):
        assert pathpool.run(root / "scenarios/examples/dumbbell.toml", seed=seed, overrides=SHORT).summary["seed"] == seed
    gc.collect()
    assert sorted(tmp.iterdir()) == before == []


def test_a_kept_result_keeps_its_files_until_it_is_dropped(root, tmp_path, monkeypatch):
    tmp = _isolated_tmp(monkeypatch, tmp_path)
    r = pathpool.run(root / "scenarios/examples/dumbbell.toml", overrides=SHORT)
    assert r.out.parent == tmp and (r.out / "flows.csv").exists()
    assert len(r.flows) > 0
    folder = r.out
    del r
    gc.collect()
    assert not folder.exists() and list(tmp.iterdir()) == []


def test_a_failed_run_leaves_no_folder(root, tmp_path, monkeypatch):
    tmp = _isolated_tmp(monkeypatch, tmp_path)
    try:
        pathpool.run(root / "scenarios/examples/dumbbell.toml", overrides={"simulation.duration": "fast"})
    except pathpool.ScenarioError:
        pass
    else:
        raise AssertionError("a bad duration must raise ScenarioError")
    gc.collect()
    assert list(tmp.iterdir()) == []


def test_out_keeps_the_files(root, tmp_path):
    r = pathpool.run(root / "scenarios/examples/dumbbell.toml", overrides=SHORT, out=tmp_path / "kept")
    del r
    gc.collect()
    assert (tmp_path / "kept" / "summary.json").exists()
