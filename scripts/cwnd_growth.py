#!/usr/bin/env python3
"""Congestion-avoidance growth per RTT and window reductions per flow, from flows.csv
(`pathpool run` or `pathpool testbed run`; docs/fidelity.md).

    python3 -m scripts.cwnd_growth out/rr/flows.csv [--rtt rtt20=0.047 --rtt rtt40=0.067]

A reduction is a drop of the window by more than 20 % between two probes. Between two
reductions (stretches of at least 5 probes) the window's least-squares slope in packets per
second times the RTT gives the growth per RTT: the flow's own mean srtt over the stretch
when flows.csv has an `srtt_ms` column (the testbed's), else the `--rtt` given for the flow.
Prints per flow: the median growth per RTT, the number of stretches, the mean window.
Samples before `--from` seconds (default 10, the suite's warm-up) are left out.
"""
import argparse
import csv
import statistics
from collections import defaultdict


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("flows_csv")
    ap.add_argument("--rtt", action="append", default=[], help="FLOW=SECONDS for files without srtt")
    ap.add_argument("--from", dest="start", type=float, default=10.0)
    a = ap.parse_args()
    rtts = {k: float(v) for k, v in (x.split("=", 1) for x in a.rtt)}
    rows = defaultdict(list)
    for r in csv.DictReader(open(a.flows_csv)):
        t = float(r["time_s"])
        if t >= a.start:
            srtt = float(r["srtt_ms"]) / 1000 if r.get("srtt_ms") else None
            rows[r["flow"]].append((t, float(r["cwnd_packets"]), srtt))
    for flow, v in rows.items():
        slopes, stretch = [], [v[0]]
        for p in v[1:] + [(0.0, 0.0, None)]:
            if p[1] >= 0.8 * stretch[-1][1]:
                stretch.append(p)
                continue
            if len(stretch) >= 5:
                tm = statistics.mean(x[0] for x in stretch)
                cm = statistics.mean(x[1] for x in stretch)
                slope = sum((x[0] - tm) * (x[1] - cm) for x in stretch) / sum((x[0] - tm) ** 2 for x in stretch)
                rtt = statistics.mean(x[2] for x in stretch) if stretch[0][2] else rtts.get(flow)
                if rtt:
                    slopes.append(slope * rtt)
            stretch = [p]
        growth = f"{statistics.median(slopes):.2f}" if slopes else "n/a (no RTT)"
        print(f"{flow}: growth per RTT {growth} over {len(slopes)} stretches, mean window {statistics.mean(x[1] for x in v):.1f}")


if __name__ == "__main__":
    main()
