#!/usr/bin/env python3
"""Window cuts of an MPTCP connection against the TCP flow beside it, from testbed runs'
flows.csv (the `ss` probes every 100 ms): how often each side's window is cut per megabyte it
delivers, and its mean window, after the warm-up (docs/kernel.md, "What the coupling keeps").

    python3 -m scripts.kernel_cuts RUN_DIR [RUN_DIR ...] [--warmup 20] [--mptcp mp] [--tcp tcp]

RUN_DIR is a testbed run (a repeat-N folder, or a folder of them) or a simulator run
(`pathpool run`, 100 ms probes). A cut is the first probe of
a fall of the window below 80 % of the probe before it (PRR spreads one halving over a few
probes; a fall that continues on the next probe is the same cut); the segments a cut takes are
the window before the fall less the window where it ends.
"""
import argparse
import csv
import glob
import os
import statistics
import sys
from collections import defaultdict


def runs(paths):
    for p in paths:
        if os.path.exists(os.path.join(p, "flows.csv")):
            yield p
        else:
            yield from sorted(d for d in glob.glob(os.path.join(p, "repeat-*")) if os.path.exists(os.path.join(d, "flows.csv")))


def flows(path, warmup, probe=0.1):
    """{flow: (cuts, delivered bytes, mean cwnd)} after the warm-up."""
    series = defaultdict(list)
    delivered = defaultdict(float)  # the simulator's flows.csv has no bytes_acked: sum its rates
    with open(os.path.join(path, "flows.csv")) as f:
        for i, row in enumerate(csv.DictReader(f), start=2):
            try:
                t, flow = float(row["time_s"]), row["flow"]
                if row.get("bytes_acked") is None:
                    delivered[flow] += float(row["throughput_mbps"]) * 1e6 / 8 * probe
                    acked = delivered[flow]
                else:
                    acked = int(row["bytes_acked"])
                series[flow].append((t, float(row["cwnd_packets"]), acked))
            except (KeyError, ValueError):
                sys.exit(f"{path}/flows.csv:{i}: expected time_s, cwnd_packets and bytes_acked "
                         "(or throughput_mbps) as numbers")
    out = {}
    for name, s in series.items():
        # A window above 65535 segments is no real window (docs/kernel.md, "A window of 1.5
        # billion segments"): such probes are left out of the means and the cuts.
        s = [x for x in s if x[0] >= warmup and x[1] <= 65535]
        if len(s) < 2:
            continue
        cuts, lost, falling, top = 0, 0.0, False, 0.0
        for (_, a, _), (_, b, _) in zip(s, s[1:]):
            fall = b < 0.8 * a
            if fall and not falling:
                cuts, top = cuts + 1, a
            if falling and not fall:
                lost += top - a  # the fall ended at a
            falling = fall
        out[name] = (cuts, s[-1][2] - s[0][2], statistics.mean(x[1] for x in s), lost)
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("runs", nargs="+")
    p.add_argument("--warmup", type=float, default=20.0)
    p.add_argument("--mptcp", default="mp", help="the MPTCP flow's name (its subflows are NAME.sfK)")
    p.add_argument("--tcp", default="tcp")
    args = p.parse_args()
    print("| run | MPTCP cuts per MB | TCP cuts per MB | MPTCP / TCP | window segments cut per MB, MPTCP / TCP | "
          "MPTCP mean window (sum) | TCP mean window | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for run in runs(args.runs):
        f = flows(run, args.warmup)
        mp = [v for k, v in f.items() if k.startswith(args.mptcp + ".")]
        if not mp or args.tcp not in f:
            sys.exit(f"{run}: no flows {args.mptcp}.sf* and {args.tcp} in flows.csv")
        mc, mb, mw = sum(v[0] for v in mp), sum(v[1] for v in mp), sum(v[2] for v in mp)
        ml = sum(v[3] for v in mp)
        tc, tb, tw, tl = f[args.tcp]
        mr, tr = mc / (mb / 1e6), tc / (tb / 1e6)
        lr = (ml / mb) / (tl / tb) if tl else float("nan")
        print(f"| {run} | {mr:.2f} | {tr:.2f} | {mr / tr if tr else float('nan'):.2f} | {lr:.2f} | "
              f"{mw:.1f} | {tw:.1f} | {mw / tw:.2f} |")


if __name__ == "__main__":
    main()
