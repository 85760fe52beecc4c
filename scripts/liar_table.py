#!/usr/bin/env python3
"""The lying-receiver evaluation of docs/security.md ("Beyond S0's scenarios"): every liar
(`sbd_receiver`) against the honest receiver, the sender's check on (`sbd_verify = true`),
over a design of shared-bottleneck setups under both host models, and the check's cost to an
honest receiver on disjoint bottlenecks (S0's NSB-2..5 and the design's setups laid out
disjoint). Writes the table into docs/security.md between its markers (or prints it with
--print).

    python3 -m scripts.liar_table [--bin target/release/pathpool] [--out out/liar] [--seeds 5] [--looks 20,100]
                                  [--jobs N] [--print] [--max-rate MBPS] [--check-set KEY=VALUE ...]

Each cell (a liar in a shared setup, or a disjoint setup's cost) is decided from paired runs:
per seed the liar's run over the honest receiver's on the same seed (on disjoint bottlenecks,
the check on over off), by the sign test at 5 % each way (scripts/paired_bound.py): "holds",
"fails" or "undecided" with the runs given. Seeds 1-5 first; the cells those leave undecided
get more seeds, up to each of --looks in turn. The bound's own measure (medians of seeds 1-5) stays beside it.
Exits 1 unless every cell holds. Runs are kept in --out by setup, receiver and seed, not by
binary: use a new --out for a new build. --check-set passes a setting to every run with the check
on (e.g. `flows.mptcp.sbd_verify_start="evidence"`); those runs are kept apart by it, and the
table is only printed (the one in docs/security.md is the defaults').

The design (`design()`): six two-level factors (rate 10/100 Mb/s, RTT 10/100 ms, buffer
0.25/2 BDP, 2/5 subflows, 1/3 TCP flows, drop-tail/RED) in a 2^(6-2) fractional factorial
of resolution IV (16 corners: tcp = rate*rtt*buffer, queue = rtt*buffer*subflows in +-1
coding), the centre, and the setup of docs/security.md's "Why the check missed sharing" (20 Mb/s, 20 ms, 1 BDP, 2 subflows, 1 TCP
flow, drop-tail); each under both host models. A run whose summary.json exists in --out is not
run again.
"""

import concurrent.futures
import itertools
import json
import math
import os
import random
import statistics
import subprocess
import sys

from scripts import liar_scenarios as ls
from scripts import paired_bound as pb
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


def phase_sets(setup, seed):
    """Under ideal hosts with a drop-tail queue nothing in a run is random, so seeds alone
    would repeat one run and a cell's "5 of 5" would be one run counted five times. There each
    seed moves every TCP flow's start by its own uniform draw in [0, one base RTT)
    (`random.Random(seed)`), so that the seeds sample the phase the flows lock into."""
    if "file" in setup or setup["hosts"] != "ideal" or setup["queue"] != "droptail":
        return []
    rng = random.Random(seed)
    sets = []
    for flow, _, j in ls.tcp_flows(setup):
        start = ls.tcp_start_s(j) + rng.uniform(0, setup["rtt_ms"] / 1e3)
        sets += ["--set", f"flows.{flow}.start={start:.6f}s"]
    return sets


