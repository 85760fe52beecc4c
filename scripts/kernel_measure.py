#!/usr/bin/env python3
"""pathpool's coupled controllers on the real kernel (BPF struct_ops, docs/kernel.md) against
the simulator, on the files of scenarios/kernel/: every controller K times on the testbed
(`pathpool testbed run --repeat K`) and K seeds in the simulator, sum ratios as medians and
ranges, written as the table of docs/kernel.md between its markers.

    sudo python3 -m scripts.kernel_measure [--bin target/release/pathpool] [--out out/kernel]
                                            [--repeat 3] [--doc docs/kernel.md] [--s0]
                                            [--pacing] [--only CASE-CC,...]

MPTCP-SBD runs on the kernel with `pathpool kernel sbd` (the SBD daemon) beside the testbed;
its log of group changes is kept under OUT/real/CASE-mptcp-sbd/sbd.log and its RTT samples in
samples.csv beside it (`pathpool detect --input` reads them). Finished runs are reused (delete
OUT to start over). --pacing registers the controllers with `pathpool kernel load --pacing`
(Linux's internal pacing on every subflow) and writes a table of its own (OUT out/kernel-paced,
beside the unpaced runs of --baseline out/kernel). --only runs just those cases (e.g.
`shared-olia`) and writes no table, so that a long measurement can be taken in parts;
--pacing --measured writes the paced table from the cases measured so far.
"""
import argparse
import csv
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time

from scripts.doc_table import write_between

CASES = [
    ("shared", ["uncoupled", "lia", "olia", "balia", "mptcp-sbd"]),
    ("disjoint", ["uncoupled", "olia", "mptcp-sbd"]),
]
BEGIN = "<!-- kernel-measure:begin (written by scripts/kernel_measure.py) -->"
END = "<!-- kernel-measure:end -->"
# --s0: S0's own files with background traffic and three subflows (scenarios/papers/ferlin2016,
# their MPTCP flow is "mptcp"), OLIA against MPTCP-SBD; a table of their own.
S0_CASES = [
    ("nsb-3", ["olia", "mptcp-sbd"]),
    ("sb-3", ["olia", "mptcp-sbd"]),
]
S0_BEGIN = "<!-- kernel-measure-s0:begin (written by scripts/kernel_measure.py --s0) -->"
S0_END = "<!-- kernel-measure-s0:end -->"
# --pacing: the coupled controllers with Linux's internal pacing on (docs/kernel.md, "Pacing").
PACED_CASES = [
    ("shared", ["lia", "olia", "balia", "mptcp-sbd"]),
    ("disjoint", ["olia", "mptcp-sbd"]),
]
PACED_BEGIN = "<!-- kernel-measure-paced:begin (written by scripts/kernel_measure.py --pacing) -->"
PACED_END = "<!-- kernel-measure-paced:end -->"


def scenario(args, case):
    """The file of a case and the name of its MPTCP flow."""
    if args.s0:
        return f"scenarios/papers/ferlin2016/{case}.toml", "mptcp"
    return f"scenarios/kernel/{case}.toml", "mp"


def run(cmd, **kw):
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, **kw)


def registered():
    with open("/proc/sys/net/ipv4/tcp_available_congestion_control") as f:
        return [n for n in f.read().split() if n.startswith("pp_")]


def real_runs(args, case, cc):
    """The testbed's K values of sum_ratio (reused when present)."""
    out = os.path.join(args.out, "real", f"{case}-{cc}")
    rep = os.path.join(out, "repeats.csv")
    if not os.path.exists(rep):
        os.makedirs(out, exist_ok=True)
        # The SBD daemon and the controllers' status are written beside the run, not into it:
        # the testbed writes only into a folder that holds nothing but an earlier run's files.
        # They join the run's files once the run is written (after a failed run they stay
        # beside it, and the next attempt starts them afresh).
        stage = out + ".kernel"
        shutil.rmtree(stage, ignore_errors=True)
        os.makedirs(stage)
        daemon, loaded, done = None, False, False
        try:
            if args.pacing or cc != "uncoupled":
                if not registered():
                    run([args.bin, "kernel", "load"] + (["--pacing"] if args.pacing else []))
                    loaded = True
                status = subprocess.run([args.bin, "kernel", "status"], capture_output=True, text=True).stdout
                if ("pacing: on" in status) != args.pacing:
                    sys.exit(f"the registered controllers have pacing {'off' if args.pacing else 'on'}: "
                             "`pathpool kernel unload` first")
            if cc == "mptcp-sbd":
                log = open(os.path.join(stage, "sbd.log"), "w")
                daemon = subprocess.Popen([args.bin, "kernel", "sbd", "--samples", os.path.join(stage, "samples.csv")],
                                          stdout=log, stderr=subprocess.STDOUT)
                time.sleep(0.5)
            path, flow = scenario(args, case)
            run([args.bin, "testbed", "run", path, "--out", out,
                 "--set", f"flows.{flow}.cc={cc}", "--repeat", str(args.repeat)])
            done = True
        finally:
            if daemon:
                daemon.send_signal(signal.SIGINT)
                daemon.wait(timeout=10)
            if registered():
                # The controllers' guard counters (docs/kernel.md), before unloading resets them.
                with open(os.path.join(stage, "status.txt"), "w") as f:
                    subprocess.run([args.bin, "kernel", "status"], stdout=f, stderr=subprocess.STDOUT)
            if loaded:
                run([args.bin, "kernel", "unload"])
            if done:
                for name in os.listdir(stage):
                    os.replace(os.path.join(stage, name), os.path.join(out, name))
                os.rmdir(stage)
    with open(rep) as f:
        for row in csv.reader(f):
            if row[0] == "sum_ratio":
                return [float(v) for v in row[1:] if v]
    sys.exit(f"{rep}: no sum_ratio row")


