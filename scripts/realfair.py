#!/usr/bin/env python3
"""Real Linux MPTCP with pathpool's controllers and the receiver fix, measured on the testbed
against the targets of fairness (docs/kernel.md, "Fair and full on real Linux"), written as the
tables between the `realfair` markers of docs/kernel.md.

    sudo python3 scripts/realfair.py [--bin target/release/pathpool] [--out out/realfair]
                                     [--daemon-runs DIR] [--daemon-only] [--repeats 5]
                                     [--captures 3] [--measured] [--print]
                                     [--modes mixed,delack-max,read-ack] [--mode-cases CASES]
                                     [--python PYTHON]

Three measurements, each reused when its folder exists (delete it to measure again):

1. The cause (OUT/acks/{stock,FIX}-K): captured 30 s testbed runs of the uncoupled shared
   case (scenarios/fidelity/mptcp-shared.toml), each receiver as Linux has it and with the fix
   (--fix, by default `read-ack`: `delayed_ack = "linux-proposed"` on the MPTCP flow, which
   the testbed runs with `pathpool kernel receiver on --mode read-ack` in the receiver's
   namespace and ECN asked for at the sender; `fixed` is the route mode, `delayed_ack = false`
   on every flow), read by `python3 -m scripts.mptcp_acks` (with --python, a Python that has
   the pathpool package): per flow, the share of train ends whose ACK is held over 0.3 ms and
   the drops per packet at the bottleneck.
2. The shares (OUT/FIX, OUT/stock): `pathpool fidelity` on the coupled and uncoupled cases,
   with the fix and without, 60 s runs (5 by default) against 20 simulator seeds with the
   same receivers.
3. The SBD daemon's decisions (DAEMON_RUNS, by default OUT/daemon): `pathpool fidelity` on
   sbd-shared, sbd-disjoint, sbd-shifting and sbd-shifting-join with the receivers of
   --daemon-fix (by default the route mode), 60 s runs; per
   run the daemon's decisions, how many are right, and its abstentions ("not yet": decision windows without
   evidence, no groups written), from summary.json; on sbd-shifting, from sbd.log, the time
   from the shift (the UDP load's `start` in the scenario, on the clock of
   `sbd_daemon.traffic_start_unix_s`) to the daemon's first decision on which pp_mptcp_sbd
   stops coupling the subflows (apart, or a subflow in group 0, which it runs uncoupled); on
   sbd-shifting-join (the other way round), to its first decision that groups them. The
   controllers stay loaded for the whole measurement and their build (the struct_ops
   programs' tags, `bpftool prog show`) is written beside every run as controllers.json.
4. The other receiver modes (--modes; OUT/acks/MODE-K and OUT/MODE, as 1 and 2 but on the
   shared cases only, --mode-cases): `mixed`, quickack on the MPTCP connection's receiver only
   (TCP keeps Linux's delayed ACKs), and `delack-max`, the sock_ops program of `pathpool
   kernel receiver on --mode delack-max` on the subflows only (`delayed_ack =
   "linux-delack-max"`), and `read-ack` (the fix of 1 and 2). They fill the table between the
   `realfair-modes` markers.

--measured writes the tables from what is there and runs nothing (no root needed).
"""
import argparse
import glob
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys

from scripts.doc_table import write_between

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = "flows.*.delayed_ack=false"
FIX_MPTCP_ONLY = "flows.mp.delayed_ack=false"
# The receiver modes measured against Linux's own receivers ("stock"): the --set of each.
# "fixed" is the route mode of `pathpool kernel receiver on` on every receiver; the others
# change the MPTCP connection's receiver ("mp" in every fidelity case) and leave TCP's alone.
MODES = {
    "fixed": ("quickack on every receiver's routes (`receiver on --mode route`)", [FIX]),
    "mixed": ("quickack on the MPTCP receiver's routes only", ["flows.mp.delayed_ack=false"]),
    "delack-max": ("sock_ops: the subflows' delayed-ACK timer at its minimum (`receiver on --mode delack-max`)", ["flows.mp.delayed_ack=linux-delack-max"]),
    # The testbed runs `delayed_ack = "linux-proposed"` on an MPTCP flow with the read-ack
    # programs, so the simulator beside it runs the kernel change they emulate.
    "read-ack": ("BPF: each subflow sends the read-time ACK as TCP does (`receiver on --mode read-ack`)", ["flows.mp.delayed_ack=linux-proposed"]),
}
MODE_CASES = ["mptcp-shared", "lia-shared", "olia-shared", "balia-shared", "sbd-shared"]
CASES = ["mptcp-shared", "lia-shared", "olia-shared", "balia-shared", "sbd-shared",
         "mptcp-disjoint", "olia-disjoint", "sbd-disjoint"]
