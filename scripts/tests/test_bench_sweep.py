"""scripts/bench_sweep.py (BENCHMARKS.md, "Sweeps"): a short sweep on 1 and 2 worker processes
writes its table between the markers, with the rates, the scaling ratio, the CPU split and
the conditions; bad arguments are refused before anything runs."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BEGIN, END = "<!-- bench_sweep: begin -->", "<!-- bench_sweep: end -->"


def _run(*args):
    return subprocess.run([sys.executable, "-m", "scripts.bench_sweep", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_a_short_sweep_writes_its_table_between_the_markers(tmp_path):
    pytest.importorskip("distributed")
    doc = tmp_path / "B.md"
    doc.write_text(f"before\n{BEGIN}\nold table\n{END}\nafter\n")
    r = _run("--runs", "20", "--repeats", "1", "--doc", str(doc))
    assert r.returncode == 0, r.stdout + r.stderr
    text = doc.read_text()
    assert text.startswith(f"before\n{BEGIN}\n") and text.endswith(f"\n{END}\nafter\n") and "old table" not in text
    assert "Written by `python3 -m scripts.bench_sweep --runs 20 --repeats 1 --doc " in text
    assert re.search(r"load average \d+\.\d\d before, \d+\.\d\d after", text) and "20 runs of `scenarios/examples/dumbbell.toml` at 25s" in text
    rows = {
        int(m[0]): m
        for m in re.findall(r"^\| (\d) \| ([\d.]+) \| ([\d.]+)-([\d.]+) \| \*\*([\d.]+)\*\* \| ([\d.]+) / ([\d.]+) / ([\d.]+) ms \| ([\d.]+) \(([\d.]+)-([\d.]+)\) \|$", text, re.M)
    }
    assert sorted(rows) == [1, 2], text
    assert rows[1][4] == "1.00"
    # Each row's median lies in its range, and the ratio is the medians' ratio.
    for w, (_, med, low, high, ratio, *_cpu) in rows.items():
        assert float(low) <= float(med) <= float(high)
    assert float(rows[2][4]) == pytest.approx(float(rows[2][1]) / float(rows[1][1]), rel=0.02, abs=0.01)
    # Workers spend CPU on the runs: never nothing.
    assert float(rows[1][6]) > 0 and float(rows[2][6]) > 0
    # The other jobs' CPU is a median within its range, at most the machine's cores.
    for w, (*_, busy, low, high) in rows.items():
        assert float(low) <= float(busy) <= float(high) <= os.cpu_count()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--runs", "15"], "--runs: expected a multiple of 10"),
        (["--workers", "0,2"], "expected comma-separated whole numbers >= 1"),
        (["--repeats", "0"], "--repeats: expected a whole number >= 1"),
        (["--batch", "0"], "--batch: expected a whole number >= 1"),
    ],
)
def test_bad_arguments_are_refused(args, message):
    r = _run(*args)
    assert r.returncode != 0 and message in r.stderr, r.stderr


def test_a_document_without_the_markers_is_refused_before_the_runs(tmp_path):
    doc = tmp_path / "B.md"
    doc.write_text(f"only the default's markers\n{BEGIN}\n{END}\n")
    # A forced batch size has markers of its own (BENCHMARKS.md keeps it beside the default).
    r = _run("--batch", "1", "--doc", str(doc))
    assert r.returncode != 0 and f"{doc}: expected the lines '<!-- bench_sweep --batch 1: begin -->'" in r.stderr, r.stderr
    # So do Dask's default settings.
    r = _run("--dask-defaults", "--doc", str(doc))
    assert r.returncode != 0 and f"{doc}: expected the lines '<!-- bench_sweep --dask-defaults: begin -->'" in r.stderr, r.stderr
