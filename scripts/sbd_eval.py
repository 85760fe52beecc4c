#!/usr/bin/env python3
"""The harder detection evaluation of docs/sbd.md ("Harder evaluation"): every scenario of
scenarios/sbd-eval (written by its generate.py) with S0's detector (`mptcp-sbd`) and the
`pathpool` preset, over seeds 1..N, in the simulator (the receiver's detector, closed loop).
Writes the table into docs/sbd.md between its markers (or prints it with --print).

    python3 -m scripts.sbd_eval [--bin target/release/pathpool] [--out out/sbd-eval] [--seeds 5] [--jobs N] [--print]

Accuracy: the fraction of base intervals (T = 350 ms) after the 20 s warm-up in which the
decision in force groups the subflows exactly as the truth (the simulator's truth column:
subflows whose narrowest link is the same share a bottleneck; a subflow judged not
bottlenecked is in no group; the rule is pathpool's own, `pathpool.correct_grouping`, so run
it with a Python that has pathpool installed, docs/python.md). Time to correct decision: seconds from the connection's start to
the first decision that is exactly right. Runs are kept in --out; a run whose decisions.csv
exists is not run again.
"""

import concurrent.futures
import csv
import glob
import os
import statistics
import subprocess

from scripts import package
from scripts.doc_table import emit, table_arguments

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "sbd.md")
BEGIN = "<!-- table: python3 -m scripts.sbd_eval -->"
END = "<!-- end of sbd_eval table -->"
DETECTORS = ["mptcp-sbd", "pathpool"]
WARMUP_S, T_S = 20.0, 0.35


def run(a, case, detector, seed):
    folder = os.path.join(a.out, f"{case}-{detector}-s{seed}")
    decisions = os.path.join(folder, "decisions.csv")
    if not os.path.exists(decisions):
        path = os.path.join(ROOT, "scenarios", "sbd-eval", case + ".toml")
        sets = ["--set", f"flows.mptcp.sbd_detector={detector}", "--set", "simulation.warmup=0s"]
        subprocess.run([a.bin, "run", path, "--seed", str(seed), "--out", folder, *sets], check=True, stdout=subprocess.DEVNULL)
    by_time = {}
    with open(decisions) as f:
        for row in csv.DictReader(f):
            d = by_time.setdefault(float(row["time_s"]), {})
            d[int(row["subflow"])] = (int(row["group"]), int(row["truth"]))
    with open(os.path.join(folder, "summary.json")) as f:
        duration = float(__import__("json").load(f)["duration_s"])
    return sorted((t, [g[k] for k in sorted(g)]) for t, g in by_time.items()), duration


def correct(pairs):
    """Exactly the truth's grouping, judged by pathpool's own rule (pathpool.correct_grouping,
    the Rust function behind summary.json's decision_accuracy)."""
    return package.pathpool().correct_grouping([g for g, _ in pairs], [t for _, t in pairs])


def metrics(decisions, duration):
    first = next((t for t, p in decisions if correct(p)), None)
    ok = total = 0
    k = 0
    t = WARMUP_S + T_S
    while t <= duration + 1e-9:
        while k < len(decisions) and decisions[k][0] <= t + 1e-9:
            k += 1
        total += 1
        ok += k > 0 and correct(decisions[k - 1][1])
        t += T_S
    return ok / total, first


def main():
    a = table_arguments(ROOT, "sbd-eval", 5, "docs/sbd.md").parse_args()
    cases = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(ROOT, "scenarios", "sbd-eval", "*.toml")))
    seeds = range(1, a.seeds + 1)
    plan = [(c, d, s) for c in cases for d in DETECTORS for s in seeds]
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        results = dict(zip(plan, pool.map(lambda p: metrics(*run(a, *p)), plan)))
    descriptions = {}
    for c in cases:
        with open(os.path.join(ROOT, "scenarios", "sbd-eval", c + ".toml")) as f:
            descriptions[c] = next(l.split('"')[1] for l in f if l.startswith("description"))
    lines = [
        f"Means over seeds 1-{a.seeds} (time to correct decision: median, and the runs never right); "
        f"written by `python3 -m scripts.sbd_eval --seeds {a.seeds}`.\n",
        "\n",
        "| case | scenario | accuracy `mptcp-sbd` | accuracy `pathpool` | first right decision `mptcp-sbd` (s) | `pathpool` (s) |\n",
        "|---|---|---|---|---|---|\n",
    ]
    for c in cases:
        acc, first = [], []
        for d in DETECTORS:
            acc.append(statistics.mean(results[(c, d, s)][0] for s in seeds))
            times = [results[(c, d, s)][1] for s in seeds]
            got = [x for x in times if x is not None]
            never = len(times) - len(got)
            cell = f"{statistics.median(got):.1f}" if got else "-"
            first.append(cell + (f" ({never} never)" if never else ""))
        lines.append(f"| {c} | {descriptions[c]} | {acc[0]:.3f} | {acc[1]:.3f} | {first[0]} | {first[1]} |\n")
    emit("".join(lines).rstrip("\n"), a.print, DOC, BEGIN, END)


if __name__ == "__main__":
    main()