# The SBD daemon's cases, measured with the fix only (item 3 above).
DAEMON_CASES = ["sbd-shifting", "sbd-shared", "sbd-disjoint", "sbd-shifting-join"]
# The targets of docs/kernel.md: (case, what, low, high) on MPTCP / TCP.
SHARE_TARGETS = [
    ("lia-shared", "LIA / TCP, one shared bottleneck", 0.8, 1.25),
    ("olia-shared", "OLIA / TCP, one shared bottleneck", 0.8, 1.25),
    ("balia-shared", "BALIA / TCP, one shared bottleneck", 0.8, 1.25),
    ("sbd-shared", "MPTCP-SBD / TCP, one shared bottleneck", 0.8, 1.25),
    ("sbd-disjoint", "MPTCP-SBD / the TCP flows, two disjoint bottlenecks", 0.85, None),
]
BEGIN = "<!-- realfair:begin (written by scripts/realfair.py) -->"
END = "<!-- realfair:end -->"
CAUSE_BEGIN = "<!-- realfair-cause:begin (written by scripts/realfair.py) -->"
CAUSE_END = "<!-- realfair-cause:end -->"
MODES_BEGIN = "<!-- realfair-modes:begin (written by scripts/realfair.py) -->"
MODES_END = "<!-- realfair-modes:end -->"
# The shared case's links as scripts/mptcp_acks.py reads them (docs/fidelity-notes.md, MPTCP).
ACCESS = {"j1": "subflow 1", "j2": "subflow 2", "t": "TCP"}


def run(cmd, **kw):
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, **kw)


def load():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def note_load(out, when):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "load.txt"), "a") as f:
        f.write(f"{when} {load():.2f}\n")


def loads(out, modes=None):
    """The load averages noted in OUT/load.txt; with `modes`, of those modes' captured runs
    only (their lines start with MODE-K)."""
    path = os.path.join(out, "load.txt")
    if not os.path.exists(path):
        return []
    keep = lambda line: modes is None or line.split()[0].rsplit("-", 1)[0] in modes
    return [float(line.split()[-1]) for line in open(path) if line.strip() and "failed" not in line and keep(line)]


# ---- 1. the cause ----

def capture_runs(a, modes=("stock", "fixed")):
    for mode in modes:
        for k in range(1, a.captures + 1):
            out = os.path.join(a.out, "acks", f"{mode}-{k}")
            if os.path.exists(os.path.join(out, "acks.txt")):
                continue
            note_load(os.path.join(a.out, "acks"), f"{mode}-{k} start")
            cmd = [a.bin, "testbed", "run", os.path.join(ROOT, "scenarios/fidelity/mptcp-shared.toml"),
                   "--set", "simulation.duration=30s", "--set", "simulation.warmup=5s", "--capture", "--out", out]
            for setting in MODES.get(mode, ("", []))[1]:
                cmd += ["--set", setting]
            run(cmd, stdout=subprocess.DEVNULL)
            # scripts.mptcp_acks reads the captures with the pathpool package (--python).
            text = subprocess.run([a.python, "-m", "scripts.mptcp_acks", os.path.join(out, "capture"),
                                   "--bottleneck", "bottleneck", "--access", "j1:1us", "--access", "j2:1us", "--access", "t:1ms"],
                                  check=True, capture_output=True, text=True, cwd=ROOT).stdout
            with open(os.path.join(out, "acks.txt"), "w") as f:
                f.write(text)
            note_load(os.path.join(a.out, "acks"), f"{mode}-{k} end")


def parse_acks(path):
    """{access link: (held, ends, lost, packets)} from one mptcp_acks.py output."""
    flows, name = {}, None
    for line in open(path):
        m = re.match(r"^(\w+): ", line)
        if m:
            name = m.group(1)
            flows[name] = [0, 0, 0, 0]
        m = re.search(r"held over 0.3 ms (\d+)/(\d+)", line)
        if m and name:
            flows[name][0:2] = int(m.group(1)), int(m.group(2))
        m = re.search(r"drops per packet: (\d+)/(\d+)", line)
        if m and name:
            flows[name][2:4] = int(m.group(1)), int(m.group(2))
    return flows


