#!/usr/bin/env python3
"""What the Linux-host model costs: time per packet of `simulation.hosts = "linux-6.18"` (the
default, docs/fidelity.md) against idealised hosts, on the speed benchmarks B1 N=10 and MP
shared (BENCHMARKS.md, "Linux hosts against idealised hosts").

    python3 -m scripts.bench_hosts [--bin target/release/pathpool] [--runs 5]
        [--instructions [--seconds 60]] [--print]

Each scenario file runs with one host model, then the other, in turn (one warm-up run each,
then ideal, linux, ideal, linux, ...), so that both see the machine in the same state. Time
per packet is the process's CPU time (user + system, the operating system's accounting of the
finished child) over the data packets that left the bottleneck queue, and the simulation's
own wall time over them (summary.json's `wall_seconds`: the event loop, without start-up and
output). The ratio of the medians and the range of the pairwise ratios are given for both;
CPU time is the one time sharing with other jobs disturbs less. The load average is read
before and after each scenario.

A second table says where the Linux hosts' extra time goes: the same runs with one part of
the model turned off at a time (the flow keys `send_jitter = "0s"`, `send_buffer =
"unlimited"`, `rto = "rfc6298"`, and `simulation.host_latency = "0s"`), each part's cost being
the median of what turning it off saves, run by run, in CPU ns per packet.

A third table splits the send jitter's cost into its work and its randomness: idealised hosts
with the send jitter alone, once Linux's 350 us (packets of different senders reach the
bottleneck in an order the draws decide) and once 1 ns (the same draws, merging and decisions,
with packets arriving in the order they were sent), each against idealised hosts in the same
rounds. With `--instructions` it also counts both variants' instructions (valgrind's
cachegrind, `--seconds` simulated), which says whether they did the same work.

Without --print the table goes into BENCHMARKS.md between `<!-- bench_hosts: begin -->` and
`<!-- bench_hosts: end -->`.
"""

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib

from scripts.bench_instructions import instructions
from scripts.doc_table import emit, table_arguments

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = ["ideal", "linux-6.18"]
# The parts of the Linux-host model that can be turned off one at a time: (name, the simulation
# key, the flow key, its value).
PARTS = [
    ("send jitter (`send_jitter`)", None, "send_jitter", "0s"),
    ("receiving host's latency (`host_latency`)", "host_latency", None, "0s"),
    ("Linux 6.18's send buffer (`send_buffer`)", None, "send_buffer", "unlimited"),
    ("Linux's RTO rule (`rto`)", None, "rto", "rfc6298"),
]
# Idealised hosts with the send jitter alone: Linux's (packets of different senders arrive
# at the bottleneck in an order the draws decide) and one so short that they arrive in the
# order they were sent, with the same work done per packet.
JITTERS = [("ideal + send jitter 350us", "350us"), ("ideal + send jitter 1ns", "1ns")]
SCENARIOS = [
    ("scenarios/bench/b1-n10.toml", "B1, N=10, 600 s"),
    ("scenarios/bench/mp-n10.toml", "MP shared, 5 TCP + 5 LIA, 600 s"),
]
BEGIN, END = "<!-- bench_hosts: begin -->", "<!-- bench_hosts: end -->"


def load():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def variants(scenario):
    """(name, --set values) of every run of one round: the two host models, then the Linux
    model with each part off."""
    with open(scenario, "rb") as f:
        flows = len(tomllib.load(f).get("flows", []))
    linux = ["simulation.hosts=linux-6.18"]
    out = [(m, [f"simulation.hosts={m}"]) for m in MODELS]
    for name, sim_key, flow_key, value in PARTS:
        sets = [f"simulation.{sim_key}={value}"] if sim_key else [f"flows.{i}.{flow_key}={value}" for i in range(flows)]
        out.append((name, linux + sets))
    for name, jitter in JITTERS:
        out.append((name, ["simulation.hosts=ideal"] + [f"flows.{i}.send_jitter={jitter}" for i in range(flows)]))
    return out


