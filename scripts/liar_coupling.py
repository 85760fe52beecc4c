#!/usr/bin/env python3
"""The sender's coupling against the receiver's own detector over the liar table's setups
(docs/security.md, "The coupling against the honest detector").

    python3 -m scripts.liar_coupling [--bin target/release/pathpool] [--out out/liar]
        [--seeds 5] [--jobs N] [--print]

A liar's receiver still runs the honest detector and keeps its decisions for the outputs
(decisions.csv), so each run's summary.json says, over the measured window, how much of the
pair-time that detector coupled the sender left uncoupled (`coupling_missed`: where a liar can
gain) and how much of the pair-time it kept apart the sender coupled (`coupling_added`: the
check's cost in coupling), each decision counted once it has stood for one decision period
(crates/sim/src/mptcp/coupling_audit.rs). This runs every liar with the check on in every
shared setup of the liar table, and the honest receiver with the check on and off on every
disjoint one, seeds 1 to --seeds, and writes per cell the median and the largest over the
seeds. Runs are shared with the liar table's in --out (scripts/liar_table.py's `run`).
"""

import concurrent.futures
import os
import statistics
import sys
import time

from scripts import liar_table as lt
from scripts.doc_table import emit, table_arguments

ROOT = lt.ROOT
BEGIN, END = "<!-- liar coupling: python3 -m scripts.liar_coupling -->", "<!-- end of liar coupling -->"


def plan(seeds):
    shared, disjoint = lt.table_setups()
    runs = [(s, r, True, k) for s in shared for r in ["honest", *lt.LIARS] for k in seeds]
    runs += [(s, "honest", v, k) for s in disjoint for v in (True, False) for k in seeds]
    return shared, disjoint, runs


def spread(values):
    """median [largest] in per cent, or "-" where no run had such pair-time."""
    xs = [v for v in values if v is not None]
    if not xs:
        return "-"
    return f"{100 * statistics.median(xs):.1f} [{100 * max(xs):.1f}]"


def main():
    ap = table_arguments(ROOT, "liar", 5, "docs/security.md")
    a = ap.parse_args()
    if a.seeds < 1:
        sys.exit("--seeds must be at least 1")
    if not os.access(a.bin, os.X_OK):
        sys.exit(f"{a.bin}: not an executable (make build)")
    seeds = range(1, a.seeds + 1)
    shared, disjoint, runs = plan(seeds)
    started = time.time()
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        res = {(lt.key(p[0]), *p[1:]): r for p, r in zip(runs, pool.map(lambda p: lt.run(a, *p), runs))}
    missing = sorted({k[0] for k, r in res.items() if "coupling_by_detector" not in r})
    if missing:
        sys.exit(f"{a.out}: runs without coupling_by_detector in summary.json ({', '.join(missing[:3])}, ...): "
                 "made by an older build; use a new --out")

    def field(s, receiver, verify, name):
        return [res[(lt.key(s), receiver, verify, k)][name] for k in seeds]

    lines = [
        f"Written by `python3 -m scripts.liar_coupling --seeds {a.seeds}` on {time.strftime('%Y-%m-%d')} "
        f"({len(runs)} runs; {(time.time() - started) / 60:.1f} min with {a.jobs} jobs for those not already in its folder, "
        "which it shares with the liar table): per cell the median "
        f"[largest] over seeds 1-{a.seeds}, in per cent of the pair-time.",
        "",
        "Shared setups, the check on: the share of the pair-time the honest receiver's detector coupled "
        "(`coupling_by_detector`, in the honest receiver's runs), and per receiver, of the pair-time its own "
        "detector coupled, the share the sender left uncoupled (`coupling_missed`).",
        "",
        "| setup | hosts | detector coupled | honest | " + " | ".join(lt.LIARS) + " |",
        "|---|---|---|---|" + "---|" * len(lt.LIARS),
    ]
    worst = []
    for s in shared:
        cells = [spread(field(s, "honest", True, "coupling_by_detector"))]
        cells += [spread(field(s, r, True, "coupling_missed")) for r in ["honest", *lt.LIARS]]
        lines.append(f"| {lt.label(s)} | {s['hosts']} | " + " | ".join(cells) + " |")
        for r in lt.LIARS:
            worst += [(m, f"{lt.label(s)}, {s['hosts']}, {r}") for m in field(s, r, True, "coupling_missed") if m is not None]
    lines += [
        "",
        "Disjoint setups, the honest receiver: the share of the pair-time its detector kept apart (one "
        "less `coupling_by_detector`), and of that, the share the sender coupled (`coupling_added`), with "
        "the check on and off.",
        "",
        "| setup | hosts | detector apart, check on | coupled by the sender, check on | detector apart, check off | coupled by the sender, check off |",
        "|---|---|---|---|---|---|",
    ]
    for s in disjoint:
        row = []
        for verify in (True, False):
            row += [spread([None if c is None else 1 - c for c in field(s, "honest", verify, "coupling_by_detector")]),
                    spread(field(s, "honest", verify, "coupling_added"))]
        lines.append(f"| {lt.label(s)} | {s['hosts']} | " + " | ".join(row) + " |")
    above = sum(m > 0 for m, _ in worst)
    lines += ["", f"Liar runs in which the sender left some of the detector's coupled pair-time uncoupled: {above} of {len(worst)}"
              + (f"; the most, {100 * max(worst)[0]:.1f} %, in {max(worst)[1]}." if worst else ".")]
    emit("\n".join(lines), a.print, os.path.join(ROOT, "docs", "security.md"), BEGIN, END)
    return 0


if __name__ == "__main__":
    sys.exit(main())
