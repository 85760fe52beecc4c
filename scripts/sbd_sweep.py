#!/usr/bin/env python3
"""The sweep that chose the `pathpool` detector preset (docs/sbd.md, "Choosing the change
test"): S0's NSB-n, SB-n (n = 2..5) and shifting-bottleneck scenarios are run once in the
simulator with packet captures at the receiver (`pathpool run --pcap`), and every candidate
detector is replayed on the same captures (`pathpool detect --pcap --detector pathpool
--param ...`), so they are compared on identical traffic (open loop: the controller's
reaction to each candidate's decisions is not simulated; `pathpool reproduce ferlin2016`
measures the chosen preset closed loop). Writes the table into docs/sbd.md between its markers
(or prints it with --print).

    python3 -m scripts.sbd_sweep [--bin target/release/pathpool] [--out out/sbd-sweep] [--seeds 4] [--shift-seeds 8] [--jobs N] [--print]

Accuracy: the fraction of decisions after the 20 s warm-up that group exactly as the truth
(SB: all together; NSB: every subflow alone), mean over seeds. Transition delay: seconds from
each shift to the first correct decision within its 30 s phase (S0 §IV-C3), mean over the
transitions detected, also by direction (into a disjoint phase, into a shared one); "missed"
counts those never detected within their phase. Captures are
kept in --out and not made again.
"""

import concurrent.futures
import csv
import os
import shutil
import statistics
import subprocess

from scripts.doc_table import emit, table_arguments

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "sbd.md")
BEGIN = "<!-- table: python3 -m scripts.sbd_sweep -->"
END = "<!-- end of sbd_sweep table -->"
PAPER = os.path.join(ROOT, "scenarios", "papers", "ferlin2016")
WARMUP_S, PHASE_S = 20.0, 30.0
PHASES = [True, False, True, False, True]  # shift.toml: shared?

# (label, --param overrides on the pathpool preset); the first two are S0's detector and the
# split alone, then the first version of the change test, the preset before the discord test,
# the one chosen, and the chosen one with one rule changed or taken back each.
PREVIOUS = ["change_discord=0", "change_keep_stats=0"]
OLD = PREVIOUS + ["change_low=0.3", "change_energy=0", "change_confirm=1", "change_groups=0", "restart_window=5"]
CANDIDATES = [
    ("`mptcp-sbd` (S0's)", ["corr_split=0", "change_detect=0"]),
    ("split alone", ["change_detect=0"]),
    ("split + change test, first version (low 0.3, no energy rule, no confirmation, pairs, restart window 5)", OLD),
    ("previous `pathpool`: co-movement test only (low 0.2, energy 0.5, confirm 2, whole groups, restart window 3)", PREVIOUS),
    ("**`pathpool` (chosen)**: the previous one, and a pair also parts at 10 x its discord; a parted pair keeps its statistics", []),
    ("chosen, discord ratio 6", ["change_discord=6"]),
    ("chosen, discord ratio 15", ["change_discord=15"]),
    ("chosen, parted pairs restart fully", ["change_keep_stats=0"]),
    ("chosen, no discord test", ["change_discord=0"]),
    ("chosen, confirm 1", ["change_confirm=1"]),
    ("chosen, restart window 5", ["restart_window=5"]),
]


def capture(a, scenario, seed):
    folder = os.path.join(a.out, "captures", f"{scenario}-s{seed}")
    pcap = os.path.join(folder, "d.pcap")
    if not os.path.exists(pcap):
        run = os.path.join(folder, "run")
        subprocess.run([a.bin, "run", os.path.join(PAPER, scenario + ".toml"), "--cc", "mptcp-sbd", "--seed", str(seed),
                        "--out", run, "--pcap", os.path.join(run, "pcap")], check=True, stdout=subprocess.DEVNULL)
        os.replace(os.path.join(run, "pcap", "d.pcap"), pcap)  # the receiver's capture
        shutil.rmtree(run)
    return pcap


