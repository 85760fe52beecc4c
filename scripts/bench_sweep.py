#!/usr/bin/env python3
"""How a sweep scales with Dask worker processes (BENCHMARKS.md, "Sweeps").

    python3 -m scripts.bench_sweep [--runs 200] [--repeats 3] [--workers 1,2] [--doc BENCHMARKS.md]

Runs one grid of quick runs (scenarios/examples/dumbbell.toml at `--duration`, the
bottleneck's rate x seeds, `--runs` runs in all) through ``pathpool.sweep`` on a Dask
LocalCluster of 1 and of 2 worker processes (one thread each), into a new empty folder every
time, so every run is computed. Each sweep has a cluster of its own, the only one alive (an
idle cluster beside it keeps taking CPU while it waits: its workers, scheduler and nannies
wake up on timers); the cluster is started and has run an untimed warm-up
sweep of 10 runs (workers import pathpool; the caller reads the extension once for its
build digest) before the clock starts: what is timed is the sweep itself (checking the grid,
submitting, running, storing each result). The worker counts alternate (1, 2, 1, 2, ...)
`--repeats` times so that both see the machine in the same state; the table gives the
median runs per second of each, their range, the scaling ratio (median with the most
workers / median with one) and the load average before and after. Needs the pathpool
package and dask.distributed installed (docs/python.md, "Install").

Each cluster is `pathpool.local_cluster`'s: Dask's timers, which wake the scheduler, the
nannies and the workers many times a second whether or not they work, rare or off
(docs/python.md, "Dask's own timers"). --dask-defaults starts a plain LocalCluster with Dask's
default settings instead, to measure what those timers cost.

--doc FILE writes the table with its command, date and conditions between the lines
`<!-- bench_sweep: begin -->` and `<!-- bench_sweep: end -->` of FILE (with --batch N:
`<!-- bench_sweep --batch N: begin -->` and `<!-- bench_sweep --batch N: end -->`; with
--dask-defaults: `<!-- bench_sweep --dask-defaults: begin -->` and its end).
"""

import argparse
import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from scripts.doc_table import write_between

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = "scenarios/examples/dumbbell.toml"


def markers(batch, dask_defaults):
    """The doc's markers: one pair for pathpool's own batching, one per forced batch size
    (BENCHMARKS.md keeps one run per task beside the default, as the reason for batching),
    one for Dask's default settings (beside pathpool.local_cluster's, as the reason for them)."""
    name = "bench_sweep" + (f" --batch {batch}" if batch is not None else "") + (" --dask-defaults" if dask_defaults else "")
    return f"<!-- {name}: begin -->", f"<!-- {name}: end -->"


RATES = ["10Mbps", "20Mbps", "30Mbps", "40Mbps", "50Mbps", "60Mbps", "70Mbps", "80Mbps", "90Mbps", "100Mbps"]


