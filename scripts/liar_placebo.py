#!/usr/bin/env python3
"""How far a run moves when nothing that matters changes: on disjoint rows of the liar table
(docs/security.md, "A placebo beside the check"), the honest receiver's paired ratios with the
sender's check on over off, beside those of a placebo, the check off and the MPTCP connection
started a little later (100 us by default) over the same run without it.

    python3 -m scripts.liar_placebo [--bin target/release/pathpool] [--out out/liar]
        [--seeds 100] [--start-us 100] [--rows nsb-3-linux-6.18,...]

Both ratios are counted as the table's sign test counts them (scripts/paired_bound.py): seeds
whose run did not change, below 0.95 (a cost beyond the bound), above 1.05, and the median.
Where the placebo alone puts as many seeds beyond 5 % as the check does, the runs' own spread,
not the check, decides the row. Runs are shared with the liar table's in --out (scripts/liar_table.py's `run`).
"""

import argparse
import concurrent.futures
import os
import statistics
import sys
import time

from scripts import liar_table as lt
from scripts.doc_table import emit

ROOT = lt.ROOT
DEFAULT_ROWS = "nsb-3-linux-6.18"
BEGIN, END = "<!-- liar placebo: python3 -m scripts.liar_placebo -->", "<!-- end of liar placebo -->"


def disjoint_rows():
    """The table's disjoint rows by key."""
    return {lt.key(s): s for s in lt.table_setups()[1]}


def counted(ratios):
    same = sum(r == 1.0 for r in ratios)
    return f"{same} the same, {sum(r < 0.95 for r in ratios)} below 0.95, {sum(r > 1.05 for r in ratios)} above 1.05, median {statistics.median(ratios):.3f}"


def placebo_arguments(doc, seeds):
    """The arguments of a placebo script (this one's and liar_placebo_shared's): --bin, --out,
    --seeds (default `seeds`), --start-us, --jobs and --print."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "pathpool"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "liar"))
    ap.add_argument("--seeds", type=int, default=seeds)
    ap.add_argument("--start-us", type=int, default=100, help="how much later the placebo starts the MPTCP connection (us)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--print", action="store_true", help="print the table instead of writing docs/security.md")
    return ap


def checked(ap):
    """Parses `ap`'s arguments, exiting on a missing binary or counts below 1."""
    a = ap.parse_args()
    if not os.access(a.bin, os.X_OK):
        sys.exit(f"{a.bin}: not an executable (make build)")
    if a.seeds < 1 or a.start_us < 1:
        sys.exit("--seeds and --start-us must be at least 1")
    return a


def main():
    ap = placebo_arguments(__doc__, 100)
    ap.add_argument("--rows", default=DEFAULT_ROWS, help="comma-separated keys of disjoint rows (nsb-N-HOSTS or the design's keys)")
    a = checked(ap)
    known = disjoint_rows()
    unknown = [r for r in a.rows.split(",") if r not in known]
    if unknown:
        sys.exit(f"--rows: no disjoint row {', '.join(unknown)}; rows: {', '.join(sorted(known))}")
    seeds = range(1, a.seeds + 1)
    started = time.time()
    lines = [
        f"| row | seeds | check on / off | placebo (MPTCP {a.start_us} us later, check off) / off |",
        "|---|---|---|---|",
    ]
    for row in a.rows.split(","):
        setup = known[row]
        plan = [(verify, start, seed) for verify, start in ((False, 0), (True, 0), (False, a.start_us)) for seed in seeds]
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
            rates = list(pool.map(lambda p: lt.run(a, setup, "honest", p[0], p[2], mptcp_start_us=p[1])["mptcp_mbps"], plan))
        n = len(seeds)
        off, on, placebo = rates[:n], rates[n:2 * n], rates[2 * n:]
        check = [lt.ratio(x, y) for x, y in zip(on, off)]
        moved = [lt.ratio(x, y) for x, y in zip(placebo, off)]
        lines.append(f"| {row} | 1-{a.seeds} | {counted(check)} | {counted(moved)} |")
        print(lines[-1], file=sys.stderr, flush=True)
    head = (f"Written by `python3 -m scripts.liar_placebo --seeds {a.seeds} --start-us {a.start_us} --rows ...` (`make liar-placebo`, "
            f"the rows there) on {time.strftime('%Y-%m-%d')} ({(time.time() - started) / 60:.1f} min for the runs not already in its folder, which it shares with the liar table): "
            "per seed the honest receiver's rate with the check on over off, and with the placebo over without it, both with the check off.")
    emit("\n".join([head, "", *lines]), a.print, os.path.join(ROOT, "docs", "security.md"), BEGIN, END)

if __name__ == "__main__":
    main()
