#!/usr/bin/env python3
"""Whether a bottleneck's departures drift or stay on their schedule, from a capture of the
packets as they leave it (the testbed's `--capture` of the bottleneck link). For each gap
between consecutive packets in a busy period, the residual is the gap less the packet's
transmission time at the link's rate. A queue that keeps its schedule (tbf: a packet sent
late leaves its tokens to the next) gives residuals whose lag-1 autocorrelation is near
-0.5 and whose sum over many departures stays small; a service time that drifts gives
independent residuals (autocorrelation near 0) whose sum grows as a random walk.

    python3 -m scripts.departure_gaps D/capture/bottleneck.pcap --rate 20Mbps

Reads captures and units with the pathpool Python package (`pathpool.packets`,
`pathpool.quantity`): run it with a Python that has pathpool installed (docs/python.md).
"""
import argparse
import statistics
import sys

from scripts.bursts import packets  # (the same pcap reader)
from scripts.units import rate_bps


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("capture")
    ap.add_argument("--rate", required=True, help="the bottleneck's rate, e.g. 20Mbps")
    ap.add_argument("--skip", type=float, default=5.0, help="seconds left out at the start")
    ap.add_argument("--busy", type=float, default=300e-6, help="a residual beyond this (s) ends a busy period")
    ap.add_argument("--window", type=int, default=100, help="departures per summed window")
    a = ap.parse_args()
    bps = rate_bps(a.rate, "--rate")
    times, sizes = [], []
    for t, orig, _ in packets(a.capture):
        times.append(t)
        sizes.append(orig)
    if len(times) < 3:
        sys.exit(f"{a.capture}: fewer than 3 packets")
    residuals = [times[i] - times[i - 1] - sizes[i] * 8 / bps for i in range(1, len(times)) if times[i] - times[0] >= a.skip]
    busy = [abs(r) < a.busy for r in residuals]
    pairs = [(residuals[i], residuals[i + 1]) for i in range(len(residuals) - 1) if busy[i] and busy[i + 1]]
    if len(pairs) < 10:
        sys.exit(f"{a.capture}: fewer than 10 busy gaps (is --rate the bottleneck's?)")
    x = [p[0] for p in pairs]
    y = [p[1] for p in pairs]
    mx, my, sx, sy = statistics.fmean(x), statistics.fmean(y), statistics.pstdev(x), statistics.pstdev(y)
    corr = sum((u - mx) * (v - my) for u, v in pairs) / len(pairs) / (sx * sy)
    sums = [sum(residuals[i:i + a.window]) for i in range(0, len(residuals) - a.window, a.window) if all(busy[i:i + a.window])]
    print(f"{a.capture}: {len(pairs)} busy gaps; residual mean {mx * 1e6:.1f} us, std {sx * 1e6:.1f} us; lag-1 autocorrelation {corr:.3f}")
    if sums:
        print(f"sum over {a.window} departures: std {statistics.pstdev(sums) * 1e6:.1f} us over {len(sums)} windows "
              f"(independent residuals would give {sx * 1e6 * a.window ** 0.5:.0f} us)")


if __name__ == "__main__":
    main()