def rng(values, digits=2, scale=1.0):
    v = [x * scale for x in values]
    return f"{statistics.median(v):.{digits}f} [{min(v):.{digits}f}, {max(v):.{digits}f}]"


def cause_table(a, modes=None):
    modes = modes or (("stock", "as Linux has them"), (a.fix, f"with the receiver fix (`{a.fix}`)"))
    lines = ["| receivers | flow | train ends whose ACK is held over 0.3 ms | drops per 1000 packets at the bottleneck | runs |",
             "|---|---|---|---|---|"]
    verdicts = []
    for mode, label in modes:
        runs = sorted(glob.glob(os.path.join(a.out, "acks", f"{mode}-*", "acks.txt")))
        if not runs:
            lines.append(f"| {label} | | not measured | | 0 |")
            continue
        per = {n: ([], []) for n in ACCESS}
        for path in runs:
            flows = parse_acks(path)
            for n in ACCESS:
                held, ends, lost, pkts = flows.get(n, [0, 0, 0, 0])
                if ends and pkts:
                    per[n][0].append(held / ends)
                    per[n][1].append(lost / pkts)
        for n, who in ACCESS.items():
            if per[n][0]:
                lines.append(f"| {label} | {who} | {rng(per[n][0])} | {rng(per[n][1], 2, 1000)} | {len(per[n][0])} |")
        if mode != "stock" and per["t"][0] and per["j1"][0] and per["j2"][0]:
            held_tcp = statistics.median(per["t"][0])
            drop_tcp = statistics.median(per["t"][1])
            for n in ("j1", "j2"):
                d_held = abs(statistics.median(per[n][0]) - held_tcp) * 100
                d_drop = statistics.median(per[n][1]) / drop_tcp - 1 if drop_tcp else float("nan")
                verdicts.append(f"{'`' + mode + '` ' if len(modes) > 2 else ''}{ACCESS[n]}: held share {d_held:.1f} points from TCP's (target within 5: "
                                f"{'inside' if d_held <= 5 else '**outside**'}), drops per packet {d_drop * 100:+.0f} % of TCP's "
                                f"(target within 20 %: {'inside' if abs(d_drop) <= 0.2 else '**outside**'})")
    ld = loads(os.path.join(a.out, "acks"), [m for m, _ in modes])
    text = "\n".join(lines)
    if verdicts:
        text += "\n\n" + ("With the fix" if len(modes) <= 2 else "Against TCP") + ", medians: " + "; ".join(v.strip() for v in verdicts) + "."
    if ld:
        text += f"\n\nLoad average (1 min) at the runs' starts and ends: {min(ld):.1f}-{max(ld):.1f}."
    return text


# ---- 2. and 3. the shares and the daemon ----

def fidelity(a, mode, out=None, cases=CASES):
    """Each case not measured yet, by `pathpool fidelity` in a folder of its own, then moved
    under OUT/MODE/CASE (the layout of one fidelity run of every case)."""
    out = out or os.path.join(a.out, mode)
    for case in cases:
        if len(glob.glob(os.path.join(out, case, "real", "*", "summary.json"))) >= a.repeats:
            continue
        note_load(out, f"{case} start")
        scratch = os.path.join(out, f".run-{case}")
        cmd = [a.bin, "fidelity", "--cases", case, "--repeats", str(a.repeats), "--out", scratch]
        for setting in MODES.get(mode, ("", []))[1]:
            # The fix is a TCP receiver's setting: the shifting cases' UDP loads have none.
            cmd += ["--set", FIX_MPTCP_ONLY if (mode == "fixed" and case.startswith("sbd-shifting")) else setting]
        for attempt in (1, 2, 3):
            try:
                run(cmd)
                break
            except subprocess.CalledProcessError:
                # A real run can fail on its own (a connection reset, docs/kernel.md): the case
                # is measured again from its start, and its attempts are counted.
                note_load(out, f"{case} failed (attempt {attempt})")
                if attempt == 3:
                    raise
        if os.path.exists(os.path.join(out, case)):
            os.rename(os.path.join(out, case), os.path.join(out, f".old-{case}-{os.getpid()}"))
        os.rename(os.path.join(scratch, case), os.path.join(out, case))
        note_load(out, f"{case} end")


