#!/usr/bin/env python3
"""The lying-receiver experiments of docs/security.md: S0's SB-2 and SB-3 (subflows share one
bottleneck with a TCP flow) with an honest receiver and three liars, and NSB-2/NSB-3
(disjoint bottlenecks) with an honest receiver, each with the sender's check off and on,
over seeds 1..N; writes the table into docs/security.md between its markers (or prints it
with --print).

    python3 -m scripts.security_table [--bin target/release/pathpool] [--out out/security] [--seeds 10] [--jobs N] [--print]

Runs are kept in --out; a run whose summary.json exists is not run again.
"""

import argparse
import concurrent.futures
import json
import os
import statistics
import subprocess
import sys

from scripts.doc_table import write_between

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "security.md")
BEGIN = "<!-- table: python3 -m scripts.security_table -->"
END = "<!-- end of table -->"
LIARS = ["honest", "separate", "random", "flapping"]


def run(a, scenario, receiver, verify, seed):
    folder = os.path.join(a.out, f"{scenario}-{receiver}-{'verify' if verify else 'trust'}-s{seed}")
    summary = os.path.join(folder, "summary.json")
    if not os.path.exists(summary):
        path = os.path.join(ROOT, "scenarios", "papers", "ferlin2016", scenario + ".toml")
        # S0's detector, as the table was measured (without it a scenario runs `pathpool`).
        sets = ["--set", "flows.mptcp.sbd_detector=mptcp-sbd", "--set", f'flows.mptcp.sbd_receiver="{receiver}"', "--set", f"flows.mptcp.sbd_verify={'true' if verify else 'false'}"]
        subprocess.run([a.bin, "run", path, "--cc", "mptcp-sbd", "--seed", str(seed), "--out", folder, *sets], check=True, stdout=subprocess.DEVNULL)
    with open(summary) as f:
        return json.load(f)


def spread(values, fmt="{:.2f}"):
    return f"{fmt.format(statistics.median(values))} [{fmt.format(min(values))}, {fmt.format(max(values))}]"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "pathpool"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "security"))
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--print", action="store_true", help="print the table instead of writing docs/security.md")
    a = ap.parse_args()
    seeds = range(1, a.seeds + 1)
    plan = [(f"sb-{n}", r, v, s) for n in (2, 3) for r in LIARS for v in (False, True) for s in seeds]
    plan += [(f"nsb-{n}", "honest", v, s) for n in (2, 3) for v in (False, True) for s in seeds]
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        results = dict(zip(plan, pool.map(lambda p: run(a, *p), plan)))

    def values(scenario, receiver, verify, key):
        return [results[(scenario, receiver, verify, s)][key] for s in seeds]

    lines = [
        f"Medians over seeds 1-{a.seeds} [min, max]; written by `python3 -m scripts.security_table --seeds {a.seeds}`.\n",
        "\n",
        "Shared bottleneck (SB-n: the subflows and one TCP flow share one 20 Mb/s bottleneck): the\n",
        "MPTCP connection's rate over the TCP flow's (`sum_ratio`; 1 is fair, n is uncoupled),\n",
        "and the liar's gain: its median sum ratio over the honest receiver's with the same sender.\n",
        "\n",
        "| case | receiver | trusting sender: sum ratio | gain over honest | checking sender: sum ratio | gain over honest |\n",
        "|---|---|---|---|---|---|\n",
    ]
    for n in (2, 3):
        sc = f"sb-{n}"
        honest = {v: statistics.median(values(sc, "honest", v, "sum_ratio")) for v in (False, True)}
        for r in LIARS:
            cells = []
            for v in (False, True):
                vals = values(sc, r, v, "sum_ratio")
                gain = statistics.median(vals) / honest[v]
                cells += [spread(vals), "-" if r == "honest" else f"{100 * (gain - 1):+.1f} %"]
            lines.append(f"| SB-{n} | {r} | " + " | ".join(cells) + " |\n")
    lines += [
        "\n",
        "Disjoint bottlenecks (NSB-n: one subflow and one TCP flow on each of n bottlenecks), honest\n",
        "receiver: the connection's throughput, and what the check costs.\n",
        "\n",
        "| case | trusting sender: Mb/s | checking sender: Mb/s | checking / trusting (medians) |\n",
        "|---|---|---|---|\n",
    ]
    for n in (2, 3):
        sc = f"nsb-{n}"
        t, c = values(sc, "honest", False, "mptcp_mbps"), values(sc, "honest", True, "mptcp_mbps")
        lines.append(f"| NSB-{n} | {spread(t)} | {spread(c)} | {statistics.median(c) / statistics.median(t):.3f} |\n")
    table = "".join(lines)
    if a.print:
        sys.stdout.write(table)
        return 0
    write_between(DOC, BEGIN, END, table.rstrip("\n"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
