#!/usr/bin/env python3
"""pathpool and htsim side by side on the speed benchmarks (BENCHMARKS.md).

    python3 -m scripts.bench_vs_htsim --pathpool target/release/examples/bench \\
        --htsim out/htsim/bench_htsim [--runs 5] [--only b1-10,s-1000] [--cpu N]

Both programs build the same topology in code (crates/sim/examples/bench.rs and
scripts/htsim/bench_htsim.cpp; htsim is built by scripts/htsim/build.sh) and print the data
packets that left the bottleneck queue(s). For each case the two are run in turn, one
process at a time (one warm-up run each, then pathpool, htsim, pathpool, htsim, ...), so
both see the machine in the same state. Metric: those packets per second of the whole
process's wall time; the median of the runs of each, the ratio of the medians and the
range of the pairwise ratios; beside them the ratio of the medians of packets per CPU
(user + system) second, which time sharing with other jobs disturbs less. Peak RSS is each process's own (GNU time, /usr/bin/time). The load average is
printed before and after each case: the machine counts as idle while it stays well under
one (on 2 cores) apart from the benchmark itself. `--cpu N` runs both programs on processor
N alone: on a virtual machine whose processors differ in speed from moment to moment, neither
program then gets the faster or quieter one by chance.

The scale case (`fence`: 100 bottlenecks of 1 Gb/s, 10 000 flows, 60 s simulated) runs at
most 3 counted runs of each program and no warm-up run; beside its row in the table, it has a
table of its own: packets per second, events per packet, peak RSS and peak RSS per flow.

--doc FILE writes the table, the command, the date and the cost growth with the number of
flows into FILE, between the lines `<!-- bench_vs_htsim: begin -->` and
`<!-- bench_vs_htsim: end -->` (BENCHMARKS.md), replacing what was there, and the scale
case's table between `<!-- bench_vs_htsim scale: begin -->` and
`<!-- bench_vs_htsim scale: end -->`. Each block is written only when a case of it ran
(`--only fence` rewrites the scale block alone).
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import time

from scripts.pin import pin_to

CASES = [
    # (name, scenario, flows, simulated seconds)
    ("b1-10", "b1", 10, 600),
    ("b1-100", "b1", 100, 600),
    ("s-10", "s", 10, 600),
    ("s-1000", "s", 1000, 600),
    ("mp-shared", "mp", 10, 600),
    ("mp-disjoint", "mpd", 10, 600),
    ("fence", "fence", 10000, 60),
]

DESCRIPTION = {
    "b1-10": "B1, N=10",
    "b1-100": "B1, N=100",
    "s-10": "S, 1 Gb/s, N=10",
    "s-1000": "S, 1 Gb/s, N=1000",
    "mp-shared": "MP shared, 5 TCP + 5 LIA",
    "mp-disjoint": "MP disjoint, 10 TCP + 10 LIA per path",
    "fence": "Fence, 100 x 1 Gb/s, 5000 TCP + 5000 LIA",
}

# The scale case runs for minutes per process: at most this many counted runs of each
# program, and no warm-up run (a run that long warms its own caches).
SCALE = "fence"
SCALE_RUNS = 3


def run_once(argv):
    """Runs argv; returns (wall seconds, CPU seconds, peak RSS in MiB, bottleneck packets,
    events/packet).

    Peak RSS comes from GNU time (a child forked from Python would report Python's own peak
    as its maximum); its start-up counts in both programs' wall time alike."""
    start = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-f", "maxrss_kb=%M cpu=%U+%S"] + argv, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{' '.join(argv)} exited with {proc.returncode}: {proc.stderr[-500:]}")
    packets = re.search(r"bottleneck_packets=(\d+)", proc.stdout)
    events = re.search(r"events_per_packet=([0-9.]+)", proc.stdout)
    rss = re.search(r"maxrss_kb=(\d+) cpu=([0-9.]+)\+([0-9.]+)", proc.stderr)
    if not packets or not rss:
        sys.exit(f"{' '.join(argv)} printed no bottleneck_packets= (or no peak RSS): {proc.stdout!r}")
    cpu = float(rss.group(2)) + float(rss.group(3))
    return wall, cpu, int(rss.group(1)) / 1024, int(packets.group(1)), float(events.group(1)) if events else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pathpool", required=True, help="pathpool's benchmark binary (target/release/examples/bench)")
    ap.add_argument("--htsim", required=True, help="the htsim driver built by scripts/htsim/build.sh")
    ap.add_argument("--runs", type=int, default=5, help=f"counted runs of each program per case (default 5; the scale case at most {SCALE_RUNS})")
    ap.add_argument("--only", default="", help="comma-separated case names: " + ", ".join(c[0] for c in CASES))
    ap.add_argument("--seconds", type=int, default=0, help="simulated seconds instead of each case's own (600; the scale case 60)")
    ap.add_argument("--doc", help="write the tables between the bench_vs_htsim markers of this file")
    ap.add_argument("--cpu", type=int, help="run both programs on this processor alone (neither gets a faster or quieter one)")
    a = ap.parse_args()
    if a.runs < 1:
        sys.exit("--runs must be at least 1")
    if a.cpu is not None:
        pin_to(a.cpu)
    chosen = [c for c in CASES if not a.only or c[0] in a.only.split(",")]
    if not chosen:
        sys.exit(f"--only matched no case; cases: {', '.join(c[0] for c in CASES)}")
    if a.doc:
        for begin, end in (MARKERS, SCALE_MARKERS):
            read_doc(a.doc, begin, end)  # fail before the runs if the markers are missing

    print(f"pathpool: {a.pathpool}\nhtsim:    {a.htsim}\n{a.runs} counted runs each, alternating, after one warm-up run each")
    results = []
    started = time.time()
    print(HEADER)
    print(RULE)
    for name, kind, flows, seconds in chosen:
        results.append(run_case(a, name, kind, flows, seconds))
        print(row(results[-1]), flush=True)
    scale = [r for r in results if r["name"] == SCALE]
    for r in scale:
        print("\n" + "\n".join(scale_table(r)))
    if a.doc:
        if any(r["name"] != SCALE for r in results):
            write_doc(a, MARKERS, main_block(a, results, time.time() - started))
        if scale:
            write_doc(a, SCALE_MARKERS, scale_block(a, scale[0]))


