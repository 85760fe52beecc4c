"""The sweep's stored runs are checked, not trusted: an edited or emptied result file is run
again and counted (and the row is the true result again), a file that cannot be read raises
naming it, and two sweeps into one folder never share a temporary file."""

import json
import threading

import pytest

import pathpool

GRID = {"links.bottleneck.rate": ["10Mbps", "20Mbps"]}
SETS = {"simulation.duration": "25s"}


def _sweep(root, out, **kw):
    return pathpool.sweep(root / "scenarios/examples/dumbbell.toml", grid=GRID, seeds=[1, 2], out=out, overrides=SETS, progress=False, **kw)


def test_an_edited_or_emptied_result_is_run_again_and_counted(root, tmp_path):
    out = tmp_path / "s"
    first = _sweep(root, out)
    files = sorted(out.glob("*.json"))
    assert len(files) == 4
    edited = json.loads(files[0].read_text())
    edited["summary"]["total_throughput_mbps"] += 1.0
    files[0].write_text(json.dumps(edited))
    files[1].write_text("")
    with pytest.warns(UserWarning, match=r"2 stored sweep results did not match .* were run again: .*" + files[0].name[:20]):
        again = _sweep(root, out)
    assert again.attrs == {"ran": 2, "reused": 2, "mismatched": 2}
    cols = [c for c in first.columns if not c.startswith("wall_")]
    assert again[cols].equals(first[cols]), "the edited number must not reach the table"
    assert _sweep(root, out).attrs == {"ran": 0, "reused": 4, "mismatched": 0}


def test_a_result_file_that_cannot_be_read_is_named(root, tmp_path):
    out = tmp_path / "s"
    _sweep(root, out)
    victim = sorted(out.glob("*.json"))[0]
    victim.unlink()
    victim.mkdir()
    with pytest.raises(RuntimeError, match=str(victim.name)):
        _sweep(root, out)


def test_two_sweeps_into_one_folder_at_once_both_finish(root, tmp_path):
    out = tmp_path / "s"
    results, errors = [], []

    def one():
        try:
            results.append(_sweep(root, out, workers=1))
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=one) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert len(results) == 2 and all(len(r) == 4 for r in results)
    assert sorted(p.suffix for p in out.iterdir()) == [".json"] * 4, "no temporary file is left"
