#!/usr/bin/env python3
"""Instructions per packet of pathpool and htsim on the speed benchmarks (BENCHMARKS.md,
"Instructions against htsim"): the side-by-side table's cases, each program run once under
valgrind's cachegrind without its cache simulation.

    python3 -m scripts.bench_instructions_htsim --pathpool target/release/examples/bench \\
        --htsim out/htsim/bench_htsim [--seconds 60] [--only b1-10,mp-shared] [--print]

Instruction counts are exact and the same from run to run whatever else the machine does,
where the wall-time ratios of scripts/bench_vs_htsim.py move by tens of percent with the
machine's state: they say how much work each program does per packet, not how fast the
machine runs it (cache misses and mispredicted branches cost time beside the count). Each
count is the whole process (start-up included) over the data packets that left the
bottleneck queue(s), as each program prints them.

Without --print the table goes into BENCHMARKS.md between `<!-- bench_instructions_htsim:
begin -->` and `<!-- bench_instructions_htsim: end -->`.
"""

import argparse
import os
import re
import sys
import time

from scripts.bench_instructions import ROOT, instructions, require
from scripts.bench_vs_htsim import CASES, DESCRIPTION, SCALE
from scripts.doc_table import emit

BEGIN, END = "<!-- bench_instructions_htsim: begin -->", "<!-- bench_instructions_htsim: end -->"


def count(argv):
    """(instructions, bottleneck packets) of one run of argv under cachegrind."""
    n, stdout = instructions(argv)
    packets = re.search(r"bottleneck_packets=(\d+)", stdout)
    if not packets:
        sys.exit(f"{' '.join(argv)}: printed no bottleneck_packets=")
    return n, int(packets.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pathpool", required=True, help="pathpool's benchmark binary (target/release/examples/bench)")
    ap.add_argument("--htsim", required=True, help="the htsim driver built by scripts/htsim/build.sh")
    ap.add_argument("--seconds", type=int, default=60, help="simulated seconds per case (default 60)")
    ap.add_argument("--only", default="", help="comma-separated case names: " + ", ".join(c[0] for c in CASES if c[0] != SCALE))
    ap.add_argument("--print", action="store_true", help="print the table instead of writing BENCHMARKS.md")
    a = ap.parse_args()
    require((a.pathpool, a.htsim), "build it first: BENCHMARKS.md, \"Side by side with htsim\"")
    if a.seconds < 1:
        sys.exit("--seconds must be at least 1")
    cases = [c for c in CASES if c[0] != SCALE and (not a.only or c[0] in a.only.split(","))]
    if not cases:
        sys.exit(f"--only matched no case; cases: {', '.join(c[0] for c in CASES if c[0] != SCALE)}")
    started = time.time()
    rows = []
    for name, kind, flows, _ in cases:
        args = [kind, str(flows), str(a.seconds)]
        (pi, pp), (hi, hp) = count([a.pathpool, *args]), count([a.htsim, *args])
        rows.append(f"| {DESCRIPTION[name]}, {a.seconds} s | {pp} / {hp} | {pi / 1e6:.1f} M / {hi / 1e6:.1f} M "
                    f"| {pi / pp:.0f} | {hi / hp:.0f} | **{(hi / hp) / (pi / pp):.2f}** |")
        print(rows[-1], file=sys.stderr, flush=True)
    only = f" --only {a.only}" if a.only else ""
    lines = [
        f"Written by `python3 -m scripts.bench_instructions_htsim --pathpool target/release/examples/bench --htsim out/htsim/bench_htsim --seconds {a.seconds}{only}` "
        f"on {time.strftime('%Y-%m-%d')} ({(time.time() - started) / 60:.1f} min; valgrind's cachegrind, instructions of the whole process):",
        "",
        "| scenario | packets (pathpool / htsim) | instructions (pathpool / htsim) | pathpool per packet | htsim per packet | htsim / pathpool per packet |",
        "|---|---|---|---|---|---|",
        *rows,
    ]
    emit("\n".join(lines), a.print, os.path.join(ROOT, "BENCHMARKS.md"), BEGIN, END)


if __name__ == "__main__":
    main()
