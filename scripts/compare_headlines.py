#!/usr/bin/env python3
"""Compares two `pathpool reproduce` outputs (e.g. the quick preset before and after a
simulator change) and prints a markdown table.

    python3 -m scripts.compare_headlines OLD/summary.json NEW/summary.json
    python3 -m scripts.compare_headlines --runs --key sum_ratio OLD/runs NEW/runs

Summaries: every numeric key present in both (nested papers flattened as paper.key), the
two values, the difference and the relative difference. Keys that are equal are counted,
not listed, unless --all is given. `runs`, `quick` and `wall_seconds` are left out.

--runs: the stored results of single simulations (runs/<paper>/<scenario>/<scheme>/seedN.json),
grouped by (paper, scenario, scheme) over the seeds that both have: how many runs are
identical (without the event count and wall-clock fields), and per group the median of
--key before and after beside the range over the seeds before; "within" says whether the
median after lies inside that seed range.
"""

import argparse
import json
import os
import statistics
import sys

SKIP = {"runs", "quick", "wall_seconds"}


def flatten(value, prefix=""):
    out = {}
    if isinstance(value, dict):
        for k, v in value.items():
            if k in SKIP:
                continue
            out.update(flatten(v, f"{prefix}{k}." if isinstance(v, dict) else f"{prefix}{k}"))
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        out[prefix] = float(value)
    return out


def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if "wall" not in k and k != "events"}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x


def compare_runs(old_dir, new_dir, key):
    groups = {}
    same = total = 0
    for root, _, files in os.walk(new_dir):
        for f in sorted(files):
            if not (f.startswith("seed") and f.endswith(".json")):
                continue
            rel = os.path.relpath(os.path.join(root, f), new_dir)
            old_path = os.path.join(old_dir, rel)
            if not os.path.exists(old_path):
                continue
            a = json.load(open(old_path))["result"]
            b = json.load(open(os.path.join(new_dir, rel)))["result"]
            total += 1
            same += strip(a) == strip(b)
            if isinstance(a.get(key), (int, float)) and isinstance(b.get(key), (int, float)):
                g = groups.setdefault(os.path.dirname(rel), ([], []))
                g[0].append(a[key])
                g[1].append(b[key])
    print(f"{total} runs in both, {same} identical")
    print(f"| group | seeds | {key} before: median (range over seeds) | after: median | within |")
    print("|---|---|---|---|---|")
    for g, (a, b) in sorted(groups.items()):
        ma, mb = statistics.median(a), statistics.median(b)
        ok = "yes" if min(a) <= mb <= max(a) else "no"
        print(f"| {g} | {len(a)} | {ma:.3f} ({min(a):.3f}-{max(a):.3f}) | {mb:.3f} | {ok} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--all", action="store_true", help="list equal keys too")
    ap.add_argument("--runs", action="store_true", help="compare runs/ folders instead of summaries")
    ap.add_argument("--key", default="sum_ratio", help="with --runs: the per-run key to compare")
    a = ap.parse_args()
    if a.runs:
        compare_runs(a.old, a.new, a.key)
        return
    try:
        old = flatten(json.load(open(a.old)))
        new = flatten(json.load(open(a.new)))
    except (OSError, json.JSONDecodeError) as e:
        sys.exit(f"cannot read a summary: {e}")
    common = sorted(set(old) & set(new))
    equal = [k for k in common if old[k] == new[k]]
    print(f"{len(common)} headline keys in both, {len(equal)} equal; only in {a.old}: {len(set(old) - set(new))}, only in {a.new}: {len(set(new) - set(old))}")
    print("| key | before | after | after - before | relative |")
    print("|---|---|---|---|---|")
    for k in common:
        if old[k] == new[k] and not a.all:
            continue
        d = new[k] - old[k]
        rel = f"{100 * d / abs(old[k]):+.1f} %" if old[k] else "-"
        print(f"| {k} | {old[k]:.4g} | {new[k]:.4g} | {d:+.4g} | {rel} |")


if __name__ == "__main__":
    main()
