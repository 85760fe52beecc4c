#!/usr/bin/env python3
"""The lying-receiver evaluation of docs/security.md ("Beyond S0's scenarios"): every liar
(`sbd_receiver`) against the honest receiver, the sender's check on (`sbd_verify = true`),
over a design of shared-bottleneck setups under both host models, and the check's cost to an
honest receiver on disjoint bottlenecks (S0's NSB-2..5 and the design's setups laid out
disjoint). Writes the table into docs/security.md between its markers (or prints it with
--print) and exits 1 when a bound is broken.

    python3 -m scripts.liar_table [--bin target/release/pathpool] [--out out/liar] [--seeds 5] [--jobs N] [--print]
                                  [--max-rate MBPS] [--noise]

With --noise each row also gets the bound's resolution: the same receiver and sender as the
row's reference (the honest receiver with the check on; on disjoint bottlenecks the check
off) over the next seeds (6-10 for 5) against seeds 1-5. A liar that changes nothing but the
run's course still moves the median that much, since the runs diverge from the first
interval they are coupled differently.

The design (`design()`): six two-level factors (rate 10/100 Mb/s, RTT 10/100 ms, buffer
0.25/2 BDP, 2/5 subflows, 1/3 TCP flows, drop-tail/RED) in a 2^(6-2) fractional factorial
of resolution IV (16 corners: tcp = rate*rtt*buffer, queue = rtt*buffer*subflows in +-1
coding), the centre, and the setup of docs/security.md's "Why the check missed sharing" (20 Mb/s, 20 ms, 1 BDP, 2 subflows, 1 TCP
flow, drop-tail); each under both host models. Runs are kept in --out; a run whose
summary.json exists is not run again.
"""

import concurrent.futures
import itertools
import json
import os
import statistics
import subprocess
import sys

from scripts import liar_scenarios as ls
from scripts.doc_table import table_arguments, write_between

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "security.md")
BEGIN = "<!-- liar table: python3 -m scripts.liar_table -->"
END = "<!-- end of liar table -->"
BEGIN_PARTIAL = "<!-- partial liar table: python3 -m scripts.liar_table --max-rate -->"
END_PARTIAL = "<!-- end of partial liar table -->"
LIARS = ["separate", "random", "flapping"]
HOSTS = ["linux-6.18", "ideal"]
DURATION_S, WARMUP_S = 140, 20  # as S0 (and docs/security.md's S0 table): 120 s measured
GAIN_BOUND, COST_BOUND = 1.05, 0.95

LEVELS = dict(rate_mbps=(10, 100), rtt_ms=(10, 100), buffer_bdp=(0.25, 2), subflows=(2, 5), tcp=(1, 3), queue=("droptail", "red"))
CENTRE = dict(rate_mbps=30, rtt_ms=30, buffer_bdp=1, subflows=3, tcp=2, queue="droptail")
FIRST = dict(rate_mbps=20, rtt_ms=20, buffer_bdp=1, subflows=2, tcp=1, queue="droptail")


