#!/usr/bin/env python3
"""Instructions executed by two builds of `pathpool` on the speed benchmarks B1 N=10 and MP
shared, with Linux hosts and with idealised hosts (docs/simulator.md, "The Linux-host model").

    python3 -m scripts.bench_instructions --old OLD_PATHPOOL [--bin target/release/pathpool]
        [--seconds 60] [--print]

Instruction counts (valgrind's cachegrind without its cache simulation) are exact and do not
move with other load on the machine, so one run of each is enough; wall time does (BENCHMARKS.md,
`make bench-hosts`). Each count is the whole process, start-up and output included, of
`pathpool run scenarios/bench/FILE --set simulation.hosts=MODEL --set simulation.duration=60s`.
The events column is summary.json's `events` of each build's run. The old build is any other
binary, typically one built from the commit before a change (`cargo build --release --locked
-p pathpool --features pathpool/kernel` in a separate checkout and target folder).

Without --print the table goes into docs/simulator.md between `<!-- bench_instructions: begin -->`
and `<!-- bench_instructions: end -->`.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from scripts.doc_table import emit, table_arguments

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIOS = [
    ("scenarios/bench/b1-n10.toml", "B1, N=10"),
    ("scenarios/bench/mp-n10.toml", "MP shared, 5 TCP + 5 LIA"),
]
MODELS = ["linux-6.18", "ideal"]
BEGIN, END = "<!-- bench_instructions: begin -->", "<!-- bench_instructions: end -->"


def instructions(argv):
    """(instructions, stdout) of one run of argv under cachegrind without its cache simulation."""
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", *argv]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{p.stderr[-2000:]}")
    m = re.search(r"I\s+refs:\s+([\d,]+)", p.stderr)
    if not m:
        sys.exit(f"{argv[0]}: valgrind printed no instruction count")
    return int(m.group(1).replace(",", "")), p.stdout


def require(binaries, hint):
    """Exits naming what is missing: valgrind, or one of the binaries (`hint` says how to
    build it)."""
    if not shutil.which("valgrind"):
        sys.exit("valgrind: not found (make deps-valgrind installs it as root)")
    for b in binaries:
        if not os.access(b, os.X_OK):
            sys.exit(f"{b!r}: not an executable file ({hint})")


def count(binary, scenario, model, seconds, scratch):
    """(instructions, events) of one run."""
    out = os.path.join(scratch, f"{os.path.basename(scenario)}-{model}-{abs(hash(binary))}")
    n, _ = instructions([binary, "run", os.path.join(ROOT, scenario), "--out", out,
                         "--set", f"simulation.hosts={model}", "--set", f"simulation.duration={seconds}s"])
    with open(os.path.join(out, "summary.json")) as f:
        events = json.load(f)["events"]
    return n, events


def main():
    ap = table_arguments(ROOT, "bench-instructions", 1, "docs/simulator.md")
    ap.add_argument("--old", required=True, help="the other build of pathpool to compare with")
    ap.add_argument("--seconds", type=int, default=60)
    args = ap.parse_args()
    require((args.old, args.bin), "build it first; the old one is given as --old, or OLD= to make bench-instructions")
    started = time.time()
    counts = {}
    with tempfile.TemporaryDirectory() as scratch:
        for scenario, _ in SCENARIOS:
            for model in MODELS:
                for which, b in (("old", args.old), ("new", args.bin)):
                    counts[scenario, model, which] = count(b, scenario, model, args.seconds, scratch)
                    print(f"{scenario} {model} {which}: {counts[scenario, model, which][0]:,}", file=sys.stderr)
    rows = []
    for scenario, label in SCENARIOS:
        for model in MODELS:
            (old, old_ev), (new, new_ev) = counts[scenario, model, "old"], counts[scenario, model, "new"]
            rows.append(f"| {label}, {args.seconds} s | {model} | {old / 1e6:.0f} M | {new / 1e6:.0f} M | {100 * (new / old - 1):+.1f} % | {old_ev} / {new_ev} |")
        ratio = lambda w: counts[scenario, "linux-6.18", w][0] / counts[scenario, "ideal", w][0]
        rows.append(f"| {label}, {args.seconds} s | linux-6.18 / ideal | {ratio('old'):.2f} | {ratio('new'):.2f} | | |")
    cmd = f"python3 -m scripts.bench_instructions --old OLD --seconds {args.seconds}"
    name = lambda b: os.path.relpath(b, ROOT) if os.path.abspath(b).startswith(ROOT + os.sep) else os.path.basename(b)
    text = "\n".join([
        f"Written by `{cmd}` on {time.strftime('%Y-%m-%d')} ({(time.time() - started) / 60:.1f} min; "
        f"old: `{name(args.old)}`, new: `{name(args.bin)}`; instructions of the whole process, valgrind's cachegrind):",
        "",
        "| scenario | hosts | old | new | change | events (old / new) |",
        "|---|---|---|---|---|---|",
        *rows,
    ])
    emit(text, args.print, os.path.join(ROOT, "docs", "simulator.md"), BEGIN, END)


if __name__ == "__main__":
    main()