def grid_for(runs):
    """(grid, seeds) of exactly `runs` runs: the ten rates times runs / 10 seeds."""
    if runs < len(RATES) or runs % len(RATES):
        sys.exit(f"--runs: expected a multiple of {len(RATES)} (ten bottleneck rates x seeds), got {runs}")
    return {"links.bottleneck.rate": RATES}, list(range(1, runs // len(RATES) + 1))


def positive_list(text):
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        values = []
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"expected comma-separated whole numbers >= 1, got {text!r}")
    return values


def cpu_seconds(process):
    t = process.cpu_times()
    return t.user + t.system


def machine_busy():
    """CPU seconds the whole machine has spent busy since boot (every core; not idle, not
    waiting for I/O, not stolen by the hypervisor)."""
    import psutil

    t = psutil.cpu_times()
    return t.user + t.nice + t.system + getattr(t, "irq", 0) + getattr(t, "softirq", 0)


def cpu_now(client):
    """CPU seconds so far of (this process, the workers, the other processes it started, the
    whole machine). A LocalCluster's scheduler and nannies run in this process, so they
    count as the caller."""
    import psutil

    me = psutil.Process()
    workers = client.run(lambda: os.getpid())
    others = [p for p in me.children(recursive=True) if p.pid not in workers.values()]
    on_workers = sum(client.run(lambda: cpu_seconds(__import__("psutil").Process())).values())
    return cpu_seconds(me), on_workers, sum(cpu_seconds(p) for p in others), machine_busy()


def timed_sweep(pathpool, client, grid, seeds, overrides, batch):
    """(seconds, CPU seconds of (caller, workers, other children, other jobs on the machine))
    of one sweep into a new empty folder (every run computed)."""
    with tempfile.TemporaryDirectory(prefix="pathpool-bench-sweep-") as out:
        before = cpu_now(client)
        start = time.perf_counter()
        # batch only when asked for: a pathpool from before batching measures as it is.
        forced = {} if batch is None else {"batch": batch}
        df = pathpool.sweep(ROOT / SCENARIO, grid=grid, seeds=seeds, out=out, client=client, overrides=overrides, progress=False, **forced)
        elapsed = time.perf_counter() - start
        after = cpu_now(client)
    if df.attrs["ran"] != len(df):
        sys.exit(f"expected every run computed, got {df.attrs}")
    spent = [b - a for a, b in zip(before, after)]
    # What the machine did beside this sweep: its busy time less this benchmark's processes'.
    spent[3] = max(0.0, spent[3] - sum(spent[:3]))
    return elapsed, spent


def measure(a):
    """(runs per second, CPU split, other jobs' cores), each {workers: [one per repeat]},
    alternating the worker counts."""
    import distributed

    logging.getLogger("distributed").setLevel(logging.ERROR)

    import pathpool

    grid, seeds = grid_for(a.runs)
    overrides = {"simulation.duration": a.duration, "simulation.warmup": "0s"}
    rates = {w: [] for w in a.workers}
    cpu = {w: [] for w in a.workers}
    busy = {w: [] for w in a.workers}
    for repeat in range(a.repeats):
        for w in a.workers:
            if a.dask_defaults:
                cluster = distributed.LocalCluster(n_workers=w, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR)
            else:
                cluster = pathpool.local_cluster(w, silence_logs=logging.ERROR)
            with cluster, distributed.Client(cluster) as client:
                # Untimed: the workers import pathpool, and the first sweep of this process
                # reads the extension (tens of MB) for its build digest, once.
                timed_sweep(pathpool, client, {"links.bottleneck.rate": RATES[:1]}, list(range(1, 11)), overrides, a.batch)
                seconds, spent = timed_sweep(pathpool, client, grid, seeds, overrides, a.batch)
            rates[w].append(a.runs / seconds)
            cpu[w].append(spent)
            busy[w].append(spent[3] / seconds)
            print(
                f"repeat {repeat + 1}: {w} worker process(es): {a.runs} runs in {seconds:.2f} s = {a.runs / seconds:.1f} runs/s; "
                f"CPU per run: caller {1000 * spent[0] / a.runs:.1f} ms, workers {1000 * spent[1] / a.runs:.1f} ms, other {1000 * spent[2] / a.runs:.1f} ms; "
                f"other jobs on the machine {spent[3] / seconds:.2f} cores",
                flush=True,
            )
    return rates, cpu, busy


def table(a, rates, cpu, busy, load_before, load_after, elapsed):
    one = statistics.median(rates[min(a.workers)])
    lines = [
        f"Written by `{command(a)}` on {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC ({elapsed / 60:.1f} min; "
        f"{os.cpu_count()} cores; load average {load_before:.2f} before, {load_after:.2f} after). {a.runs} runs of `{SCENARIO}` "
        f"at {a.duration} simulated (ten bottleneck rates x {a.runs // len(RATES)} seeds) per sweep, each sweep into a new empty "
        f"folder, a new Dask LocalCluster per sweep (the only one alive) with one thread per worker process (after an untimed warm-up sweep of 10 runs), "
        f"{batch_words(a.batch)}, {'Dask default settings' if a.dask_defaults else 'pathpool.local_cluster (Dask timers rare or off)'}, worker counts alternating, "
        f"{a.repeats} sweeps each. CPU per run (medians): the caller (pathpool.sweep, the client and LocalCluster's scheduler and nannies, "
        "one process), the workers, and the other processes the caller started; the last column is the CPU the rest of the machine "
        "used meanwhile (its busy time less this benchmark's processes', in cores, median and range): what two workers could not have.",
        "",
        "| worker processes | runs per second (median) | range | scaling (median / median with 1) | CPU per run: caller / workers / other | other jobs on the machine (cores) |",
        "|---|---|---|---|---|---|",
    ]
    for w in a.workers:
        med = statistics.median(rates[w])
        caller, workers, nannies = (1000 * statistics.median(c[i] for c in cpu[w]) / a.runs for i in range(3))
        lines.append(
            f"| {w} | {med:.2f} | {min(rates[w]):.2f}-{max(rates[w]):.2f} | **{med / one:.2f}** | {caller:.1f} / {workers:.1f} / {nannies:.1f} ms "
            f"| {statistics.median(busy[w]):.2f} ({min(busy[w]):.2f}-{max(busy[w]):.2f}) |"
        )
    return "\n".join(lines)


def batch_words(batch):
    return "pathpool's own choice of runs per task" if batch is None else f"{batch} run{'s' if batch != 1 else ''} per task"


def command(a):
    argv = ["python3 -m scripts.bench_sweep"]
    argv += [f"--runs {a.runs}"] if a.runs != 200 else []
    argv += [f"--repeats {a.repeats}"] if a.repeats != 3 else []
    argv += [f"--duration {a.duration}"] if a.duration != DURATION else []
    argv += [f"--workers {','.join(map(str, a.workers))}"] if a.workers != [1, 2] else []
    argv += [f"--batch {a.batch}"] if a.batch is not None else []
    argv += ["--dask-defaults"] if a.dask_defaults else []
    return " ".join(argv + ([f"--doc {a.doc}"] if a.doc else []))


DURATION = "25s"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=200, help="runs per sweep, a multiple of 10 (default 200)")
    ap.add_argument("--repeats", type=int, default=3, help="sweeps per worker count (default 3)")
    ap.add_argument("--duration", default=DURATION, help=f"simulated time of each run (default {DURATION})")
    ap.add_argument("--workers", type=positive_list, default=[1, 2], help="worker process counts (default 1,2)")
    ap.add_argument("--batch", type=int, help="runs per Dask task (default: pathpool.sweep's own choice)")
    ap.add_argument("--dask-defaults", action="store_true", help="a plain LocalCluster with Dask's default settings instead of pathpool.local_cluster (its timers rare or off)")
    ap.add_argument("--doc", help="write the table between the bench_sweep markers of this file")
    a = ap.parse_args()
    if a.repeats < 1:
        sys.exit(f"--repeats: expected a whole number >= 1, got {a.repeats}")
    if a.batch is not None and a.batch < 1:
        sys.exit(f"--batch: expected a whole number >= 1, got {a.batch}")
    grid_for(a.runs)
    begin, end = markers(a.batch, a.dask_defaults)
    if a.doc and (begin not in Path(a.doc).read_text() or end not in Path(a.doc).read_text()):
        sys.exit(f"{a.doc}: expected the lines {begin!r} and {end!r}")  # before minutes of runs
    load_before, started = os.getloadavg()[0], time.time()
    rates, cpu, busy = measure(a)
    text = table(a, rates, cpu, busy, load_before, os.getloadavg()[0], time.time() - started)
    print(text)
    if a.doc:
        write_between(a.doc, begin, end, text)


if __name__ == "__main__":
    main()