def proposed(a, case):
    """The simulator with the kernel change docs/kernel.md proposes (`delayed_ack =
    "linux-proposed"` on every flow; the simulator only), 20 seeds."""
    values = []
    for seed in range(1, 21):
        out = os.path.join(a.out, "proposed", case, f"seed-{seed}")
        summary = os.path.join(out, "summary.json")
        if not os.path.exists(summary):
            run([a.bin, "run", os.path.join(ROOT, "scenarios/fidelity", f"{case}.toml"), "--seed", str(seed),
                 "--set", "flows.*.delayed_ack=linux-proposed", "--out", out], stdout=subprocess.DEVNULL)
        with open(summary) as f:
            s = json.load(f)
        if s.get("tcp_mbps"):
            values.append(s["mptcp_mbps"] / s["tcp_mbps"])
    return values


def summaries(a, mode, case, side, out_dir=None):
    folder = "real" if side == "real" else "sim"
    out = []
    for path in sorted(glob.glob(os.path.join(out_dir or a.out, mode, case, folder, "*", "summary.json"))):
        with open(path) as f:
            out.append(json.load(f))
    return out


def ratios(a, mode, case, side="real", out_dir=None):
    return [s["mptcp_mbps"] / s["tcp_mbps"] for s in summaries(a, mode, case, side, out_dir) if s.get("tcp_mbps")]


def linux_queues(a, case):
    """The cell of the runs with the subflows' send queues as Linux sizes them (--linux-queues-runs)."""
    return cell(ratios(a, a.fix, case, out_dir=a.linux_queues_runs)) if a.linux_queues_runs else ""


def cell(values):
    return f"{rng(values)} ({len(values)})" if values else "not measured"


def inside(value, low, high):
    ok = value >= low and (high is None or value <= high)
    return "inside" if ok else "**outside**"


def shares_table(a):
    lines = ["| target | real Linux, receiver fix: median [min, max] (runs) | verdict | the same, subflow send queues as Linux sizes them (`--linux-queues`) | real Linux, receivers as they are | simulator, same receivers as the fix (seeds) | simulator, the proposed kernel change (seeds) |",
             "|---|---|---|---|---|---|---|"]
    for case, what, low, high in SHARE_TARGETS:
        fixed = ratios(a, a.fix, case)
        goal = f"[{low}, {high}]" if high else f">= {low}"
        verdict = inside(statistics.median(fixed), low, high) if fixed else "not measured"
        lines.append(f"| {what}: {goal} | {cell(fixed)} | {verdict} | {linux_queues(a, case)} | {cell(ratios(a, 'stock', case))} | {cell(ratios(a, a.fix, case, 'sim'))} | {cell(proposed(a, case))} |")
    sbd, olia = ratios(a, a.fix, "sbd-disjoint"), ratios(a, a.fix, "olia-disjoint")
    if sbd and olia:
        x = statistics.median(sbd) / statistics.median(olia)
        s_sbd, s_olia = ratios(a, "stock", "sbd-disjoint"), ratios(a, "stock", "olia-disjoint")
        stock = f"{statistics.median(s_sbd) / statistics.median(s_olia):.2f} (medians)" if s_sbd and s_olia else "not measured"
        sim_sbd, sim_olia = ratios(a, a.fix, "sbd-disjoint", "sim"), ratios(a, a.fix, "olia-disjoint", "sim")
        sim = f"{statistics.median(sim_sbd) / statistics.median(sim_olia):.2f} (medians)" if sim_sbd and sim_olia else ""
        p_sbd, p_olia = proposed(a, "sbd-disjoint"), proposed(a, "olia-disjoint")
        prop = f"{statistics.median(p_sbd) / statistics.median(p_olia):.2f} (medians)"
        q_sbd, q_olia = (ratios(a, a.fix, c, out_dir=a.linux_queues_runs) if a.linux_queues_runs else [] for c in ("sbd-disjoint", "olia-disjoint"))
        queues = f"{statistics.median(q_sbd) / statistics.median(q_olia):.2f} (medians; OLIA {cell(q_olia)})" if q_sbd and q_olia else ""
        lines.append(f"| MPTCP-SBD / OLIA, two disjoint bottlenecks: >= 1.5 | {x:.2f} (medians; OLIA {cell(olia)}) | {inside(x, 1.5, None)} | {queues} | {stock} | {sim} | {prop} |")
    for case, what in (("mptcp-shared", "uncoupled MPTCP / TCP, one shared bottleneck"),
                       ("mptcp-disjoint", "uncoupled MPTCP / the TCP flows, two disjoint bottlenecks")):
        real, sim = ratios(a, a.fix, case), ratios(a, a.fix, case, "sim")
        if real and sim:
            gap = statistics.median(sim) / statistics.median(real) - 1
            verdict = f"simulator {gap * 100:+.1f} %: {'inside' if abs(gap) <= 0.15 else '**outside**'}"
        else:
            verdict = "not measured"
        # Uncoupled MPTCP runs Linux's own controls: the bound is not theirs.
        lines.append(f"| {what}: within 15 % of the simulator | {cell(real)} | {verdict} | (no pathpool controller) | {cell(ratios(a, 'stock', case))} | {cell(sim)} | {cell(proposed(a, case))} |")
    lines += daemon_rows(a)
    text = "\n".join(lines)
    for mode, folder in (("fixed", os.path.join(a.out, a.fix)), ("stock", os.path.join(a.out, "stock")), ("daemon", a.daemon_runs)):
        ld = loads(folder)
        if ld:
            which = {"fixed": f"with the fix (`{a.fix}`)", "stock": "without it", "daemon": f"the SBD daemon's runs (receivers: `{a.daemon_fix}`)"}[mode]
            text += (f"\n\nLoad average (1 min) at each case's start and end, {which}: "
                     f"{min(ld):.1f}-{max(ld):.1f} (median {statistics.median(ld):.1f}).")
    return text