def design():
    """The setups (without layout and hosts), corners first."""
    out = []
    for a, b, c, d in itertools.product((-1, 1), repeat=4):
        e, f = a * b * c, b * c * d
        code = dict(rate_mbps=a, rtt_ms=b, buffer_bdp=c, subflows=d, tcp=e, queue=f)
        out.append({k: LEVELS[k][(v + 1) // 2] for k, v in code.items()})
    return out + [CENTRE, FIRST]


def run(a, setup, receiver, verify, seed):
    tag = f"{key(setup)}-{receiver}-{'verify' if verify else 'trust'}-s{seed}"
    folder = os.path.join(a.out, tag)
    summary = os.path.join(folder, "summary.json")
    if not os.path.exists(summary):
        if "file" in setup:
            path = setup["file"]
            sets = ["--set", f"simulation.hosts={setup['hosts']}"]
        else:
            path = os.path.join(a.out, "scenarios", ls.name(setup) + ".toml")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            # Runs of one setup go on at once: each writes its own copy and renames it into
            # place, so none reads a half-written file.
            mine = f"{path}.{tag}"
            with open(mine, "w") as f:
                f.write(ls.toml(setup, DURATION_S, WARMUP_S))
            os.replace(mine, path)
            sets = []
        # S0's detector at the receiver, as the S0 table above (`sbd_detector`).
        sets += ["--set", "flows.mptcp.sbd_detector=mptcp-sbd", "--set", f'flows.mptcp.sbd_receiver="{receiver}"',
                 "--set", f"flows.mptcp.sbd_verify={'true' if verify else 'false'}"]
        subprocess.run([a.bin, "run", path, "--cc", "mptcp-sbd", "--seed", str(seed), "--out", folder, *sets],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(summary) as f:
        return json.load(f)


def label(s):
    if "file" in s:
        return s["name"]
    return (f"{s['rate_mbps']:g} Mb/s, {s['rtt_ms']:g} ms, {s['buffer_bdp']:g} BDP, {s['subflows']} sf, "
            f"{s['tcp']} TCP, {'RED' if s['queue'] == 'red' else 'drop-tail'}")


def main():
    ap = table_arguments(ROOT, "liar", 5, "docs/security.md")
    ap.add_argument("--max-rate", type=float, help="only the design's setups up to this rate in Mb/s (a partial "
                    "table, written between its own markers: the 100 Mb/s setups take most of the full run's time)")
    ap.add_argument("--noise", action="store_true", help="add each row's change over the next seeds (the bound's resolution)")
    a = ap.parse_args()
    seeds = range(1, a.seeds + 1)
    others = range(a.seeds + 1, 2 * a.seeds + 1) if a.noise else range(0)
    setups = [s for s in design() if a.max_rate is None or s["rate_mbps"] <= a.max_rate]
    shared = [dict(s, layout="shared", hosts=h) for s in setups for h in HOSTS]
    nsb = [dict(file=os.path.join(ROOT, "scenarios", "papers", "ferlin2016", f"nsb-{n}.toml"), name=f"S0's NSB-{n}", layout="disjoint", hosts=h)
           for n in (2, 3, 4, 5) for h in HOSTS]
    for s in nsb:
        s["key"] = f"{os.path.basename(s['file'])[:-5]}-{s['hosts']}"
    disjoint = nsb + [dict(s, layout="disjoint", hosts=h) for s in setups for h in HOSTS]
    plan = [(s, r, True, k) for s in shared for r in ["honest", *LIARS] for k in seeds]
    plan += [(s, "honest", v, k) for s in disjoint for v in (False, True) for k in seeds]
    plan += [(s, "honest", True, k) for s in shared for k in others]
    plan += [(s, "honest", False, k) for s in disjoint for k in others]
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        results = list(pool.map(lambda p: run(a, *p), plan))
    res = {(key(p[0]), *p[1:]): r for p, r in zip(plan, results)}

    def med(s, receiver, verify, field, over=seeds):
        return statistics.median(res[(key(s), receiver, verify, k)][field] for k in over)

    noisy = {"shared": 0, "disjoint": 0}

    def noise(s, verify, field, bound_broken):
        """The row's reference over the other seeds against seeds 1-S, as a table cell."""
        if not a.noise:
            return ""
        ratio = med(s, "honest", verify, field, others) / med(s, "honest", verify, field)
        noisy[s["layout"]] += bound_broken(ratio)
        return f" {100 * (ratio - 1):+.1f} % |"

    failures = []
    lines = [
        f"Medians over seeds 1-{a.seeds}, {DURATION_S} s with the first {WARMUP_S} s left out, S0's detector at the receiver, the\n",
        f"sender's check on; written by `python3 -m scripts.liar_table --seeds {a.seeds}" + (" --noise" if a.noise else "")
        + (f" --max-rate {a.max_rate:g}` (setups up to {a.max_rate:g} Mb/s only"
           + ("; `make liar-table-30` without `--noise`" if a.max_rate == 30 and a.noise else "; `make liar-table-30`" if a.max_rate == 30 else "") + ").\n" if a.max_rate is not None else "` (`make liar-table`).\n"),
        "\n",
        "Shared bottleneck: the MPTCP connection's rate over the TCP flows' (`sum_ratio`) with an honest\n",
        "receiver, and each liar's gain: its median sum ratio over the honest receiver's.\n",
        "\n",
        "| setup | hosts | honest: sum ratio | separate | random | flapping |"
        + (f" honest, seeds {others.start}-{others.stop - 1} |" if a.noise else "") + "\n",
        "|---|---|---|---|---|---|" + ("---|" if a.noise else "") + "\n",
    ]
    worst = {h: -1e9 for h in HOSTS}
    for s in shared:
        honest = med(s, "honest", True, "sum_ratio")
        cells = []
        for r in LIARS:
            gain = med(s, r, True, "sum_ratio") / honest
            worst[s["hosts"]] = max(worst[s["hosts"]], gain)
            mark = ""
            if gain > GAIN_BOUND:
                failures.append(f"{label(s)} ({s['hosts']}): {r} gains {100 * (gain - 1):+.1f} %")
                mark = " **"
            cells.append(f"{100 * (gain - 1):+.1f} %{mark}")
        lines.append(f"| {label(s)} | {s['hosts']} | {honest:.2f} | " + " | ".join(cells) + " |"
                     + noise(s, True, "sum_ratio", lambda r: r > GAIN_BOUND) + "\n")
    lines += [
        "\n",
        "Disjoint bottlenecks (each subflow on a bottleneck of its own with the setup's TCP flows), honest\n",
        "receiver: the connection's rate with the check off and on.\n",
        "\n",
        "| setup | hosts | check off: Mb/s | check on: Mb/s | on / off |"
        + (f" check off, seeds {others.start}-{others.stop - 1} |" if a.noise else "") + "\n",
        "|---|---|---|---|---|" + ("---|" if a.noise else "") + "\n",
    ]
    worst_cost = {h: 1e9 for h in HOSTS}
    for s in disjoint:
        off, on = med(s, "honest", False, "mptcp_mbps"), med(s, "honest", True, "mptcp_mbps")
        worst_cost[s["hosts"]] = min(worst_cost[s["hosts"]], on / off)
        mark = ""
        if on / off < COST_BOUND:
            failures.append(f"{label(s)} disjoint ({s['hosts']}): the check costs {100 * (1 - on / off):.1f} %")
            mark = " **"
        lines.append(f"| {label(s)} | {s['hosts']} | {off:.2f} | {on:.2f} | {on / off:.3f}{mark} |"
                     + noise(s, False, "mptcp_mbps", lambda r: r < COST_BOUND) + "\n")
    lines += ["\n", "Largest gain of any liar, smallest on/off ratio: " + "; ".join(
        f"{h}: {100 * (worst[h] - 1):+.1f} %, {worst_cost[h]:.3f}" for h in HOSTS) + ".\n"]
    if a.noise:
        lines += ["\n", f"The reference against itself on seeds {others.start}-{others.stop - 1}: beyond +5 % in "
                  f"{noisy['shared']} of {len(shared)} shared rows, beyond -5 % in {noisy['disjoint']} of "
                  f"{len(disjoint)} disjoint rows.\n"]
    if failures:
        lines += ["\n", "Beyond the bounds (** above; gain at most +5 %, cost at most 5 %):\n", "\n"] + [f"* {f}\n" for f in failures]
    table = "".join(lines)
    if a.print:
        sys.stdout.write(table)
    else:
        partial = a.max_rate is not None  # a partial table never replaces the full one
        write_between(DOC, BEGIN_PARTIAL if partial else BEGIN, END_PARTIAL if partial else END, table.rstrip("\n"))
    for f in failures:
        print("beyond the bound:", f, file=sys.stderr)
    return 1 if failures else 0


def key(s):
    return s.get("key") or ls.name(s)


if __name__ == "__main__":
    sys.exit(main())