def distorted(summary):
    """The repeats of a testbed run whose controllers met a window above 65535 segments that
    they did not write (summary.json's `kernel_warnings`, each entry "repeat K: ..." under
    --repeat; docs/kernel.md, "A window of 1.5 billion segments"): their sum ratios are not
    the controllers'."""
    repeats = {w.split(":", 1)[0] if w.startswith("repeat ") else "the run" for w in summary.get("kernel_warnings", [])}
    return sorted(repeats)


def distorted_note(args, rows, out=None, label="Kernel runs"):
    """One line naming the kernel runs (under OUT/real, args.out by default) the controllers'
    absurd windows distorted, or saying there were none."""
    hit = []
    for case, cc in rows:
        path = os.path.join(out or args.out, "real", f"{case}-{cc}", "summary.json")
        if os.path.exists(path):
            with open(path) as f:
                hit += [f"{case} {cc} {r}" for r in distorted(json.load(f))]
    return (f"{label} during which the controllers met a window above 65535 segments that they did not "
            "write (their values are in the table; docs/kernel.md, \"A window of 1.5 billion segments\"): "
            + (", ".join(hit) if hit else "none") + ".")


def sim_runs(args, case, cc):
    values = []
    for seed in range(1, args.repeat + 1):
        out = os.path.join(args.out, "sim", f"{case}-{cc}-seed{seed}")
        summary = os.path.join(out, "summary.json")
        if not os.path.exists(summary):
            run([args.bin, "run", scenario(args, case)[0], "--out", out, "--cc", cc,
                 "--seed", str(seed)], stdout=subprocess.DEVNULL)
        with open(summary) as f:
            values.append(float(json.load(f)["sum_ratio"]))
    return values


def sbd_decisions(args, case):
    """(decisions that separate every subflow, that group them all together, all decisions) from
    the daemon's log."""
    path = os.path.join(args.out, "real", f"{case}-mptcp-sbd", "sbd.log")
    if not os.path.exists(path):
        return None
    sep = together = total = 0
    with open(path) as f:
        for line in f:
            if " decision " not in line:
                continue
            groups = [g.split(":")[1] for g in line.split() if g.startswith("sf") and ":" in g]
            if len(groups) >= 2:
                total += 1
                sep += len(set(groups)) == len(groups) and "0" not in groups
                together += len(set(groups)) == 1 and "0" not in groups
    return sep, together, total


def s0_table(args):
    """OLIA and MPTCP-SBD on S0's files: sum ratios and the daemon's decisions."""
    lines = [
        f"| scenario | controller | kernel: sum ratio, median [min, max] of {args.repeat} | "
        f"simulator: median [min, max] of {args.repeat} seeds | the daemon's decisions: all subflows apart / all together / all |",
        "|---|---|---|---|---|",
    ]
    shown = []
    for case, ccs in S0_CASES:
        if case not in args.s0_cases.split(","):
            continue
        for cc in ccs:
            real, sim = real_runs(args, case, cc), sim_runs(args, case, cc)
            d = sbd_decisions(args, case) if cc == "mptcp-sbd" else None
            lines.append(f"| {case} | {cc} | {fmt(real)} | {fmt(sim)} | {f'{d[0]} / {d[1]} / {d[2]}' if d else ''} |")
            shown.append((case, cc))
    lines.append("")
    lines.append(distorted_note(args, shown))
    return "\n".join(lines)