def controllers_build():
    """The BPF struct_ops programs loaded now (`bpftool prog show`): [{name, tag}] sorted, and a
    short digest of them, which names the controllers' build a run ran on (a program's tag is
    the hash of its instructions)."""
    out = subprocess.run(["bpftool", "-j", "prog", "show"], check=True, capture_output=True, text=True).stdout
    # The receiver fix's read-ack twins (pp_ra_*) come and go with each run's receiver: they
    # are not the controllers.
    progs = sorted({(p["name"], p["tag"]) for p in json.loads(out) if p.get("type") == "struct_ops" and not p["name"].startswith("pp_ra_")})
    digest = hashlib.sha256("".join(f"{n} {t}\n" for n, t in progs).encode()).hexdigest()[:12]
    return {"programs": [{"name": n, "tag": t} for n, t in progs], "digest": digest}


def daemon_cases_with_controllers(a):
    """The daemon's cases with this build's controllers loaded for the whole measurement
    (`pathpool kernel load` before, `unload` after, when they were not loaded already), and
    their build written beside every run (controllers.json), so a run says what it ran on."""
    loaded_here = not any(n.startswith("pp_") and not n.startswith("pp_ra_") for n in open("/proc/sys/net/ipv4/tcp_available_congestion_control").read().split())
    if loaded_here:
        run([a.bin, "kernel", "load"])
    try:
        build = controllers_build()
        if not build["programs"]:
            sys.exit("realfair.py: no struct_ops program is loaded after `pathpool kernel load`")
        fidelity(a, a.daemon_fix, out=a.daemon_runs, cases=DAEMON_CASES)
        if controllers_build() != build:
            sys.exit("realfair.py: the loaded controllers changed during the daemon's runs")
        for case in DAEMON_CASES:
            for folder in glob.glob(os.path.join(a.daemon_runs, case, "real", "*")):
                if not os.path.exists(os.path.join(folder, "controllers.json")):
                    with open(os.path.join(folder, "controllers.json"), "w") as f:
                        json.dump(build, f, indent=1)
    finally:
        if loaded_here:
            run([a.bin, "kernel", "unload"])


def builds(a, case):
    """The controllers' builds (digests) of CASE's runs, 'not recorded' for a run without one."""
    out = []
    for folder, _ in daemon_summaries(a, case):
        path = os.path.join(folder, "controllers.json")
        out.append(json.load(open(path))["digest"] if os.path.exists(path) else "not recorded")
    return out


