#!/usr/bin/env python3
"""The getting-started example (scenarios/examples/mptcp-shared-bottleneck.toml) under both
host models: LIA / TCP, two identical Reno flows on its bottleneck (the MPTCP connection replaced by a
second Reno flow on the TCP flow's path), and a Reno flow on the first subflow's path over one
on the TCP flow's (base RTTs 120 us apart), at 20, 50 and 100 Mb/s, seeds 1-5; medians
[min, max], and how many runs warned of phase lock.

    python3 -m scripts.host_model_table --pathpool target/release/pathpool [--doc docs/scenarios.md]

With --doc, the table replaces the lines between `<!-- host-model table: begin -->` and
`<!-- host-model table: end -->` in that file.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

EXAMPLE = "scenarios/examples/mptcp-shared-bottleneck.toml"
RATES = [20, 50, 100]
SEEDS = [1, 2, 3, 4, 5]
MODELS = ["linux-6.18", "ideal"]


def reno_pair(text, route):
    """r1 on `route`, r2 on the TCP flow's path, over the example's links."""
    links = text[: text.index("[[flows]]")]
    return links + (
        f'\n[[flows]]\nname = "r1"\nroute = {route}\n'
        '\n[[flows]]\nname = "r2"\nroute = ["tcp_client", "left", "right", "server"]\n'
    )


def two_reno(text):
    return reno_pair(text, '["tcp_client", "left", "right", "server"]')


def run(pathpool, scenario, sets, cc=None):
    with tempfile.TemporaryDirectory() as out:
        cmd = [pathpool, "run", scenario, "--out", out] + [a for s in sets for a in ("--set", s)]
        if cc:
            cmd += ["--cc", cc]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(out, "summary.json")) as f:
            return json.load(f)


def spread(values):
    return f"{statistics.median(values):.2f} [{min(values):.2f}, {max(values):.2f}]"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pathpool", default="target/release/pathpool")
    ap.add_argument("--doc")
    a = ap.parse_args()
    with open(EXAMPLE) as f:
        text = f.read()
    with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
        f.write(two_reno(text))
        reno_file = f.name
    with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
        f.write(reno_pair(text, '["client", "a", "left", "right", "server"]'))
        path_file = f.name
    rows = []
    try:
        for model in MODELS:
            for rate in RATES:
                base = [f"simulation.hosts={model}", f"links.bottleneck.rate={rate}Mbps"]
                cells = []
                warned = 0
                lia = []
                for seed in SEEDS:
                    s = run(a.pathpool, EXAMPLE, base + [f"simulation.seed={seed}"], cc="lia")
                    lia.append(s["sum_ratio"])
                    warned += bool(s.get("phase_lock_warnings"))
                cells.append(spread(lia))
                for scenario, queue in [(reno_file, "droptail"), (reno_file, "random-tail-drop"), (path_file, "random-tail-drop")]:
                    ratios = []
                    for seed in SEEDS:
                        s = run(a.pathpool, scenario, base + [f"simulation.seed={seed}", f"links.bottleneck.queue={queue}"])
                        ratios.append(s["flow.r1.throughput_mbps"] / s["flow.r2.throughput_mbps"])
                        warned += bool(s.get("phase_lock_warnings"))
                    cells.append(spread(ratios))
                rows.append(f"| {model} | {rate} Mb/s | " + " | ".join(cells) + f" | {warned} of {4 * len(SEEDS)} |")
                print(rows[-1], file=sys.stderr)
    finally:
        os.unlink(reno_file)
        os.unlink(path_file)
    table = "\n".join(
        [
            "`python3 -m scripts.host_model_table --pathpool target/release/pathpool --doc docs/scenarios.md`",
            "",
            "| hosts | bottleneck | LIA / TCP | identical Reno flows, drop-tail | identical Reno flows, random-tail-drop | Reno on the subflow's path / on TCP's | runs with a phase-lock warning |",
            "|---|---|---|---|---|---|---|",
        ]
        + rows
    )
    print(table)
    if a.doc:
        with open(a.doc) as f:
            doc = f.read()
        begin, end = "<!-- host-model table: begin -->", "<!-- host-model table: end -->"
        i, j = doc.index(begin) + len(begin), doc.index(end)
        with open(a.doc, "w") as f:
            f.write(doc[:i] + "\n" + table + "\n" + doc[j:])


if __name__ == "__main__":
    main()