def paced_table(args):
    """The controllers with pacing beside the same runs without it (--baseline) and the simulator."""
    lines = [
        f"| scenario | controller | kernel, paced: sum ratio, median [min, max] of {args.repeat} | "
        f"kernel, not paced | simulator: median of {args.repeat} seeds |",
        "|---|---|---|---|---|",
    ]
    shown = []
    for case, ccs in PACED_CASES:
        for cc in ccs:
            if args.measured and not os.path.exists(os.path.join(args.out, "real", f"{case}-{cc}", "repeats.csv")):
                continue
            shown.append((case, cc))
            real, sim = real_runs(args, case, cc), sim_runs(args, case, cc)
            base = os.path.join(args.baseline, "real", f"{case}-{cc}", "repeats.csv")
            unpaced = ""
            if os.path.exists(base):
                with open(base) as f:
                    row = next(r for r in csv.reader(f) if r[0] == "sum_ratio")
                unpaced = fmt([float(v) for v in row[1:] if v])
            lines.append(f"| {case} | {cc} | {fmt(real)} | {unpaced} | {statistics.median(sim):.2f} |")
    lines.append("")
    lines.append(distorted_note(args, shown, label="Paced kernel runs"))
    lines.append("")
    lines.append(distorted_note(args, shown, out=args.baseline, label="Kernel runs not paced"))
    for case, _ in PACED_CASES:
        d = sbd_decisions(args, case)
        if d:
            lines.append("")
            lines.append(f"The SBD daemon's decisions with pacing, {case}: {d[0]} of {d[2]} separate "
                         f"the two subflows (all {args.repeat} runs).")
    return "\n".join(lines)


def fmt(values):
    return f"{statistics.median(values):.2f} [{min(values):.2f}, {max(values):.2f}]"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", default="target/release/pathpool")
    p.add_argument("--out", default="out/kernel")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--doc", default="docs/kernel.md")
    p.add_argument("--s0", action="store_true", help="S0's three-subflow files instead (OUT/s0 by default)")
    p.add_argument("--s0-cases", default=",".join(c for c, _ in S0_CASES), help="which of them (comma-separated)")
    p.add_argument("--pacing", action="store_true", help="the controllers with internal pacing (OUT/../kernel-paced)")
    p.add_argument("--baseline", default="out/kernel", help="--pacing: the unpaced runs to show beside")
    p.add_argument("--measured", action="store_true",
                   help="--pacing: write the table from the cases measured so far, running none")
    p.add_argument("--only", help="run only these cases (CASE-CC, comma-separated) and write no table")
    args = p.parse_args()
    if os.geteuid() != 0:
        sys.exit("kernel_measure.py needs root (the testbed and the BPF controllers)")
    if args.pacing and args.out == "out/kernel":
        args.out = "out/kernel-paced"
    if args.only:
        for item in args.only.split(","):
            case, _, cc = item.partition("-")
            if not cc:
                sys.exit(f"--only {item}: expected CASE-CC, e.g. shared-olia")
            real, sim = real_runs(args, case, cc), sim_runs(args, case, cc)
            print(f"{case} {cc}: kernel {fmt(real)}, simulator {fmt(sim)}")
            print(distorted_note(args, [(case, cc)]))
        return
    if args.pacing:
        table = paced_table(args)
        print(table)
        write_between(args.doc, PACED_BEGIN, PACED_END, table)
        return
    if args.s0:
        if args.out == "out/kernel":
            args.out = "out/kernel/s0"
        table = s0_table(args)
        print(table)
        write_between(args.doc, S0_BEGIN, S0_END, table)
        return
    rows, med = [], {}
    for case, ccs in CASES:
        for cc in ccs:
            real, sim = real_runs(args, case, cc), sim_runs(args, case, cc)
            med[(case, cc)] = (statistics.median(real), statistics.median(sim))
            rows.append((case, cc, real, sim))
    lines = [
        f"| scenario | controller | kernel: sum ratio, median [min, max] of {args.repeat} | "
        f"simulator: median [min, max] of {args.repeat} seeds | kernel / uncoupled | simulator / uncoupled |",
        "|---|---|---|---|---|---|",
    ]
    for case, cc, real, sim in rows:
        ur, us = med[(case, "uncoupled")]
        lines.append(f"| {case} | {cc} | {fmt(real)} | {fmt(sim)} | "
                     f"{statistics.median(real) / ur:.2f} | {statistics.median(sim) / us:.2f} |")
    lines.append("")
    lines.append(distorted_note(args, [(case, cc) for case, cc, _, _ in rows]))
    r_sbd, s_sbd = med[("disjoint", "mptcp-sbd")]
    r_olia, s_olia = med[("disjoint", "olia")]
    lines.append("")
    lines.append(f"Disjoint bottlenecks, MPTCP-SBD's sum ratio over OLIA's (medians): kernel "
                 f"{r_sbd / r_olia:.2f}, simulator {s_sbd / s_olia:.2f} (acceptance: at least 1.3).")
    for case, _ in CASES:
        d = sbd_decisions(args, case)
        if d:
            lines.append(f"The SBD daemon's decisions on the kernel, {case}: {d[0]} of {d[2]} separate "
                         f"the two subflows (all {args.repeat} runs).")
    table = "\n".join(lines)
    print(table)
    write_between(args.doc, BEGIN, END, table)


if __name__ == "__main__":
    main()
