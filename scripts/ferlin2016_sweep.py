#!/usr/bin/env python3
"""S0's emulation experiments on the simulator: NSB-n and SB-n (n = 2..5), seeds 1..10,
each with --cc olia, uncoupled and mptcp-sbd; prints the medians (docs/validation.md,
"MPTCP and MPTCP-SBD") and checks the acceptance targets. Exit status 1 if one fails.

    python3 -m scripts.ferlin2016_sweep [--bin target/release/pathpool] [--out out/ferlin2016] [--seeds 10] [--jobs N]

With --sbd-feedback olia|reno the detector runs open loop (the sender keeps OLIA over all
subflows, or Reno on each, whatever the decisions; docs/mptcp.md): only mptcp-sbd runs,
and the table shows how accurate the detector is under that fixed coupling.
--sbd-sample-spacing T (e.g. 0ms: every OWD sample) overrides the receiver's sample
thinning in the mptcp-sbd runs; --sbd-corr-min R turns on the detector's delay-correlation
split (an extension, not S0's; docs/sbd.md) in them.
"""

import argparse
import concurrent.futures
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMES = ["olia", "uncoupled", "mptcp-sbd"]
KEYS = ["sum_ratio", "decision_accuracy", "observation_accuracy"]


def run(binary, scenario, cc, seed, out, extra=()):
    folder = os.path.join(out, f"{scenario}-{cc}-s{seed}")
    path = os.path.join(ROOT, "scenarios", "papers", "ferlin2016", scenario + ".toml")
    if cc == "mptcp-sbd":  # S0's detector (without it a scenario runs the pathpool preset)
        extra = ["--set", "flows.mptcp.sbd_detector=mptcp-sbd", *extra]
    subprocess.run([binary, "run", path, "--out", folder, "--cc", cc, "--seed", str(seed), *extra], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(folder, "summary.json")) as f:
        return json.load(f)


def run_seeds(a, scenario, cc, extra=()):
    """One summary per seed 1..a.seeds, in seed order, simulated on a.jobs processes."""
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        return list(pool.map(lambda s: run(a.bin, scenario, cc, s, a.out, extra), range(1, a.seeds + 1)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "pathpool"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "ferlin2016"))
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="simulations at once (default: the cores)")
    ap.add_argument("--sbd-feedback", choices=["olia", "reno"])
    ap.add_argument("--sbd-sample-spacing", metavar="T")
    ap.add_argument("--sbd-corr-min", metavar="R")
    a = ap.parse_args()
    a.sbd_extra = ["--set", f"flows.mptcp.sbd_sample_spacing={a.sbd_sample_spacing}"] if a.sbd_sample_spacing else []
    if a.sbd_corr_min:
        a.sbd_extra += ["--set", f"flows.mptcp.sbd_corr_min={a.sbd_corr_min}"]
    if a.sbd_feedback:
        return open_loop(a)
    if os.path.exists(a.out):
        subprocess.run(["rm", "-rf", a.out], check=True)
    med = {}
    groups = {}
    for kind in ["nsb", "sb"]:
        for n in range(2, 6):
            sc = f"{kind}-{n}"
            for cc in SCHEMES:
                extra = a.sbd_extra if cc == "mptcp-sbd" else []
                rows = run_seeds(a, sc, cc, extra)
                for k in KEYS:
                    vals = [r[k] for r in rows if k in r]
                    med[(sc, cc, k)] = statistics.median(vals) if vals else None
                if cc == "mptcp-sbd":
                    groups[sc] = [statistics.mean(r.get(f"groups_{g}", 0.0) for r in rows) for g in range(1, n + 1)]
    fmt = lambda x: "-" if x is None else f"{x:.2f}"
    print("| scenario | sum_ratio OLIA | sum_ratio uncoupled | sum_ratio MPTCP-SBD | SBD / OLIA | decision accuracy | observation accuracy | mean share of decisions with 1..n groups |")
    print("|---|---|---|---|---|---|---|---|")
    failures = []
    for kind in ["nsb", "sb"]:
        for n in range(2, 6):
            sc = f"{kind}-{n}"
            o, u, s = (med[(sc, cc, "sum_ratio")] for cc in SCHEMES)
            acc = med[(sc, "mptcp-sbd", "decision_accuracy")]
            obs = med[(sc, "mptcp-sbd", "observation_accuracy")]
            print(f"| {sc.upper()} | {fmt(o)} | {fmt(u)} | {fmt(s)} | {fmt(s / o)} | {fmt(acc)} | {fmt(obs)} | {' / '.join(f'{g:.2f}' for g in groups[sc])} |")
            if sc == "nsb-2" and s / o < 1.3:
                failures.append(f"NSB-2: MPTCP-SBD / OLIA = {s / o:.2f} < 1.3")
            if sc == "nsb-5" and s / o < 1.8:
                failures.append(f"NSB-5: MPTCP-SBD / OLIA = {s / o:.2f} < 1.8")
            if sc == "nsb-2" and (acc or 0) < 0.75:
                failures.append(f"NSB-2: decision accuracy {fmt(acc)} < 0.75")
            if kind == "sb" and s > 1.15:
                failures.append(f"{sc.upper()}: MPTCP-SBD sum_ratio {s:.2f} > 1.15")
            if kind == "sb" and (acc or 0) < 0.95:
                failures.append(f"{sc.upper()}: decision accuracy {fmt(acc)} < 0.95")
    for f in failures:
        print("FAIL", f)
    sys.exit(1 if failures else 0)


def open_loop(a):
    extra = ["--set", f"flows.mptcp.sbd_feedback={a.sbd_feedback}", *a.sbd_extra]
    print(f"| scenario | decision accuracy (open loop, {a.sbd_feedback}) | observation accuracy |")
    print("|---|---|---|")
    for kind in ["nsb", "sb"]:
        for n in range(2, 6):
            sc = f"{kind}-{n}"
            rows = run_seeds(a, sc, "mptcp-sbd", extra)
            acc, obs = (statistics.median(r[k] for r in rows) for k in ["decision_accuracy", "observation_accuracy"])
            print(f"| {sc.upper()} | {acc:.2f} | {obs:.2f} |")


if __name__ == "__main__":
    main()