def run(a, setup, receiver, verify, seed, mptcp_start_us=0):
    """One run's summary. `mptcp_start_us`: the MPTCP connection starts that much later (a
    placebo change of the run, scripts/liar_placebo.py)."""
    phase = phase_sets(setup, seed)
    placebo = f"-start{mptcp_start_us}us" if mptcp_start_us else ""
    check_sets = (getattr(a, "check_set", None) or []) if verify else []
    setting = "".join("-" + "".join(c if c.isalnum() else "_" for c in kv) for kv in check_sets)
    tag = f"{key(setup)}-{receiver}-{'verify' if verify else 'trust'}{setting}{placebo}-s{seed}{'-phase' if phase else ''}"
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
        sets += phase
        if mptcp_start_us:
            sets += ["--set", f"flows.mptcp.start={mptcp_start_us / 1e6:.6f}s"]
        sets += ["--set", "flows.mptcp.sbd_detector=mptcp-sbd", "--set", f'flows.mptcp.sbd_receiver="{receiver}"',
                 "--set", f"flows.mptcp.sbd_verify={'true' if verify else 'false'}"]
        for kv in check_sets:
            sets += ["--set", kv]
        subprocess.run([a.bin, "run", path, "--cc", "mptcp-sbd", "--seed", str(seed), "--out", folder, *sets],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(summary) as f:
        return json.load(f)


def add_check_set(ap):
    """--check-set KEY=VALUE (repeatable): a setting for every run with the check on."""
    ap.add_argument("--check-set", action="append", metavar="KEY=VALUE", help="a setting for every run with the "
                    "check on (repeatable; needs --print: the tables in docs/security.md are the defaults')")


def checked_check_set(a):
    """Exits unless every --check-set is KEY=VALUE and comes with --print; returns `a`."""
    if a.check_set and not a.print:
        sys.exit("--check-set needs --print: the tables in docs/security.md are the check's defaults'")
    if any("=" not in kv for kv in a.check_set or []):
        sys.exit("--check-set takes KEY=VALUE, e.g. flows.mptcp.sbd_verify_start=\"evidence\"")
    return a


def check_set_options(a):
    """The --check-set options as a command line names them."""
    return "".join(f" --check-set '{kv}'" for kv in a.check_set or [])


def label(s):
    if "file" in s:
        return s["name"]
    return (f"{s['rate_mbps']:g} Mb/s, {s['rtt_ms']:g} ms, {s['buffer_bdp']:g} BDP, {s['subflows']} sf, "
            f"{s['tcp']} TCP, {'RED' if s['queue'] == 'red' else 'drop-tail'}")


def ratio(a, b):
    """a over b; two zeros are no change (a connection starved either way)."""
    if b == 0:
        return 1.0 if a == 0 else math.inf
    return a / b


def table_setups(max_rate=None):
    """The table's setups: (shared, disjoint), the design's up to `max_rate` Mb/s under both
    host models, and S0's NSB-2..5 among the disjoint ones."""
    setups = [s for s in design() if max_rate is None or s["rate_mbps"] <= max_rate]
    shared = [dict(s, layout="shared", hosts=h) for s in setups for h in HOSTS]
    nsb = [dict(file=os.path.join(ROOT, "scenarios", "papers", "ferlin2016", f"nsb-{n}.toml"), name=f"S0's NSB-{n}", layout="disjoint", hosts=h)
           for n in (2, 3, 4, 5) for h in HOSTS]
    for s in nsb:
        s["key"] = f"{os.path.basename(s['file'])[:-5]}-{s['hosts']}"
    return shared, nsb + [dict(s, layout="disjoint", hosts=h) for s in setups for h in HOSTS]


def main():
    ap = table_arguments(ROOT, "liar", 5, "docs/security.md")
    ap.add_argument("--max-rate", type=float, help="only the design's setups up to this rate in Mb/s (a partial "
                    "table, written between its own markers: the 100 Mb/s setups take most of the full run's time)")
    ap.add_argument("--looks", default="20", help="the seeds of the later looks, comma-separated: a cell the "
                    "looks before leave undecided gets seeds up to each in turn (none: one look at --seeds)")
    add_check_set(ap)
    a = checked_check_set(ap.parse_args())
    later = [int(n) for n in a.looks.split(",") if n]
    looks = pb.levels([a.seeds, *later])
    shared, disjoint = table_setups(a.max_rate)
    res = {}

    def gather(plan):
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
            for p, r in zip(plan, pool.map(lambda p: run(a, *p), plan)):
                res[(key(p[0]), *p[1:])] = r

    def value(s, receiver, verify, field, k):
        return res[(key(s), receiver, verify, k)][field]

    def gains(s, liar, seeds):
        """Per seed, the liar's sum ratio over the honest receiver's on the same seed."""
        return [ratio(value(s, liar, True, "sum_ratio", k), value(s, "honest", True, "sum_ratio", k)) for k in seeds]

    def costs(s, seeds):
        """Per seed, the honest receiver's rate with the check on over off on the same seed."""
        return [ratio(value(s, "honest", True, "mptcp_mbps", k), value(s, "honest", False, "mptcp_mbps", k)) for k in seeds]

    # Cells: (row, liar or None for the disjoint cost) -> (seeds, verdict, lower, upper, paired ratios).
    cells = {}
    pending = [(s, r) for s in shared for r in LIARS] + [(s, None) for s in disjoint]
    done_seeds = 0
    for n, level in looks.items():
        seeds = range(done_seeds + 1, n + 1)
        plan = []
        for s in {key(s): s for s, _ in pending}.values():
            receivers = [r for t, r in pending if key(t) == key(s)]
            if s["layout"] == "shared":
                plan += [(s, r, True, k) for r in ["honest", *receivers] for k in seeds]
            else:
                plan += [(s, "honest", v, k) for v in (False, True) for k in seeds]
        gather(plan)
        done_seeds = n
        still = []
        for s, r in pending:
            every = range(1, n + 1)
            rs = gains(s, r, every) if r else costs(s, every)
            bound, above_is_bad = (GAIN_BOUND, True) if r else (COST_BOUND, False)
            verdict, lower, upper = pb.decide(rs, bound, above_is_bad, level)
            cells[(key(s), r)] = (n, verdict, lower, upper, rs)
            if verdict == "undecided":
                still.append((s, r))
        pending = still
    first = range(1, a.seeds + 1)

    def pct(x):
        return "-" if x is None else f"{100 * (x - 1):+.1f} %"

    def interval(lo, hi, fmt):
        return "none" if lo is None else f"[{fmt(lo)}, {fmt(hi)}]"

    counts = {(layout, h, v): 0 for layout in ("shared", "disjoint") for h in HOSTS for v in ("holds", "fails", "undecided")}
    failures, undecided = [], []
    command = (f"python3 -m scripts.liar_table --seeds {a.seeds} --looks {a.looks}"
               + (f" --max-rate {a.max_rate:g}" if a.max_rate is not None else "")
               + check_set_options(a))
    make = ("make liar-table-30" if a.max_rate == 30 and a.looks == "20,100" else "make liar-table" if a.max_rate is None and a.looks == "20,100" else None)
    lines = [
        f"{DURATION_S} s runs with the first {WARMUP_S} s left out, S0's detector at the receiver; written by `{command}`"
        + (f" (`{make}`)" if make else "") + (f"; setups up to {a.max_rate:g} Mb/s only" if a.max_rate is not None else "") + ".\n",
        f"Each cell is decided by the sign test on its paired ratios (one per seed, the same seed both ways) at "
        f"{100 * pb.ALPHA:g} % each way: seeds 1-{a.seeds} first"
        + "".join(f", then seeds 1-{n} where those leave it undecided" for n in later)
        + " (\"Deciding the bound\").\n",
        "Under ideal hosts with a drop-tail queue, where nothing else in a run is random, each seed also starts every TCP flow "
        "up to one base RTT later (`phase_sets`), so that seeds sample the phase the flows lock into; S0's NSB files keep "
        "their start times, so each of their ideal-host cells is one run.\n",
        "\n",
        "Shared bottleneck: the MPTCP connection's rate over the TCP flows' (`sum_ratio`), the sender's check on.\n",
        f"\"Gain, seeds 1-{a.seeds}\" is the bound's own measure (the liar's median sum ratio over the honest receiver's);\n",
        "the paired gain is the liar's sum ratio over the honest receiver's on the same seed: its median, the interval\n",
        "the test decides on, and the seeds whose gain is beyond +5 %.\n",
        "\n",
        f"| setup | hosts | liar | honest: sum ratio | gain, seeds 1-{a.seeds} | seeds | paired gain: median | interval | beyond +5 % | bound |\n",
        "|---|---|---|---|---|---|---|---|---|---|\n",
    ]
    for s in shared:
        honest = statistics.median(value(s, "honest", True, "sum_ratio", k) for k in first)
        for r in LIARS:
            n, verdict, lower, upper, rs = cells[(key(s), r)]
            lied = statistics.median(value(s, r, True, "sum_ratio", k) for k in first)
            beyond = sum(1 for g in rs if g > GAIN_BOUND)
            counts[("shared", s["hosts"], verdict)] += 1
            line = f"{label(s)} ({s['hosts']}): {r}: {beyond} of {n} seeds gain beyond +5 %, median {pct(statistics.median(rs))}"
            (failures if verdict == "fails" else undecided if verdict == "undecided" else []).append(line)
            lines.append(f"| {label(s)} | {s['hosts']} | {r} | {honest:.2f} | {pct(ratio(lied, honest))} | {n} | "
                         f"{pct(statistics.median(rs))} | {interval(lower, upper, pct)} | {beyond} | {verdict} |\n")
    lines += [
        "\n",
        "Disjoint bottlenecks (each subflow on a bottleneck of its own with the setup's TCP flows), honest receiver:\n",
        f"the connection's rate with the check off and on (medians of seeds 1-{a.seeds}), and the paired ratio on / off\n",
        "on the same seed: its median, the interval the test decides on, and the seeds below 0.95.\n",
        "\n",
        f"| setup | hosts | check off: Mb/s | check on: Mb/s | on / off, seeds 1-{a.seeds} | seeds | paired on / off: median | interval | below 0.95 | bound |\n",
        "|---|---|---|---|---|---|---|---|---|---|\n",
    ]
    for s in disjoint:
        off = statistics.median(value(s, "honest", False, "mptcp_mbps", k) for k in first)
        on = statistics.median(value(s, "honest", True, "mptcp_mbps", k) for k in first)
        n, verdict, lower, upper, rs = cells[(key(s), None)]
        below = sum(1 for c in rs if c < COST_BOUND)
        counts[("disjoint", s["hosts"], verdict)] += 1
        line = f"{label(s)} disjoint ({s['hosts']}): {below} of {n} seeds cost beyond 5 %, median on / off {statistics.median(rs):.3f}"
        (failures if verdict == "fails" else undecided if verdict == "undecided" else []).append(line)
        lines.append(f"| {label(s)} | {s['hosts']} | {off:.2f} | {on:.2f} | {ratio(on, off):.3f} | {n} | {statistics.median(rs):.3f} | "
                     f"{interval(lower, upper, lambda x: f'{x:.3f}')} | {below} | {verdict} |\n")
    lines.append("\n")
    for layout, what in (("shared", "liar cells"), ("disjoint", "disjoint rows")):
        lines.append(f"The {what}: " + "; ".join(
            f"{h}: " + ", ".join(f"{counts[(layout, h, v)]} {v}" for v in ("holds", "fails", "undecided")) for h in HOSTS) + ".\n")
    if failures:
        lines += ["\n", "The bound fails (gain at most +5 %, cost at most 5 %):\n", "\n"] + [f"* {f}\n" for f in failures]
    if undecided:
        lines += ["\n", f"Undecided with the seeds given (the sign test at {100 * pb.ALPHA:g} % needs at most "
                  + ", ".join(f"{pb.allowed(n, lv)} of {n}" for n, lv in looks.items())
                  + " seeds on the wrong side of the bound one way or the other):\n", "\n"] + [f"* {u}\n" for u in undecided]
    table = "".join(lines)
    if a.print:
        sys.stdout.write(table)
    else:
        partial = a.max_rate is not None  # a partial table never replaces the full one
        write_between(DOC, BEGIN_PARTIAL if partial else BEGIN, END_PARTIAL if partial else END, table.rstrip("\n"))
    for f in failures:
        print("the bound fails:", f, file=sys.stderr)
    for u in undecided:
        print("undecided:", u, file=sys.stderr)
    # Undecided is not held: the acceptance is shown only when every cell holds.
    return 1 if failures or undecided else 0


def key(s):
    return s.get("key") or ls.name(s)


if __name__ == "__main__":
    sys.exit(main())
