#!/usr/bin/env python3
"""The simulator's side of docs/fidelity-notes.md, "The connection's step": the shared case with its
two subflows in one connection, and split into two one-subflow connections
(scenarios/examples/one-subflow-connections.toml), TCP acknowledging every segment, over
seeds 1..N, with every sender's `send_buffer` "linux" (the suite's) and "linux-6.18" (with
the next-ACK rule for a partial skb); per flow, the median of its loss recoveries
(summary.json's `fast_retransmits`), and MPTCP / TCP. Writes the table into docs/fidelity-notes.md between its markers (or prints it
with --print).

    python3 -m scripts.connection_step [--bin target/release/pathpool] [--out out/connection-step] [--seeds 10] [--jobs N] [--print]

Runs are kept in --out; a run whose summary.json exists is not run again.
"""

import concurrent.futures
import json
import os
import statistics
import subprocess

from scripts.doc_table import emit, table_arguments

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "fidelity-notes.md")
BEGIN = "<!-- connection step: python3 -m scripts.connection_step -->"
END = "<!-- end of connection step -->"
CASES = [
    ("one connection", "scenarios/fidelity/mptcp-shared.toml"),
    ("two connections", "scenarios/examples/one-subflow-connections.toml"),
]
SEND_BUFFERS = ["linux", "linux-6.18"]


def run(a, name, path, send_buffer, seed):
    folder = os.path.join(a.out, f"{name.replace(' ', '-')}-{send_buffer}-s{seed}")
    summary = os.path.join(folder, "summary.json")
    if not os.path.exists(summary):
        sets = ["--set", "flows.tcp.delayed_ack=false", "--set", f'flows.*.send_buffer="{send_buffer}"']
        cmd = [a.bin, "run", os.path.join(ROOT, path), "--seed", str(seed), *sets, "--out", folder]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(summary) as f:
        return json.load(f)


def recoveries(summaries):
    """Median recoveries per flow, the TCP flow last: {flow: median}."""
    keys = sorted(k for k in summaries[0] if k.startswith("flow.") and k.endswith(".fast_retransmits"))
    keys.sort(key=lambda k: k == "flow.tcp.fast_retransmits")
    return {k[len("flow."):-len(".fast_retransmits")]: statistics.median(s[k] for s in summaries) for k in keys}


def main():
    a = table_arguments(ROOT, "connection-step", 10, "docs/fidelity-notes.md").parse_args()
    seeds = range(1, a.seeds + 1)
    plan = [(name, path, b, s) for name, path in CASES for b in SEND_BUFFERS for s in seeds]
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        results = dict(zip(plan, pool.map(lambda p: run(a, *p), plan)))
    lines = [
        f"| simulator, seeds 1-{a.seeds} | `send_buffer` | MPTCP / TCP: median [min, max] | recoveries (medians): flow, ..., TCP |",
        "|---|---|---|---|",
    ]
    for name, path in CASES:
        for b in SEND_BUFFERS:
            summaries = [results[(name, path, b, s)] for s in seeds]
            ratios = [s["mptcp_mbps"] / s["tcp_mbps"] for s in summaries]
            per_flow = ", ".join(f"{flow} {n:g}" for flow, n in recoveries(summaries).items())
            lines.append(f"| {name} | \"{b}\" | {statistics.median(ratios):.3f} [{min(ratios):.3f}, {max(ratios):.3f}] | {per_flow} |")
    lines.append("")
    lines.append(f"Written by `python3 -m scripts.connection_step --seeds {a.seeds}` (60 s runs, the first 10 s left out).")
    emit("\n".join(lines), a.print, DOC, BEGIN, END)


if __name__ == "__main__":
    main()