HEADER = ("| scenario | packets (pathpool / htsim) | events per packet (pathpool / htsim) | pathpool pkt/s (median) | htsim pkt/s (median) | ratio of medians | pairwise ratios (min-max) | ratio per CPU second | peak RSS pathpool / htsim | load avg before -> after |")
RULE = "|---|---|---|---|---|---|---|---|---|---|"
MARKERS = ("<!-- bench_vs_htsim: begin -->", "<!-- bench_vs_htsim: end -->")
SCALE_MARKERS = ("<!-- bench_vs_htsim scale: begin -->", "<!-- bench_vs_htsim scale: end -->")


def read_doc(path, begin, end):
    """The file's text split around the markers (before, after)."""
    text = open(path).read()
    if text.count(begin) != 1 or text.count(end) != 1 or text.index(begin) > text.index(end):
        sys.exit(f"{path}: expected one line '{begin}' followed by one line '{end}'")
    return text[: text.index(begin) + len(begin)], text[text.index(end) :]


def command(a):
    argv = ["python3 -m scripts.bench_vs_htsim", "--pathpool", a.pathpool, "--htsim", a.htsim]
    argv += (["--runs", str(a.runs)] if a.runs != 5 else []) + (["--only", a.only] if a.only else [])
    argv += (["--seconds", str(a.seconds)] if a.seconds else []) + (["--cpu", str(a.cpu)] if a.cpu is not None else [])
    return " ".join(argv + ["--doc", a.doc])


def main_block(a, results, elapsed):
    """The side-by-side table with its command, date and the cost growth with the flows."""
    lines = [
        "",
        f"Written by `{command(a)}` on {time.strftime('%Y-%m-%d', time.gmtime())}",
        f"({a.runs} counted run{'s' if a.runs != 1 else ''} of each program per case, alternating"
        + (f"; the scale case {min(a.runs, SCALE_RUNS)}, without warm-up" if any(r["name"] == SCALE for r in results) else "")
        + f"; {elapsed / 60:.1f} min; the last column",
        "says how idle the machine was):",
        "",
        HEADER,
        RULE,
        *(row(r) for r in results),
    ]
    med = {r["name"]: r["med"] for r in results}
    growth = []
    for few, many, label in [("b1-10", "b1-100", "B1 from 10 to 100 flows"), ("s-10", "s-1000", "S from 10 to 1000 flows")]:
        if few in med and many in med:
            parts = [f"{who} {100 * (med[few][who] / med[many][who] - 1):+.0f} %" for who in ("pathpool", "htsim")]
            growth.append(f"{label}: {', '.join(parts)}")
    if growth:
        lines += ["", "Time per packet (wall), growth with the number of flows: " + "; ".join(growth) + "."]
    return lines


