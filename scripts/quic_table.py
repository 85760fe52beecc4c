#!/usr/bin/env python3
"""Runs docs/quic.md's measurements and writes a table between markers of docs/quic.md: per
case the median and range over the repeats. Without --netns: `pathpool quic run` (loopback, no
root), shared and disjoint bottlenecks; with --netns: `pathpool quic netns` (root, two network
namespaces joined by shaped links), shared and disjoint bottlenecks.

  python3 -m scripts.quic_table --bin target/release/pathpool --out out/quic --repeat 3 --doc docs/quic.md
  sudo python3 -m scripts.quic_table --netns --bin target/release/pathpool --out out/quic-netns --repeat 3 --doc docs/quic.md

Runs already in --out are reused (delete the folder to measure again); --only TOPO/CC runs one
case (to keep each real-time command short), and a last call without it writes the table. The
1-minute load average before each run is kept in its folder (load.txt) and summarised under
the table."""

import argparse, json, os, statistics, subprocess, sys

CASES = [  # (topology, cc)
    ("shared", "uncoupled"), ("shared", "lia"), ("shared", "olia"), ("shared", "olia-sbd"),
    ("disjoint", "uncoupled"), ("disjoint", "lia"), ("disjoint", "olia"), ("disjoint", "olia-sbd"),
]
NETNS_CASES = [("shared", "uncoupled"), ("shared", "olia"), ("shared", "olia-sbd"),
               ("disjoint", "uncoupled"), ("disjoint", "olia"), ("disjoint", "olia-sbd")]


def markers(netns):
    tag = "quic_table.py netns" if netns else "quic_table.py"
    return f"<!-- {tag} begin -->", f"<!-- {tag} end -->"


def run(args, topo, cc, k):
    out = os.path.join(args.out, f"{topo}-{cc}-{k}")
    path = os.path.join(out, "summary.json")
    if not os.path.exists(path):
        how = ["netns"] if args.netns else ["run"]
        cmd = [args.bin, "quic", *how, "--topology", topo, "--cc", cc, "--duration", f"{args.duration:g}s",
               "--warmup", f"{args.warmup:g}s", "--out", out]
        print(" ".join(cmd), file=sys.stderr, flush=True)
        load = os.getloadavg()[0]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(out, "load.txt"), "w") as f:
            f.write(f"{load:.2f}\n")
    with open(path) as f:
        return json.load(f), out


def decisions(out):
    """Shares of the detector's decisions that group both paths together, and that put them in
    two different bottleneck groups (neither 0, "not bottlenecked")."""
    rows = [l.strip().split(",") for l in open(os.path.join(out, "decisions.csv")).readlines()[1:]]
    groups = [r[1].split() for r in rows if r and len(r) > 1]
    if not groups:
        return None
    shared = sum(1 for g in groups if g[0] != "0" and g[0] == g[1])
    apart = sum(1 for g in groups if "0" not in g[:2] and g[0] != g[1])
    return shared / len(groups), len(groups), apart / len(groups)


def fmt(xs, digits=2):
    xs = [x for x in xs if x is not None]
    if not xs:
        return "-"
    return f"{statistics.median(xs):.{digits}f} [{min(xs):.{digits}f}, {max(xs):.{digits}f}]"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bin", default="target/release/pathpool")
    p.add_argument("--out", default="out/quic")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--duration", type=float, default=30.0)
    p.add_argument("--warmup", type=float, default=10.0)
    p.add_argument("--doc", default=None)
    p.add_argument("--netns", action="store_true", help="`pathpool quic netns` (root)")
    p.add_argument("--only", default=None, metavar="TOPO/CC", help="run this case only; no table")
    args = p.parse_args()
    cases = NETNS_CASES if args.netns else CASES
    if args.only:
        case = tuple(args.only.split("/", 1))
        if case not in cases:
            sys.exit(f"--only: expected one of {', '.join(t + '/' + c for t, c in cases)}, got '{args.only}'")
        for k in range(1, args.repeat + 1):
            run(args, *case, k)
        return
    loads = []
    lines = ["| bottlenecks | multipath cc | multipath / single-path flow | multipath Mb/s | single-path Mb/s (mean) | decisions grouping both paths | decisions separating the paths | ACK delay, mean µs (share > 1 ms) | utilization |",
             "|---|---|---|---|---|---|---|---|---|"]
    for topo, cc in cases:
        ratio, mp, sp, grouped, apart, util, ackd, ack1 = [], [], [], [], [], [], [], []
        for k in range(1, args.repeat + 1):
            s, out = run(args, topo, cc, k)
            if os.path.exists(os.path.join(out, "load.txt")):
                loads.append(float(open(os.path.join(out, "load.txt")).read()))
            ratio.append(s.get("quic.mp_over_single_path"))
            mp.append(s["flow.mpquic.throughput_mbps"])
            sps = [v for key, v in s.items() if key.startswith("flow.sp") and key.endswith(".throughput_mbps")]
            sp.append(sum(sps) / len(sps))
            utils = [v for key, v in s.items() if key.startswith("link.") and key.endswith(".utilization")]
            util.append(sum(utils) / len(utils))
            ackd.append(s.get("flow.mpquic.ack_delay_mean_us"))
            ack1.append(s.get("flow.mpquic.ack_delay_over_1ms_share"))
            if cc == "olia-sbd":
                d = decisions(out)
                grouped.append(d[0] if d else None)
                apart.append(d[2] if d else None)
        g, a = (fmt(grouped), fmt(apart)) if cc == "olia-sbd" else ("", "")
        ack = f"{fmt(ackd, 0)} ({fmt(ack1, 3)})"
        lines.append(f"| {topo} | {cc} | {fmt(ratio)} | {fmt(mp)} | {fmt(sp)} | {g} | {a} | {ack} | {fmt(util)} |")
    if loads:
        lines += ["", f"1-minute load average as each run started: {min(loads):.1f}-{max(loads):.1f} (median {statistics.median(loads):.1f})."]
    table = "\n".join(lines)
    print(table)
    if args.doc:
        text = open(args.doc).read()
        begin, end = markers(args.netns)
        a, b = text.index(begin) + len(begin), text.index(end)
        open(args.doc, "w").write(text[:a] + "\n" + table + "\n" + text[b:])


if __name__ == "__main__":
    main()
