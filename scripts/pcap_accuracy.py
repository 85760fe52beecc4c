#!/usr/bin/env python3
"""Share of `pathpool detect --pcap` decisions (decisions.csv) that match a known truth:
`shared` = every subflow in one bottleneck group, `separate` = every subflow in a group of its
own ([S0] §IV-B's judgement), counting decisions at or after --after seconds. Prints the
share; exits 1 when it is below --min (docs/pcap.md)."""
import argparse
import csv
import sys

ap = argparse.ArgumentParser()
ap.add_argument("decisions")
ap.add_argument("--truth", choices=["shared", "separate"], required=True)
ap.add_argument("--after", type=float, default=20.0)
ap.add_argument("--min", type=float, default=0.0)
a = ap.parse_args()
rows = {}
with open(a.decisions) as f:
    for r in csv.DictReader(f):
        rows.setdefault(float(r["time_s"]), []).append(int(r["group"]))
judged = [g for t, g in sorted(rows.items()) if t >= a.after]
if not judged:
    sys.exit(f"{a.decisions}: no decision at or after {a.after} s")
if a.truth == "shared":
    ok = sum(1 for g in judged if g[0] != 0 and all(x == g[0] for x in g))
else:
    ok = sum(1 for g in judged if all(x != 0 for x in g) and len(set(g)) == len(g))
share = ok / len(judged)
print(f"{a.decisions}: {ok} of {len(judged)} decisions after {a.after:g} s match '{a.truth}' ({share:.3f})")
sys.exit(0 if share >= a.min else 1)