def scale_block(a, r):
    return ["", f"Written by `{command(a)}` on {time.strftime('%Y-%m-%d', time.gmtime())}:", "", *scale_table(r)]


def scale_table(r):
    """The scale case per program: rates, events per packet, peak memory, per flow."""
    lines = [
        f"| program | data packets, {r['seconds']} s | pkt/s (median of {r['runs']}, wall) | pkt/s per CPU second | events per packet | peak RSS | peak RSS per flow | load avg before -> after |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for who in ("pathpool", "htsim"):
        rss, packets, epp = r["last"][who]
        lines.append(
            f"| {who} | {packets} | {r['med'][who] / 1e6:.2f} M | {r['cpu_med'][who] / 1e6:.2f} M | {epp:.2f} | {rss:.0f} MiB "
            f"| {1024 * rss / r['flows']:.1f} KiB | {r['load'][0]:.2f} -> {r['load'][1]:.2f} |"
        )
    return lines


def write_doc(a, markers, lines):
    """Replaces the block between the markers."""
    before, after = read_doc(a.doc, *markers)
    with open(a.doc, "w") as f:
        f.write(before + "\n".join(lines) + "\n" + after)
    print(f"wrote {markers[0]} ... into {a.doc}", file=sys.stderr)


def run_case(a, name, kind, flows, seconds):
    """Runs one case; returns its medians, pairwise ratios, last run's figures and the load."""
    seconds = a.seconds or seconds
    runs = min(a.runs, SCALE_RUNS) if name == SCALE else a.runs
    cmds = {
        "pathpool": [a.pathpool, kind, str(flows), str(seconds)],
        "htsim": [a.htsim, kind, str(flows), str(seconds)],
    }
    load_before = os.getloadavg()[0]
    if name != SCALE:
        for argv in cmds.values():
            run_once(argv)
    rates = {"pathpool": [], "htsim": []}
    cpu_rates = {"pathpool": [], "htsim": []}
    last = {}
    for _ in range(runs):
        for who, argv in cmds.items():
            wall, cpu, rss, packets, epp = run_once(argv)
            rates[who].append(packets / wall)
            cpu_rates[who].append(packets / max(cpu, 1e-3))
            last[who] = (rss, packets, epp)
    return {
        "name": name,
        "seconds": seconds,
        "flows": flows,
        "runs": runs,
        "med": {who: statistics.median(r) for who, r in rates.items()},
        "cpu_med": {who: statistics.median(r) for who, r in cpu_rates.items()},
        "pairs": [p / h for p, h in zip(rates["pathpool"], rates["htsim"])],
        "last": last,
        "load": (load_before, os.getloadavg()[0]),
    }


def row(r):
    """The case's row of the side-by-side table."""
    med, cpu_med, pairs = r["med"], r["cpu_med"], r["pairs"]
    (prss, ppk, pepp), (hrss, hpk, hepp) = r["last"]["pathpool"], r["last"]["htsim"]
    return (
        f"| {DESCRIPTION[r['name']]}, {r['seconds']} s | {ppk} / {hpk} ({100 * (ppk - hpk) / hpk:+.2f} %) | {pepp:.2f} / {hepp:.2f} "
        f"| {med['pathpool'] / 1e6:.2f} M | {med['htsim'] / 1e6:.2f} M | **{med['pathpool'] / med['htsim']:.2f}** "
        f"| {min(pairs):.2f}-{max(pairs):.2f} | {cpu_med['pathpool'] / cpu_med['htsim']:.2f} "
        f"| {prss:.1f} / {hrss:.1f} MiB | {r['load'][0]:.2f} -> {r['load'][1]:.2f} |"
    )


if __name__ == "__main__":
    main()
