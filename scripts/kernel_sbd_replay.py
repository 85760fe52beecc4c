#!/usr/bin/env python3
"""Replays the SBD daemon's recorded RTT samples (`pathpool kernel sbd --samples FILE`, kept by
scripts/kernel_measure.py as samples.csv beside each MPTCP-SBD run) through `pathpool detect`
with several detector settings, one connection (token) at a time, and counts the decisions
that put every subflow apart, all together, or some in group 0 (docs/kernel.md, "Which
detector the daemon runs").

    python3 -m scripts.kernel_sbd_replay SAMPLES.csv [SAMPLES.csv ...] [--bin target/release/pathpool]
                                         [--out out/kernel-sbd-replay]

The daemon's samples are round-trip times; they are handed to the one-way-delay detectors as
the delay itself (send time = ack time - RTT, receive time = ack time), which is what the
daemon does.
"""
import argparse
import csv
import os
import subprocess
import sys
from collections import defaultdict

# (label, detect arguments): the daemon's detector so far, and the simulator's default preset.
SETTINGS = [
    ("mptcp-sbd + corr_split (the daemon before)", ["--detector", "mptcp-sbd", "--param", "corr_split=1"]),
    ("pathpool (split + change detector)", ["--detector", "pathpool"]),
]


def split_by_token(path):
    """{token: [(flow, ack_us, rtt_us)]} from one samples file."""
    conns = defaultdict(list)
    with open(path) as f:
        r = csv.reader(f)
        header = next(r, None)
        if header != ["flow", "ack_time_us", "rtt_us"]:
            sys.exit(f"{path}: expected the header flow,ack_time_us,rtt_us, got {header}")
        for i, row in enumerate(r, start=2):
            try:
                flow, ack, rtt = row[0], int(row[1]), int(row[2])
            except (ValueError, IndexError):
                sys.exit(f"{path}:{i}: expected flow,ack_time_us,rtt_us with whole microseconds, got {row}")
            conns[flow.split(".")[0]].append((flow, ack, rtt))
    return conns


def count(decisions):
    """(all apart, all together, some in group 0, decisions) from detect's decisions.csv."""
    by_time = defaultdict(list)
    with open(decisions) as f:
        for row in csv.DictReader(f):
            by_time[row["time_s"]].append(row["group"])
    apart = together = zero = 0
    for groups in by_time.values():
        if "0" in groups:
            zero += 1
        elif len(set(groups)) == len(groups):
            apart += 1
        elif len(set(groups)) == 1:
            together += 1
    return apart, together, zero, len(by_time)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("samples", nargs="+")
    p.add_argument("--bin", default="target/release/pathpool")
    p.add_argument("--out", default="out/kernel-sbd-replay")
    args = p.parse_args()
    totals = defaultdict(lambda: [0, 0, 0, 0])
    for path in args.samples:
        for token, rows in sorted(split_by_token(path).items()):
            if len({r[0] for r in rows}) < 2:
                continue
            tag = f"{os.path.basename(os.path.dirname(os.path.abspath(path)))}-{token}"
            os.makedirs(args.out, exist_ok=True)
            oneway = os.path.join(args.out, f"{tag}.csv")
            with open(oneway, "w") as f:
                f.write("flow,send_time_us,recv_time_us\n")
                for flow, ack, rtt in rows:
                    f.write(f"{flow},{ack - rtt},{ack}\n")
            for label, extra in SETTINGS:
                out = os.path.join(args.out, f"{tag}-{extra[1]}")
                subprocess.run([args.bin, "detect", "--input", oneway, "--out", out] + extra,
                               check=True, stdout=subprocess.DEVNULL)
                c = count(os.path.join(out, "decisions.csv"))
                print(f"{tag}: {label}: apart {c[0]}, together {c[1]}, group 0 {c[2]}, of {c[3]}")
                key = (os.path.basename(os.path.dirname(os.path.abspath(path))), label)
                totals[key] = [a + b for a, b in zip(totals[key], c)]
    print("| run | detector | all apart | all together | some in group 0 | decisions |")
    print("|---|---|---|---|---|---|")
    for (run, label), c in sorted(totals.items()):
        print(f"| {run} | {label} | {c[0]} | {c[1]} | {c[2]} | {c[3]} |")


if __name__ == "__main__":
    main()
