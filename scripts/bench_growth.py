#!/usr/bin/env python3
"""How time per packet grows with the number of flows, measured in pairs (BENCHMARKS.md,
"Growth with the number of flows").

    python3 -m scripts.bench_growth --pathpool target/release/examples/bench \\
        --htsim out/htsim/bench_htsim [--pairs 9] [--doc BENCHMARKS.md]

The side-by-side table (scripts/bench_vs_htsim.py) takes the growth from two cases run minutes
apart, so a change in the machine's speed between them (which moves one program's rate by 15 %
with no change to its code: BENCHMARKS.md) enters the growth whole. Here each pair is a run
with few flows and one with many, back to back (few first in odd pairs, many first in even
ones), and the growth is the median over the pairs of (time per packet with many) / (time per
packet with few) - 1, with its range: a slow spell then mostly hits both runs of a pair. Both
programs are measured alike, one process at a time, after one warm-up run of each case.
"""

import argparse
import os
import statistics
import sys
import time

from scripts.bench_vs_htsim import read_doc, run_once, write_doc

# (label, scenario, few flows, many flows, simulated seconds): the aims of BENCHMARKS.md.
GROWTHS = [("B1 from 10 to 100 flows", "b1", 10, 100, 600), ("S from 10 to 1000 flows", "s", 10, 1000, 600)]
MARKERS = ("<!-- bench_growth: begin -->", "<!-- bench_growth: end -->")


def growth(argv_few, argv_many, pairs):
    """Per pair, time per packet with many flows over with few, less one."""
    for argv in (argv_few, argv_many):
        run_once(argv)
    out = []
    for i in range(pairs):
        order = (argv_few, argv_many) if i % 2 == 0 else (argv_many, argv_few)
        rate = {}
        for argv in order:
            wall, _, _, packets, _ = run_once(argv)
            rate[id(argv)] = packets / wall
        out.append(rate[id(argv_few)] / rate[id(argv_many)] - 1)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pathpool", required=True, help="pathpool's benchmark binary (target/release/examples/bench)")
    ap.add_argument("--htsim", required=True, help="the htsim driver built by scripts/htsim/build.sh")
    ap.add_argument("--pairs", type=int, default=9, help="pairs of runs per program and growth (default 9)")
    ap.add_argument("--doc", help="write the table between the bench_growth markers of this file")
    a = ap.parse_args()
    if a.pairs < 1:
        sys.exit("--pairs must be at least 1")
    for b in (a.pathpool, a.htsim):
        if not os.access(b, os.X_OK):
            sys.exit(f"{b!r}: not an executable file (make bench-build; scripts/htsim/build.sh for htsim)")
    if a.doc:
        read_doc(a.doc, *MARKERS)  # fail before the runs if the markers are missing
    started = time.time()
    load_before = os.getloadavg()[0]
    rows = []
    for label, kind, few, many, seconds in GROWTHS:
        cells = []
        for binary in (a.pathpool, a.htsim):
            g = growth([binary, kind, str(few), str(seconds)], [binary, kind, str(many), str(seconds)], a.pairs)
            cells.append(f"{100 * statistics.median(g):+.1f} % [{100 * min(g):+.1f}, {100 * max(g):+.1f}]")
        rows.append(f"| {label}, {seconds} s | {cells[0]} | {cells[1]} |")
        print(rows[-1], flush=True)
    lines = [
        "",
        f"Written by `python3 -m scripts.bench_growth --pathpool target/release/examples/bench --htsim out/htsim/bench_htsim "
        f"--pairs {a.pairs}` on {time.strftime('%Y-%m-%d')} ({(time.time() - started) / 60:.1f} min; load average "
        f"{load_before:.2f} -> {os.getloadavg()[0]:.2f}): growth of wall time per packet, the median over {a.pairs} "
        "back-to-back pairs [min, max].",
        "",
        "| growth | pathpool | htsim |",
        "|---|---|---|",
        *rows,
    ]
    if a.doc:
        write_doc(a, MARKERS, lines)
    else:
        print("\n".join(lines))


if __name__ == "__main__":
    main()
