#!/usr/bin/env python3
"""Time per packet of two builds of `pathpool`, run in turn on the speed benchmarks B1 N=10 and
MP shared with Linux hosts: the wall-time counterpart of scripts/bench_instructions.py, for a
change whose instruction count does not say how it runs (docs/simulator.md, "Why wall time
says more than instructions").

    python3 -m scripts.bench_builds --old OLD_PATHPOOL [--bin target/release/pathpool]
        [--runs 15] [--seconds 200] [--hosts linux-6.18] [--cpu N]

Each run is `pathpool run scenarios/bench/FILE --set simulation.hosts=HOSTS --set
simulation.duration=Ns`; the builds alternate (old, new, old, new, ...) so that both see the
machine in the same state. Per scenario it prints the medians of CPU time (user + system of
the finished child) and of the simulation's own wall time (summary.json's `wall_seconds`), each
per data packet through the bottleneck, new over old of the medians, and the sorted pairwise
ratios of the wall times (run i of the new build over run i of the old): on this kind of
machine they spread by tens of percent even when it is idle, so read a change of a few percent
only where most pairs agree. `--cpu N` runs both builds on processor N alone (the operating
system's affinity, inherited by every run), so that a run's speed does not depend on which
processor it lands on or moves to; the median of the pairwise CPU-time ratios is printed too.
"""

import argparse
import os
import statistics
import sys
import tempfile

from scripts.bench_hosts import load, run_once
from scripts.pin import pin_to

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIOS = [("scenarios/bench/b1-n10.toml", "B1, N=10"), ("scenarios/bench/mp-n10.toml", "MP shared, 5 TCP + 5 LIA")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", required=True, help="the build to compare against")
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "pathpool"), help="the new build")
    ap.add_argument("--runs", type=int, default=15, help="runs of each build per scenario")
    ap.add_argument("--seconds", type=int, default=200, help="simulated seconds per run")
    ap.add_argument("--hosts", default="linux-6.18", help="simulation.hosts of every run")
    ap.add_argument("--cpu", type=int, help="run every run on this processor alone")
    a = ap.parse_args()
    if a.cpu is not None:
        pin_to(a.cpu)
    for b in (a.old, a.bin):
        if not os.access(b, os.X_OK):
            sys.exit(f"{b}: not an executable pathpool build")
    if a.runs < 1 or a.seconds < 1:
        sys.exit("--runs and --seconds: expected whole numbers >= 1")
    sets = [f"simulation.hosts={a.hosts}", f"simulation.duration={a.seconds}s"]
    load_before = load()
    with tempfile.TemporaryDirectory() as tmp:
        for scenario, label in SCENARIOS:
            times = {"old": [], "new": []}
            for _ in range(a.runs):
                for name, binary in (("old", a.old), ("new", a.bin)):
                    times[name].append(run_once(binary, os.path.join(ROOT, scenario), name, sets, os.path.join(tmp, name)))
            cpu = {k: statistics.median(t[0] for t in v) for k, v in times.items()}
            wall = {k: statistics.median(t[1] for t in v) for k, v in times.items()}
            pairs = sorted(n[1] / o[1] for o, n in zip(times["old"], times["new"]))
            cpu_pairs = [n[0] / o[0] for o, n in zip(times["old"], times["new"])]
            pinned = f", on processor {a.cpu}" if a.cpu is not None else ""
            print(f"{label}, {a.seconds} s, hosts {a.hosts}, {a.runs} runs each{pinned}: CPU ns/packet old {cpu['old']:.1f} "
                  f"new {cpu['new']:.1f} ({cpu['new'] / cpu['old']:.3f}; median of the pairwise ratios "
                  f"{statistics.median(cpu_pairs):.3f}); wall ns/packet old {wall['old']:.1f} "
                  f"new {wall['new']:.1f} ({wall['new'] / wall['old']:.3f}); pairwise wall ratios "
                  + " ".join(f"{p:.3f}" for p in pairs), flush=True)
    print(f"load average {load_before:.2f} before, {load():.2f} after")


if __name__ == "__main__":
    main()