def build_note(a, case):
    b = builds(a, case)
    kinds = sorted(set(b))
    return "; controllers' build (digest of the struct_ops programs' tags, controllers.json): " + ", ".join(
        f"{k} ({b.count(k)} runs)" for k in kinds) if b else ""


def daemon_summaries(a, case):
    """(run folder, summary) of each real run of CASE under DAEMON_RUNS."""
    out = []
    for path in sorted(glob.glob(os.path.join(a.daemon_runs, case, "real", "*", "summary.json"))):
        with open(path) as f:
            out.append((os.path.dirname(path), json.load(f)))
    return out


def decision_lines(log_path):
    """[(unix time, [group of each subflow])] of the daemon's decisions over two subflows or more."""
    out = []
    with open(log_path) as f:
        for line in f:
            m = re.match(r"t=([0-9.]+) token \S+ decision (.*)$", line.strip())
            if not m:
                continue
            groups = [g.split(":", 1)[1] for g in m.group(2).split() if g.startswith("sf") and ":" in g]
            if len(groups) >= 2:
                out.append((float(m.group(1)), groups))
    return out


def together(groups):
    return "0" not in groups and len(set(groups)) == 1


def uncoupled(groups):
    """Whether pp_mptcp_sbd stops coupling the subflows on this decision: some pair in different
    groups, or a subflow in group 0 (not bottlenecked and no partner found), which it runs
    alone (S0 §III-B.5; docs/kernel.md, "The SBD daemon")."""
    return not together(groups)


def shift_time_s(case="sbd-shifting"):
    """The shift of scenarios/fidelity/CASE.toml: the `start` of its second phase's UDP loads."""
    path = os.path.join(ROOT, f"scenarios/fidelity/{case}.toml")
    starts = set(re.findall(r'^start = "([0-9.]+)s"', open(path).read(), re.M))
    if len(starts) != 1:
        sys.exit(f"{path}: expected every UDP load of the second phase to start at one time (start = \"Ns\"), found {sorted(starts)}")
    return float(starts.pop())


def reaction_runs(a, case, before_right, reacted, ready):
    """Per run of a shifting CASE: (reaction s or None, right before the shift, decisions
    before, right from the reaction on, decisions from it, not yet, ready at the shift). The
    reaction is the first decision after the shift for which `reacted(groups)` holds, in runs
    `ready(decisions before the shift)`; "right" is `before_right` before the shift and
    `reacted` from the reaction on."""
    shift = shift_time_s(case)
    out = []
    for folder, s in daemon_summaries(a, case):
        t0 = s.get("sbd_daemon.traffic_start_unix_s")
        if t0 is None:
            sys.exit(f"{folder}/summary.json: lacks sbd_daemon.traffic_start_unix_s (run with a pathpool that writes it)")
        d = [(t - t0, g) for t, g in decision_lines(os.path.join(folder, "sbd.log"))]
        before = [g for t, g in d if t < shift]
        on = ready(before)
        first = next((t for t, g in d if t >= shift and reacted(g)), None) if on else None
        after = [g for t, g in d if first is not None and t >= first]
        out.append((None if first is None else first - shift, sum(map(before_right, before)), len(before),
                    sum(map(reacted, after)), len(after), s.get("sbd_daemon.not_yet", 0), on))
    return out


# The shifting cases: (case, the row's target, what is right before the shift, the reaction,
# which runs have one, what a run without one was at the shift, the reaction in words).
SHIFTS = [
    # Shared, then separate: pp_mptcp_sbd stops coupling the two subflows (`uncoupled`), in
    # runs coupled at the shift (the last decision together, or none: one group). A run
    # already uncoupled then has no reaction to measure: it counts as never reacting.
    ("sbd-shifting", "the SBD daemon reacts to a shifting bottleneck: <= 5 s (median)", together, uncoupled,
     lambda before: not before or together(before[-1]), "uncoupled before the shift",
     "together", "uncoupled", "the first decision after the shift on which pp_mptcp_sbd stops coupling the subflows "
     "(apart, or one in group 0, which it runs uncoupled), in runs where they were coupled at the shift"),
    # Separate, then shared: the first decision grouping them, in runs uncoupled at the shift
    # (without a decision before it they were one group: nothing to react to).
    ("sbd-shifting-join", "the SBD daemon groups the subflows once the bottleneck becomes shared: <= 5 s (median; not one of the targets)",
     uncoupled, together, lambda before: bool(before) and uncoupled(before[-1]), "coupled before the shift",
     "uncoupled", "together", "the first decision after the shift that groups the subflows, in runs where they were "
     "uncoupled at the shift"),
]