def detect(a, label_index, params, pcap):
    folder = os.path.join(a.out, "detect", f"c{label_index}", os.path.basename(os.path.dirname(pcap)))
    decisions = os.path.join(folder, "decisions.csv")
    if not os.path.exists(decisions):
        args = [a.bin, "detect", "--pcap", pcap, "--detector", "pathpool", "--out", folder]
        for p in params:
            args += ["--param", p]
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    by_time = {}
    with open(decisions) as f:
        for row in csv.DictReader(f):
            by_time.setdefault(float(row["time_s"]), []).append(int(row["group"]))
    return sorted(by_time.items())


def all_shared(g):
    return g[0] != 0 and all(x == g[0] for x in g)


def all_separate(g):
    return 0 not in g and len(set(g)) == len(g)


def shared_at(t):
    return PHASES[min(max(int((t - WARMUP_S) // PHASE_S), 0), len(PHASES) - 1)]


def main():
    ap = table_arguments(ROOT, "sbd-sweep", 4, "docs/sbd.md")
    ap.add_argument("--shift-seeds", type=int, default=8)
    a = ap.parse_args()
    stationary = [f"{k}-{n}" for k in ("nsb", "sb") for n in (2, 3, 4, 5)]
    plan = [(s, seed) for s in stationary for seed in range(1, a.seeds + 1)] + [("shift", seed) for seed in range(1, a.shift_seeds + 1)]
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        pcaps = dict(zip(plan, pool.map(lambda p: capture(a, *p), plan)))
        jobs = [(i, p) for i in range(len(CANDIDATES)) for p in plan]
        decided = dict(zip(jobs, pool.map(lambda j: detect(a, j[0], CANDIDATES[j[0]][1], pcaps[j[1]]), jobs)))

    lines = [
        f"S0's scenarios, one capture per run (seeds 1-{a.seeds}, shift seeds 1-{a.shift_seeds}), every candidate replayed on the same captures; "
        f"written by `python3 -m scripts.sbd_sweep --seeds {a.seeds} --shift-seeds {a.shift_seeds}`.\n",
        "\n",
        "| candidate | shift: mean delay (s) | shared to disjoint / disjoint to shared (s) | missed | NSB-2..5 accuracy | SB-2..5 accuracy |\n",
        "|---|---|---|---|---|---|\n",
    ]
    for i, c in enumerate(CANDIDATES):
        delays, missed, by_direction = [], 0, {True: [], False: []}
        for seed in range(1, a.shift_seeds + 1):
            ds = decided[(i, ("shift", seed))]
            for k in range(1, len(PHASES)):
                start, end = WARMUP_S + PHASE_S * k, WARMUP_S + PHASE_S * (k + 1)
                ok = [t for t, g in ds if start <= t < end and (all_shared(g) if shared_at(t) else all_separate(g))]
                if ok:
                    delays.append(ok[0] - start)
                    by_direction[not PHASES[k]].append(ok[0] - start)  # True: into a disjoint phase
                else:
                    missed += 1
        acc = {}
        for s in stationary:
            per_seed = []
            for seed in range(1, a.seeds + 1):
                judged = [g for t, g in decided[(i, (s, seed))] if t >= WARMUP_S]
                good = all_shared if s.startswith("sb") else all_separate
                per_seed.append(sum(good(g) for g in judged) / max(len(judged), 1))
            acc[s] = statistics.mean(per_seed)
        nsb = ", ".join(f"{acc[f'nsb-{n}']:.3f}" for n in (2, 3, 4, 5))
        sb = ", ".join(f"{acc[f'sb-{n}']:.3f}" for n in (2, 3, 4, 5))
        split = f"{statistics.mean(by_direction[True]):.2f} / {statistics.mean(by_direction[False]):.2f}"
        lines.append(f"| {c[0]} | {statistics.mean(delays):.2f} | {split} | {missed} of {len(PHASES[1:]) * a.shift_seeds} | {nsb} | {sb} |\n")
    emit("".join(lines).rstrip("\n"), a.print, DOC, BEGIN, END)


if __name__ == "__main__":
    main()
