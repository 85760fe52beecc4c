#!/usr/bin/env python3
"""Coupling per bottleneck group on overlapping paths (docs/sbd.md, "Beyond partitions:
pairwise sharing"): `mptcp-sbd-pairwise` beside today's partition-only `mptcp-sbd`, OLIA, LIA
and uncoupled Reno, over seeds 1..N, in the simulator. Writes the table into docs/sbd.md
between its markers (or prints it with --print).

    python3 -m scripts.sbd_pairwise [--bin target/release/pathpool] [--out out/sbd-pairwise] [--seeds 5] [--jobs N] [--print]

Two scenarios:
* zongor2019: scenarios/papers/zongor2019/overlap.toml ([S4]: three paths, each pair sharing
  one link; LP optimum 90 Mb/s) with random tail drop on the three shared links, so that seeds
  differ (with drop-tail every seed gives the same run). Total throughput after the 10 s warm-up.
* overlap-tcp: scenarios/overlap/overlap-tcp.toml, the same paths with one Reno TCP flow on
  each shared link. The multipath connection's throughput, and what the three TCP flows get
  together. The reference for "taking no more than one TCP connection on its best path": the
  same scenario with the multipath connection replaced by one TCP connection (a one-subflow
  connection, uncoupled Reno, which is TCP) on each of the three paths; its best path is the
  one where that connection gets most (median over seeds).
* SB-2: S0's shared bottleneck with two subflows and TCP (scenarios/papers/ferlin2016/sb-2.toml),
  where a pairwise scheme must stay fair: the multipath sum ratio to TCP (target within
  [0.9, 1.1]).
Runs are kept in --out; a run whose summary.json exists is not run again.
"""

import concurrent.futures
import json
import os
import re
import statistics
import subprocess

from scripts.doc_table import emit, table_arguments

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "sbd.md")
BEGIN = "<!-- table: python3 -m scripts.sbd_pairwise -->"
END = "<!-- end of sbd_pairwise table -->"
SCHEMES = ["mptcp-sbd-pairwise", "mptcp-sbd", "olia", "lia", "uncoupled"]
ZONGOR = os.path.join(ROOT, "scenarios", "papers", "zongor2019", "overlap.toml")
OVERLAP = os.path.join(ROOT, "scenarios", "overlap", "overlap-tcp.toml")
RTD = [x for link in "ABC" for x in ("--set", f"links.{link}.queue=random-tail-drop")]
SB2 = os.path.join(ROOT, "scenarios", "papers", "ferlin2016", "sb-2.toml")
LP_OPTIMUM = 90.0


def single_path_file(a, k):
    """overlap-tcp.toml with the multipath connection on path k only."""
    path = os.path.join(a.out, f"overlap-tcp-path{k + 1}.toml")
    with open(OVERLAP) as f:
        text = f.read()
    routes = re.search(r"subflows = \[\n(.*?)\n\]", text, re.S)
    lines = [l for l in routes.group(1).split("\n") if l.strip().startswith("[")]
    one = "subflows = [\n" + lines[k] + "\n]"
    text = text[: routes.start()] + one + text[routes.end():]
    os.makedirs(a.out, exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return path


def run(a, name, path, cc, seed, extra=()):
    folder = os.path.join(a.out, f"{name}-{cc}-s{seed}")
    summary = os.path.join(folder, "summary.json")
    if not os.path.exists(summary):
        cmd = [a.bin, "run", path, "--cc", cc, "--seed", str(seed), "--out", folder, *extra]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(summary) as f:
        s = json.load(f)
    if name == "sb-2":
        return s["sum_ratio"], None
    tcp = sum(v for k, v in s.items() if re.fullmatch(r"flow\.tcp[ABC]\.throughput_mbps", k))
    return s["mptcp.mptcp.throughput_mbps"], tcp


def cell(xs):
    return f"{statistics.median(xs):.1f} [{min(xs):.1f}, {max(xs):.1f}]"


def main():
    a = table_arguments(ROOT, "sbd-pairwise", 5, "docs/sbd.md").parse_args()
    seeds = list(range(1, a.seeds + 1))
    singles = [single_path_file(a, k) for k in range(3)]
    plan = [("zongor", ZONGOR, cc, s, tuple(RTD)) for cc in SCHEMES for s in seeds]
    plan += [("overlap-tcp", OVERLAP, cc, s, ()) for cc in SCHEMES for s in seeds]
    plan += [("sb-2", SB2, cc, s, ()) for cc in SCHEMES for s in seeds]
    plan += [(f"overlap-tcp-path{k + 1}", singles[k], "uncoupled", s, ()) for k in range(3) for s in seeds]
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        results = dict(zip([p[:4:2] + (p[3],) for p in plan], pool.map(lambda p: run(a, *p), plan)))
    # Best single path: the most throughput for the one TCP connection (median over seeds).
    best = max(range(3), key=lambda k: statistics.median(results[(f"overlap-tcp-path{k + 1}", "uncoupled", s)][0] for s in seeds))
    ref = [results[(f"overlap-tcp-path{best + 1}", "uncoupled", s)] for s in seeds]
    ref_tcp = statistics.median(t for _, t in ref)
    olia_mp = statistics.median(results[("overlap-tcp", "olia", s)][0] for s in seeds)
    lines = [
        f"Medians [min, max] over seeds 1-{a.seeds}; written by `python3 -m scripts.sbd_pairwise --seeds {a.seeds}` "
        f"(`make sbd-pairwise`). zongor2019 with random tail drop on its shared links (LP optimum {LP_OPTIMUM:.0f}, "
        f"target ≥ {0.95 * LP_OPTIMUM:.1f}). overlap-tcp: the multipath connection's throughput and the three TCP flows' "
        f"total; one TCP connection on its best path (path {best + 1}) gets {cell([m for m, _ in ref])} Mb/s and leaves "
        f"the TCP flows {cell([t for _, t in ref])} Mb/s.\n",
        "\n",
        "| scheme | zongor2019 total (Mb/s) | over the LP optimum | overlap-tcp: multipath (Mb/s) | over OLIA's | overlap-tcp: TCP flows (Mb/s) | over what one TCP on its best path leaves them | SB-2: multipath / TCP |\n",
        "|---|---|---|---|---|---|---|---|\n",
    ]
    for cc in SCHEMES:
        z = [results[("zongor", cc, s)][0] for s in seeds]
        mp = [results[("overlap-tcp", cc, s)][0] for s in seeds]
        tcp = [results[("overlap-tcp", cc, s)][1] for s in seeds]
        sb = [results[("sb-2", cc, s)][0] for s in seeds]
        name = {"mptcp-sbd-pairwise": "**`mptcp-sbd-pairwise`**", "mptcp-sbd": "`mptcp-sbd` (partitions, `pathpool` detector)"}.get(cc, f"`{cc}`")
        lines.append(
            f"| {name} | {cell(z)} | {statistics.median(z) / LP_OPTIMUM:.3f} | {cell(mp)} | {statistics.median(mp) / olia_mp:.2f} "
            f"| {cell(tcp)} | {statistics.median(tcp) / ref_tcp:.3f} | {statistics.median(sb):.2f} [{min(sb):.2f}, {max(sb):.2f}] |\n"
        )
    emit("".join(lines).rstrip("\n"), a.print, DOC, BEGIN, END)


if __name__ == "__main__":
    main()