def shift_row(a, case, what, before_right, reacted, ready, not_ready, right_before, right_after, reaction):
    runs = reaction_runs(a, case, before_right, reacted, ready)
    if not runs:
        return f"| {what} | not measured | | | | | |"
    reactions = [r[0] for r in runs if r[0] is not None]
    missed = len(runs) - len(reactions)
    # A run without a reaction after the shift counts as never reacting.
    med = statistics.median(reactions + [float("inf")] * missed)
    verdict = "inside" if med <= 5 else "**outside**"
    rb, nb, ra, na = (sum(r[i] for r in runs) for i in (1, 2, 3, 4))
    per_run = ", ".join(("never" if r[6] else not_ready) if r[0] is None else f"{r[0]:.1f}" for r in runs)
    shown = "never" if med == float("inf") else f"{med:.1f} s"
    cellv = (f"median {shown}" + (f", range [{min(reactions):.1f}, {max(reactions):.1f}] s" if reactions else "") + f" ({len(runs)} runs: {per_run}" + (f"; {missed} without a reaction, counted as never" if missed else "") + "); "
             f"before the shift {rb} of {nb} decisions {right_before}, from the reaction on {ra} of {na} {right_after}; "
             f"abstained in {sum(r[5] for r in runs)} decision windows. The reaction: {reaction}{build_note(a, case)}")
    return f"| {what} | {cellv} | {verdict} | | | | |"


def daemon_rows(a):
    """The SBD daemon's rows: right decisions of all made, abstentions beside them."""
    rows = []
    for case, kind, key in (("sbd-shared", "groups the shared bottleneck", "decisions_together"),
                            ("sbd-disjoint", "separates the disjoint bottlenecks", "decisions_apart")):
        runs = [s for _, s in daemon_summaries(a, case)]
        total = sum(s.get("sbd_daemon.decisions", 0) for s in runs)
        right = sum(s.get(f"sbd_daemon.{key}", 0) for s in runs)
        not_yet = sum(s.get("sbd_daemon.not_yet", 0) for s in runs)
        shares = [s[f"sbd_daemon.{key}"] / s["sbd_daemon.decisions"] for s in runs if s.get("sbd_daemon.decisions")]
        if total:
            share = [s["mptcp_mbps"] / s["tcp_mbps"] for s in runs if s.get("tcp_mbps")]
            cellv = (f"{right} of {total} = {100 * right / total:.0f} %; per run {rng(shares)} ({len(shares)}); "
                     f"abstained ('not yet') in {not_yet} decision windows beside the {total} decisions; "
                     f"MPTCP-SBD / TCP in these runs {rng(share)}{build_note(a, case)}")
            rows.append(f"| the SBD daemon {kind}: >= 95 % of decisions | {cellv} | {inside(right / total, 0.95, None)} | | | | |")
        else:
            rows.append(f"| the SBD daemon {kind}: >= 95 % of decisions | not measured | | | | | |")
    rows += [shift_row(a, *shift) for shift in SHIFTS]
    return rows


# ---- 4. the receiver modes side by side ----