def run_once(binary, scenario, name, sets, out):
    """One run: (CPU ns per packet, wall ns per packet, events per packet)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    argv = [binary, "run", scenario, "--out", out]
    for value in sets:
        argv += ["--set", value]
    proc = subprocess.run(argv, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"{binary} run {scenario} ({name}) failed:\n{proc.stderr}")
    with open(os.path.join(out, "summary.json")) as f:
        s = json.load(f)
    packets = s["data_packets"]
    if not packets:
        sys.exit(f"{scenario} ({name}): no data packets left the bottleneck")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu * 1e9 / packets, s["wall_seconds"] * 1e9 / packets, s["events"] / packets


def measure(binary, scenario, runs, scratch):
    """Interleaved runs of every variant: {name: [(cpu, wall, events), ...]}."""
    out = os.path.join(scratch, "run")
    todo = variants(scenario)
    for name, sets in todo[: len(MODELS)]:  # warm-up, not counted
        run_once(binary, scenario, name, sets, out)
    results = {name: [] for name, _ in todo}
    for _ in range(runs):
        for name, sets in todo:
            results[name].append(run_once(binary, scenario, name, sets, out))
    return results


def spread(values):
    return f"{statistics.median(values):.0f} [{min(values):.0f}, {max(values):.0f}]"


def row(description, results, load_before, load_after):
    ideal, linux = results["ideal"], results["linux-6.18"]
    cells = [description]
    for k in (0, 1):  # CPU, wall
        i, l = [r[k] for r in ideal], [r[k] for r in linux]
        pairs = [b / a for a, b in zip(i, l)]
        ratio = statistics.median(l) / statistics.median(i)
        cells += [spread(i), spread(l), f"**{ratio:.2f}** ({min(pairs):.2f}-{max(pairs):.2f})"]
    cells.append(f"{statistics.median(r[2] for r in ideal):.2f} / {statistics.median(r[2] for r in linux):.2f}")
    cells.append(f"{load_before:.2f} -> {load_after:.2f}")
    return "| " + " | ".join(cells) + " |"


def parts_row(description, results):
    """What turning each part off saves: the median over runs of linux minus the variant."""
    linux = [r[0] for r in results["linux-6.18"]]
    ideal = statistics.median(r[0] for r in results["ideal"])
    extra = statistics.median(linux) - ideal
    cells = [description, f"{extra:.0f}"]
    for name, *_ in PARTS:
        saved = statistics.median(a - r[0] for a, r in zip(linux, results[name]))
        events = statistics.median(r[2] for r in results[name])
        cells.append(f"{saved:.0f} ({events:.2f})")
    return "| " + " | ".join(cells) + " |"


def jitter_row(description, results, counts):
    """The send jitter's cost on idealised hosts: each jitter's CPU time per packet over the
    hosts' without it (pairwise, per round), and the long jitter's over the short one's."""
    ideal = [r[0] for r in results["ideal"]]
    (long_name, _), (short_name, _) = JITTERS
    long_, short = [r[0] for r in results[long_name]], [r[0] for r in results[short_name]]

    def ratio(a, b):
        pairs = [x / y for x, y in zip(a, b)]
        return f"**{statistics.median(pairs):.2f}** ({min(pairs):.2f}-{max(pairs):.2f})"

    cells = [description, spread(ideal), spread(short), ratio(short, ideal), spread(long_), ratio(long_, ideal), ratio(long_, short)]
    if counts is not None:
        cells.append(" / ".join(f"{counts[name] / 1e6:.0f} M" for name in ("ideal", short_name, long_name)))
    return "| " + " | ".join(cells) + " |"


def jitter_instructions(binary, scenario, seconds, scratch):
    """{variant: instructions} of one run of idealised hosts and of each jitter variant."""
    todo = dict(variants(scenario))
    counts = {}
    for name in ["ideal"] + [n for n, _ in JITTERS]:
        argv = [binary, "run", scenario, "--out", os.path.join(scratch, "count"), "--set", f"simulation.duration={seconds}s"]
        for value in todo[name]:
            argv += ["--set", value]
        counts[name], _ = instructions(argv)
    return counts


