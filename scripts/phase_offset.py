#!/usr/bin/env python3
"""How a fidelity case's answer in the simulator turns on the absolute phase at the
bottleneck: each row adds one common delay to every flow's path (to the links named by
--links, one way), with the hosts' latency taken away (simulation.host_latency = 0), and
gives the case's quantity over --seeds seeds (median). The last row pools every offset and
seed, which is what `host_latency` = one packet time gives (docs/fidelity-notes.md, "Phase").

    python3 -m scripts.phase_offset --case reno-phase --case reno-rtt --case mptcp-shared
    python3 -m scripts.phase_offset --case mptcp-disjoint --links path1,path2 --step 50
    python3 -m scripts.phase_offset --case reno-phase --set 'flows.*.delayed_ack=false'

Prints a Markdown table. Runs the release binary (`cargo build --release` first).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import tomllib
from concurrent.futures import ThreadPoolExecutor

from scripts.units import seconds

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.path.join(ROOT, "target", "release", "pathpool")

# The cases this script examines; each one's quantity is its scenario file's [fidelity] table
# (`ratio` or `share`, two summary keys), as the fidelity suite reads it.
CASES = ["reno-rtt", "reno-phase", "reno-cubic", "mptcp-shared", "mptcp-disjoint"]


def quantity(case, summary):
    with open(os.path.join(ROOT, "scenarios", "fidelity", f"{case}.toml"), "rb") as f:
        table = tomllib.load(f)["fidelity"]
    kind = "ratio" if "ratio" in table else "share"
    a, b = table[kind]
    return summary[a] / summary[b] if kind == "ratio" else summary[a] / (summary[a] + summary[b])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--case", action="append", required=True, choices=sorted(CASES))
    ap.add_argument("--links", default="bottleneck", help="links whose delay gets the offset (comma-separated)")
    ap.add_argument("--step", type=float, default=25.0, help="offset step, microseconds one way")
    ap.add_argument("--count", type=int, default=12, help="offsets: 0, step, ..., (count-1) step")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--set", action="append", default=[], help="passed to every run")
    a = ap.parse_args()
    if not os.access(BINARY, os.X_OK):
        sys.exit(f"{BINARY}: not built; run `cargo build --release` first")
    links = a.links.split(",")
    work = tempfile.mkdtemp(prefix="phase-offset-")

    def run(job):
        case, k, seed = job
        scenario = os.path.join(ROOT, "scenarios", "fidelity", f"{case}.toml")
        base = tomllib.load(open(scenario, "rb"))
        sets = ["simulation.host_latency=0s"] + a.set
        for link in links:
            if link not in base.get("links", {}):
                sys.exit(f"{scenario}: no link {link!r} to offset (--links)")
            sets.append(f"links.{link}.delay={seconds(base['links'][link]['delay'], 'links.' + link + '.delay') * 1e6 + k * a.step:.3f}us")
        out = os.path.join(work, f"{case}-{k}-{seed}")
        cmd = [BINARY, "run", scenario, "--seed", str(seed), "--out", out] + [x for s in sets for x in ("--set", s)]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"{' '.join(cmd)}\n{done.stderr}")
        with open(os.path.join(out, "summary.json")) as f:
            return case, k, quantity(case, json.load(f))

    jobs = [(c, k, s) for c in a.case for k in range(a.count) for s in range(1, a.seeds + 1)]
    with ThreadPoolExecutor(max(1, os.cpu_count() or 1)) as ex:
        results = list(ex.map(run, jobs))
    by = {}
    for case, k, v in results:
        by.setdefault((case, k), []).append(v)
    print(f"| offset (one way, on {', '.join(links)}) | " + " | ".join(a.case) + " |")
    print("|---|" + "---|" * len(a.case))
    for k in range(a.count):
        print(f"| +{k * a.step:g} µs | " + " | ".join(f"{statistics.median(by[(c, k)]):.3f}" for c in a.case) + " |")
    pooled = [f"{statistics.median([v for k in range(a.count) for v in by[(c, k)]]):.3f}" for c in a.case]
    print(f"| all offsets ({a.count} x {a.seeds} seeds) | " + " | ".join(pooled) + " |")


if __name__ == "__main__":
    main()
