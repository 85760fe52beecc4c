"""Memory over long runs (BENCHMARKS.md, "Memory over long runs"): runs the speed
benchmark's MP scenario (LIA, and the same with MPTCP-SBD) and S with 1000 flows for a
simulated hour, sampling the live heap (counted by the benchmark's allocator) and the
resident set every simulated minute, and writes the table between the markers of
BENCHMARKS.md. Exits 1 when a run's heap after warm-up leaves a 5 % band around its value at
the end of warm-up.

    python3 -m scripts.long_runs --bench target/release/examples/bench [--seconds 3600]
"""
import argparse
import subprocess
import sys
import time

from scripts.doc_table import write_between

BEGIN = "<!-- table: make bench-long -->"
END = "<!-- end table -->"
TOLERANCE = 0.05

# (label, bench arguments before the duration, extra arguments after the sample period)
RUNS = [
    ("MP shared, 5 TCP + 5 LIA", ["mp", "10"], []),
    ("MP shared, 5 TCP + 5 MPTCP-SBD", ["mpsbd", "10"], []),
    ("MP shared, 5 TCP + 5 MPTCP-SBD, detector logs kept in memory", ["mpsbd", "10"], ["keep"]),
    ("S, 1 Gb/s, 1000 TCP flows", ["s", "1000"], []),
]


def run(bench, args, seconds, every, extra):
    t0 = time.monotonic()
    out = subprocess.run([bench, *args, str(seconds), str(every), *extra], check=True, capture_output=True, text=True).stdout
    wall = time.monotonic() - t0
    samples = []
    for line in out.splitlines():
        if line.startswith("memory "):
            samples.append({k: int(v) for k, v in (f.split("=") for f in line.split()[1:])})
    return samples, wall


def mib(b):
    return f"{b / 2**20:.2f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", default="target/release/examples/bench")
    ap.add_argument("--seconds", type=int, default=3600)
    ap.add_argument("--every", type=int, default=60, help="simulated seconds between samples")
    ap.add_argument("--warmup", type=int, default=300, help="simulated seconds before the band starts")
    ap.add_argument("--doc", default="BENCHMARKS.md")
    ap.add_argument("--no-write", action="store_true")
    a = ap.parse_args()
    load = open("/proc/loadavg").read().split()[0]
    rows = [
        "| run (seed 1) | samples | heap at warm-up end MiB | heap after warm-up, min-max MiB | largest change | RSS at warm-up end / at the end MiB | detector records streamed out | wall s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    failed = []
    for label, args, extra in RUNS:
        samples, wall = run(a.bench, args, a.seconds, a.every, extra)
        base = next(s for s in samples if s["sim_seconds"] >= a.warmup)
        after = [s for s in samples if s["sim_seconds"] >= a.warmup]
        heaps = [s["heap_bytes"] for s in after]
        change = max(abs(h - base["heap_bytes"]) for h in heaps) / base["heap_bytes"]
        flat = change <= TOLERANCE
        if not flat and "kept" not in label:
            failed.append(label)
        rows.append(
            f"| {label} | {len(samples)} | {mib(base['heap_bytes'])} | {mib(min(heaps))}-{mib(max(heaps))} | "
            f"{100 * change:+.1f} %{'' if flat else ' (grows)'} | {base['rss_kib'] / 1024:.1f} / {samples[-1]['rss_kib'] / 1024:.1f} | "
            f"{samples[-1]['records_out'] if not extra else 'kept'} | {wall:.0f} |"
        )
        print(rows[-1], flush=True)
    load_end = open("/proc/loadavg").read().split()[0]
    text = "\n".join(rows) + (
        f"\n\n{a.seconds} simulated seconds, a sample every {a.every} s, warm-up {a.warmup} s; "
        f"load average {load} before, {load_end} after."
    )
    if not a.no_write:
        write_between(a.doc, BEGIN, END, text)
    if failed:
        sys.exit(f"heap not flat within {TOLERANCE:.0%} after warm-up: {', '.join(failed)}")


if __name__ == "__main__":
    main()