def modes_table(a):
    """The cause and the shared bottleneck's shares for every receiver mode measured."""
    measured = [m for m in ["stock"] + list(MODES) if glob.glob(os.path.join(a.out, "acks", f"{m}-*", "acks.txt"))
                or glob.glob(os.path.join(a.out, m, "*", "real", "*", "summary.json"))]
    label = {"stock": "as Linux has them", **{m: f"`{m}`: {MODES[m][0]}" for m in MODES}}
    cause = cause_table(a, [(m, label[m]) for m in measured])
    head = "| target | " + " | ".join(f"`{m}`" for m in measured) + " |"
    lines = [head, "|---" * (len(measured) + 1) + "|"]
    targets = [t for t in SHARE_TARGETS if t[0] in MODE_CASES]
    for case, what, low, high in targets:
        goal = f"[{low}, {high}]" if high else f">= {low}"
        row = [f"{what}: {goal}"]
        for m in measured:
            v = ratios(a, m, case)
            row.append(f"{cell(v)} {inside(statistics.median(v), low, high)}" if v else "not measured")
        lines.append("| " + " | ".join(row) + " |")
    row = ["uncoupled MPTCP / TCP, one shared bottleneck (simulator with the same receivers beside it)"]
    for m in measured:
        real, sim = ratios(a, m, "mptcp-shared"), ratios(a, m, "mptcp-shared", "sim")
        row.append(f"{cell(real)}; simulator {statistics.median(sim):.2f}" if real and sim else cell(real))
    lines.append("| " + " | ".join(row) + " |")
    text = cause + "\n\nMPTCP / TCP on one shared bottleneck, median [min, max] (runs) and verdict:\n\n" + "\n".join(lines)
    for m in measured:
        ld = loads(os.path.join(a.out, m))
        if ld:
            text += f"\n\nLoad average (1 min) at each case's start and end, `{m}`: {min(ld):.1f}-{max(ld):.1f} (median {statistics.median(ld):.1f})."
    return text


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "pathpool"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "realfair"))
    ap.add_argument("--daemon-runs", help="the SBD daemon's runs (default OUT/daemon)")
    ap.add_argument("--repeats", type=int, default=5, help="real runs of 60 s per case")
    ap.add_argument("--captures", type=int, default=3, help="captured 30 s runs with and without the fix")
    ap.add_argument("--doc", default=os.path.join(ROOT, "docs", "kernel.md"))
    ap.add_argument("--fix", default="read-ack", choices=sorted(MODES), help="the receiver mode the main tables call the receiver fix (its runs under OUT/MODE)")
    ap.add_argument("--daemon-fix", default="fixed", choices=sorted(MODES), help="the receiver mode the SBD daemon's runs are measured with")
    ap.add_argument("--python", default=sys.executable, help="a Python with the pathpool package, which reads the captures (docs/python.md)")
    ap.add_argument("--linux-queues-runs", help="an OUT of the same measurement with the subflows' send queues as Linux sizes them (`pathpool kernel load --linux-queues`): its runs with the fix fill a column of their own")
    ap.add_argument("--measured", action="store_true", help="write the tables from what is measured; run nothing")
    ap.add_argument("--daemon-only", action="store_true", help="measure only the SBD daemon's cases (into DAEMON_RUNS); --measured writes the tables")
    ap.add_argument("--print", action="store_true", help="print the tables instead of writing the doc")
    ap.add_argument("--modes", default="", help=f"other receiver modes to measure, comma-separated: {', '.join(m for m in MODES if m != 'fixed')} (item 4)")
    ap.add_argument("--mode-cases", default=",".join(MODE_CASES), help="the cases the --modes are measured on")
    a = ap.parse_args()
    a.daemon_runs = a.daemon_runs or os.path.join(a.out, "daemon")
    modes = [m for m in a.modes.split(",") if m]
    for m in modes:
        if m not in MODES or m == "fixed":
            sys.exit(f"realfair.py: --modes: unknown mode '{m}'; expected some of {', '.join(x for x in MODES if x != 'fixed')}")
    mode_cases = [c for c in a.mode_cases.split(",") if c]
    for c in mode_cases:
        if c not in CASES:
            sys.exit(f"realfair.py: --mode-cases: unknown case '{c}'; expected some of {', '.join(CASES)}")
    if not a.measured:
        if os.geteuid() != 0:
            sys.exit("realfair.py needs root to measure (the testbed and the BPF controllers); --measured writes the tables from earlier runs")
        if modes:
            capture_runs(a, modes)
            for m in modes:
                fidelity(a, m, cases=mode_cases)
            return
        if not a.daemon_only:
            capture_runs(a, ("stock", a.fix))
            fidelity(a, a.fix)
            fidelity(a, "stock")
        daemon_cases_with_controllers(a)
        if a.daemon_only:
            return
    cause, shares, by_mode = cause_table(a), shares_table(a), modes_table(a)
    if a.print:
        print(cause + "\n\n" + shares + "\n\n" + by_mode)
        return
    write_between(a.doc, CAUSE_BEGIN, CAUSE_END, cause)
    write_between(a.doc, BEGIN, END, shares)
    write_between(a.doc, MODES_BEGIN, MODES_END, by_mode)


if __name__ == "__main__":
    main()
