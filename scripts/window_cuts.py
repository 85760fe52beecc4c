#!/usr/bin/env python3
"""Window cuts per flow from flows.csv (`pathpool run` or `pathpool testbed run`), to compare
how each flow's window is cut and regrows in the simulator and on Linux (docs/fidelity-notes.md,
"Reno against CUBIC").

    python3 -m scripts.window_cuts out/rc/flows.csv [more flows.csv ...] [--from 10]

A cut is a fall of the window by more than 15 % between two probes; falls within 0.3 s of
a cut belong to it (Linux's window shrinks over the recovery's round trip, PRR). Per file:
each flow's share of the summed mean throughput, then per flow: cuts, the mean window, the
window before a cut (largest of the 3 probes before) and after it (smallest of the 3 after),
the median ratio of the two, the growth over the 0.5 s before a cut, and the mean growth
after a cut, every 0.2 s from the window's lowest probe (6 values, 0.2 to 1.2 s).
Samples before `--from` seconds (default 10, the suite's warm-up) are left out.
"""
import argparse
import csv
import statistics
from collections import defaultdict


def load(path, start):
    rows = defaultdict(list)
    for r in csv.DictReader(open(path)):
        if float(r["time_s"]) >= start:
            rows[r["flow"]].append((float(r["cwnd_packets"]), float(r["throughput_mbps"])))
    return rows


def cuts(w):
    found = []
    for i in range(3, len(w) - 3):
        if w[i] < 0.85 * w[i - 1] and not (found and i - found[-1] <= 3):
            found.append(i)
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("flows_csv", nargs="+")
    ap.add_argument("--from", dest="start", type=float, default=10.0)
    a = ap.parse_args()
    for path in a.flows_csv:
        rows = load(path, a.start)
        mean_tput = {f: statistics.mean(x[1] for x in v) for f, v in rows.items()}
        total = sum(mean_tput.values())
        print(path + ": share " + ", ".join(f"{f} {t / total:.3f}" for f, t in mean_tput.items()))
        for flow, v in rows.items():
            w = [x[0] for x in v]
            c = cuts(w)
            if not c:
                print(f"  {flow}: no cuts, mean window {statistics.mean(w):.1f}")
                continue
            before = [max(w[i - 3:i]) for i in c]
            after = [min(w[i:i + 3]) for i in c]
            ramp = [max(w[i - 3:i]) - w[i - 6] for i in c if i >= 6]
            growth = defaultdict(list)
            for k, i in enumerate(c):
                low = i + w[i:i + 3].index(min(w[i:i + 3]))
                end = c[k + 1] if k + 1 < len(c) else len(w)
                for d in range(2, 13, 2):
                    if low + d < end:
                        growth[d].append(w[low + d] - w[low])
            curve = " ".join(f"{statistics.mean(growth[d]):.1f}" if growth[d] else "-" for d in range(2, 13, 2))
            print(
                f"  {flow}: cuts {len(c)}, mean window {statistics.mean(w):.1f}, before {statistics.mean(before):.1f}, "
                f"after {statistics.mean(after):.1f}, ratio {statistics.median(x / b for x, b in zip(after, before)):.3f}, "
                f"growth over the 0.5 s before a cut {statistics.median(ramp) if ramp else float('nan'):.1f}, "
                f"after a cut (0.2-1.2 s) {curve}"
            )


if __name__ == "__main__":
    main()