def main():
    ap = table_arguments(ROOT, "bench-hosts", 1, "BENCHMARKS.md")
    ap.add_argument("--runs", type=int, default=5, help="counted runs of each host model per scenario")
    ap.add_argument("--instructions", action="store_true", help="also count the send jitter variants' instructions (valgrind)")
    ap.add_argument("--seconds", type=int, default=60, help="simulated seconds of the instruction counts")
    args = ap.parse_args()
    if args.runs < 1:
        sys.exit(f"--runs: expected at least 1, got {args.runs}")
    if args.seconds < 1:
        sys.exit(f"--seconds: expected at least 1, got {args.seconds}")
    if not os.access(args.bin, os.X_OK):
        sys.exit(f"--bin {args.bin}: no such executable (make build)")
    if args.instructions and not shutil.which("valgrind"):
        sys.exit("--instructions: valgrind not found (make deps-valgrind installs it as root)")
    started = time.time()
    rows, parts, jitters = [], [], []
    with tempfile.TemporaryDirectory() as scratch:
        for scenario, description in SCENARIOS:
            before = load()
            path = os.path.join(ROOT, scenario)
            results = measure(args.bin, path, args.runs, scratch)
            rows.append(row(description, results, before, load()))
            parts.append(parts_row(description, results))
            counts = jitter_instructions(args.bin, path, args.seconds, scratch) if args.instructions else None
            jitters.append(jitter_row(description, results, counts))
            print(rows[-1], parts[-1], jitters[-1], sep="\n", flush=True)
    minutes = (time.time() - started) / 60
    command = f"python3 -m scripts.bench_hosts --runs {args.runs}" + (f" --instructions --seconds {args.seconds}" if args.instructions else "")
    jitter_head = "| scenario | ideal, CPU ns/packet | + send jitter 1 ns | 1 ns / ideal | + send jitter 350 us | 350 us / ideal | 350 us / 1 ns |"
    if args.instructions:
        jitter_head += f" instructions over {args.seconds} s (ideal / 1 ns / 350 us) |"
    text = "\n".join(
        [
            f"Written by `{command}` on {time.strftime('%Y-%m-%d', time.gmtime())} "
            f"({args.runs} counted runs of each variant per scenario, alternating; {minutes:.1f} min; "
            "ns per data packet through the bottleneck, median [min, max]; the ratio is linux-6.18 / ideal, "
            "of the medians, with the range of the pairwise ratios):",
            "",
            "| scenario | ideal, CPU ns/packet | linux-6.18, CPU ns/packet | CPU ratio | ideal, wall ns/packet | "
            "linux-6.18, wall ns/packet | wall ratio | events per packet (ideal / linux-6.18) | load avg before -> after |",
            "|---|---|---|---|---|---|---|---|---|",
            *rows,
            "",
            "Where the extra time goes: CPU ns per packet that turning one part of the Linux-host model off "
            "saves (median over the runs of the difference to the whole model; events per packet with "
            "that part off in brackets). The parts need not add up to the whole: they share cache and events.",
            "",
            "| scenario | linux-6.18 over ideal | " + " | ".join(name for name, *_ in PARTS) + " |",
            "|---|---|" + "---|" * len(PARTS),
            *parts,
            "",
            "The send jitter's work and its randomness: idealised hosts with the send jitter alone, CPU ns per "
            "packet, median [min, max]; the ratios are medians of the pairwise ratios within each round (range "
            "in brackets). With 1 ns the jitter does its work (a draw per packet, the merged queue's ordering "
            "and decisions) with packets arriving in the order they were sent; with 350 us, as on Linux hosts, "
            "in an order the draws decide.",
            "",
            jitter_head,
            "|---|---|---|---|---|---|---|" + ("---|" if args.instructions else ""),
            *jitters,
        ]
    )
    emit(text, args.print, os.path.join(ROOT, "BENCHMARKS.md"), BEGIN, END)


if __name__ == "__main__":
    main()
