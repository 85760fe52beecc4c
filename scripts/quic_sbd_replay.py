#!/usr/bin/env python3
"""Replays the shared bottleneck detector's inputs recorded by `pathpool quic run --cc olia-sbd`
(sbd_inputs.csv in each run folder) through `pathpool detect` with every candidate detector
configuration, and writes a table between markers of docs/quic.md: per candidate, the share of
decisions that couple the two paths on a shared bottleneck and that separate them on disjoint
ones (median [min, max] over the runs).

  python3 -m scripts.quic_sbd_replay --bin target/release/pathpool --runs out/quic-capture --doc docs/quic.md

A decision "couples" the paths unless it puts them in two different bottleneck groups (a path
in group 0 is coupled with every path, crates/quic/src/sbd.rs), and "separates" them when it
does. The replay is open loop: the traffic was shaped by the live detector's own decisions."""

import argparse, glob, json, os, statistics, subprocess, sys, tempfile

OFF = ["p_f=2", "p_mad=2", "p_s=3", "p_d=2"]  # thresholds no difference reaches (crates/quic/src/sbd.rs)
BEFORE = ["corr_split=1"]
CANDIDATES = [  # (label, detector, params)
    ("`mptcp-sbd` + correlation split (olia-sbd's detector before)", "mptcp-sbd", BEFORE),
    ("`mptcp-sbd` (S0 Table I)", "mptcp-sbd", []),
    ("`rfc8382` (RFC 8382 §2.2)", "rfc8382", []),
    ("`pathpool` (split + change detector)", "pathpool", []),
    ("before, p_mad 0.3", "mptcp-sbd", BEFORE + ["p_mad=0.3"]),
    ("before, var_est test off", "mptcp-sbd", BEFORE + ["p_mad=2"]),
    ("before, freq_est test off", "mptcp-sbd", BEFORE + ["p_f=2"]),
    ("before, skew_est test off", "mptcp-sbd", BEFORE + ["p_s=3"]),
    ("**chosen**: before, RFC 8382 split tests off (the correlation split alone)", "mptcp-sbd", BEFORE + OFF),
    ("chosen, corr_min 0.3", "mptcp-sbd", BEFORE + OFF + ["corr_min=0.3"]),
    ("chosen, corr_min 0.7", "mptcp-sbd", BEFORE + OFF + ["corr_min=0.7"]),
    ("`pathpool`, RFC 8382 split tests off", "pathpool", OFF),
]


def shares(groups):
    """(coupled, separated) shares of decisions, each a list of two group ids."""
    apart = sum(1 for a, b in groups if a != "0" and b != "0" and a != b)
    return 1 - apart / len(groups), apart / len(groups)


def replay(args, run, detector, params, tmp):
    out = os.path.join(tmp, "d")
    cmd = [args.bin, "detect", "--input", os.path.join(run, "sbd_inputs.csv"), "--detector", detector, "--out", out]
    for p in params:
        cmd += ["--param", p]
    subprocess.run(["rm", "-rf", out], check=True)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    rows = [l.strip().split(",") for l in open(os.path.join(out, "decisions.csv")).readlines()[1:] if l.strip()]
    by_time = {}
    for t, flow, g in rows:
        by_time.setdefault(t, {})[flow] = g
    return [(d.get("sf0", "0"), d.get("sf1", "0")) for _, d in sorted(by_time.items(), key=lambda kv: float(kv[0]))]


def live(run):
    rows = [l.strip().split(",") for l in open(os.path.join(run, "decisions.csv")).readlines()[1:] if l.strip()]
    return [tuple(r[1].split()[:2]) for r in rows]


def fmt(xs):
    return f"{statistics.median(xs):.2f} [{min(xs):.2f}, {max(xs):.2f}]"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bin", default="target/release/pathpool")
    p.add_argument("--runs", nargs="+", default=["out/quic-capture"], help="folders holding `pathpool quic run --cc olia-sbd` runs")
    p.add_argument("--doc", default=None)
    args = p.parse_args()
    runs = {"shared": [], "disjoint": []}
    lines = [f"Written by `python3 -m scripts.quic_sbd_replay --runs {' '.join(args.runs)} --doc docs/quic.md`.", "",
             "| detector | shared: decisions coupling the paths, median [range] per run; all runs | disjoint: decisions separating the paths, the same | decisions per run |",
             "|---|---|---|---|"]
    over_time = []
    for folder in args.runs:
        mine = {"shared": [], "disjoint": []}
        for s in sorted(glob.glob(os.path.join(folder, "*", "summary.json"))):
            d = os.path.dirname(s)
            topo = json.load(open(s)).get("topology")
            if topo in runs and os.path.exists(os.path.join(d, "sbd_inputs.csv")) and live(d):
                mine[topo].append(d)
        if not mine["shared"] or not mine["disjoint"]:
            sys.exit(f"{folder}: expected olia-sbd runs of both topologies with sbd_inputs.csv")
        cells = [f"{fmt([shares(live(d))[i] for d in mine[t]])}; {sum(round(shares(live(d))[i] * len(live(d))) for d in mine[t])} of {sum(len(live(d)) for d in mine[t])}" for i, t in ((0, "shared"), (1, "disjoint"))]
        n = [len(live(d)) for t in mine for d in mine[t]]
        lines.append(f"| live decisions of the {len(mine['shared'])} + {len(mine['disjoint'])} runs in {folder} (their own detector) | {cells[0]} | {cells[1]} | {min(n)}-{max(n)} |")
        for t in runs:
            runs[t] += mine[t]
            # Decisions over time: the k-th decision of every run, right or not.
            seqs = [[shares([g])[0 if t == "shared" else 1] == 1 for g in live(d)] for d in mine[t]]
            k_max = max(len(q) for q in seqs)
            cells = [f"{sum(q[k] for q in seqs if len(q) > k)}/{sum(1 for q in seqs if len(q) > k)}" for k in range(k_max)]
            over_time.append(f"| {folder}, {t} | " + " | ".join(cells) + " |" * (10 - k_max))
    with tempfile.TemporaryDirectory() as tmp:
        for label, det, params in CANDIDATES:
            right, count, pooled = {"shared": [], "disjoint": []}, [], {"shared": [0, 0], "disjoint": [0, 0]}
            for topo, dirs in runs.items():
                for d in dirs:
                    g = replay(args, d, det, params, tmp)
                    count.append(len(g))
                    if g:
                        share = shares(g)[0 if topo == "shared" else 1]
                        right[topo].append(share)
                        pooled[topo][0] += round(share * len(g))
                        pooled[topo][1] += len(g)
            cells = [f"{fmt(right[t])}; {pooled[t][0]} of {pooled[t][1]}" if right[t] else "-" for t in ("shared", "disjoint")]
            lines.append(f"| {label}, replayed on all | {cells[0]} | {cells[1]} | {min(count)}-{max(count)} |")
            print(lines[-1], file=sys.stderr, flush=True)
    lines += ["", "Live decisions over time (the k-th decision of every run, about 3.5 s apart: runs in which it was right / runs):", "",
              "| runs | " + " | ".join(f"{k}" for k in range(1, 11)) + " |", "|---|" + "---|" * 10] + over_time
    table = "\n".join(lines)
    print(table)
    if args.doc:
        begin, end = "<!-- quic_sbd_replay.py begin -->", "<!-- quic_sbd_replay.py end -->"
        text = open(args.doc).read()
        if begin not in text or end not in text:
            sys.exit(f"{args.doc}: markers '{begin}' and '{end}' not found")
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        open(args.doc, "w").write(head + begin + "\n" + table + "\n" + end + tail)


if __name__ == "__main__":
    main()
