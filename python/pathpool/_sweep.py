"""pathpool.sweep(): a cartesian grid of overrides x seeds, one simulation per point and seed,
each run's summary stored in its own JSON file as soon as it finishes, so that calling again
with the same ``out`` runs only what is missing (docs/python.md, "Sweeps").

The runs execute on this machine's cores in threads (the simulator releases the GIL) or, with
a ``dask.distributed.Client``, on that client's cluster. Results are written by the caller, not
by the workers, so a cluster needs no shared file system.
"""

import functools
import hashlib
import itertools
import json
import math
import os
import warnings
from collections.abc import Mapping
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor
from concurrent.futures import wait as futures_wait
from pathlib import Path

import pandas as pd
from tqdm.auto import tqdm

from pathpool import _pathpool
from pathpool import _sweep_store as _store
from pathpool._args import cc_arg, override_list, scenario_arg, seeds_arg
from pathpool._columns import grid_columns, typed_params

#: The grid key that selects the multipath congestion control (``--cc``) instead of a value
#: of the scenario.
CC = "cc"


@functools.cache
def _build_digest():
    """The extension module's digest, read once per process in 1 MiB pieces (it is tens of MB)."""
    h = hashlib.sha256()
    with open(_pathpool.__file__, "rb") as f:
        for piece in iter(lambda: f.read(1 << 20), b""):
            h.update(piece)
    return h.hexdigest()[:16]


def _scenario_text(scenario):
    """(name, TOML text): a sweep ships the scenario's text to the workers, not its path."""
    s = scenario_arg(scenario)
    if isinstance(s, dict):
        return "<dict>", _pathpool.to_toml(s)
    if isinstance(s, str) and ("\n" in s or "=" in s):
        return "<string>", s
    if isinstance(s, str):
        try:
            return s, Path(s).read_text()
        except OSError as e:
            raise _pathpool.ScenarioError(f"{s}: cannot read the scenario file: {e}") from None
    raise _pathpool.ScenarioError(f"scenario: expected a file path, a TOML string or a dict, got a value of type {type(s).__name__}")


def _run_task(task):
    """One run, on a worker: returns its summary as a dict."""
    from pathpool import _pathpool as ext

    return json.loads(ext.summarize(task["text"], task["overrides"], task["seed"], task["cc"], task["name"]))


def _run_batch(tasks):
    """Several runs as one Dask task, on a worker: (summary, None) or (None, error) per run,
    so that one run's failure loses none of the others."""
    done = []
    for task in tasks:
        try:
            done.append((_run_task(task), None))
        except Exception as e:
            done.append((None, f"{type(e).__name__}: {e}"))
    return done


#: At most this many runs per Dask task. A task costs the worker and the caller (with its
#: scheduler) a few milliseconds each, as much as a quick run itself; ten runs a task make
#: that a tenth, while results still arrive (and are stored) every few runs.
BATCH_MAX = 10


def _batch_arg(batch):
    """``batch`` checked: a fixed number of runs per Dask task, or None (guided, _guided_size)."""
    if batch is not None and (isinstance(batch, bool) or not isinstance(batch, int) or batch < 1):
        raise _pathpool.ScenarioError(f"batch: expected a whole number >= 1 or None (chosen from the grid's size), got {batch!r}")
    return batch


def _guided_size(remaining, in_flight):
    """Runs in the next Dask task when ``remaining`` runs of the grid are not submitted yet and
    up to ``in_flight`` tasks run at once: guided self-scheduling (Polychronopoulos and Kuck,
    IEEE Trans. Computers 36(12), 1987), each task takes 1/in_flight of what remains, at most
    BATCH_MAX, at least 1. Large tasks while much remains keep the cost per task small; the
    last tasks hold a run each, so the end of a sweep spreads over every worker instead of
    one worker finishing a task of BATCH_MAX runs while the others wait."""
    return max(1, min(BATCH_MAX, -(-remaining // in_flight)))


def _grid_arg(grid):
    """The grid as (keys, value lists); each key's values are listed once (they are few), the
    points themselves never are."""
    if grid is not None and not isinstance(grid, Mapping):
        raise _pathpool.ScenarioError(f"grid: expected a dict of dotted keys (or 'cc') to lists of values, got a value of type {type(grid).__name__}")
    keys, lists = [], []
    for k, values in dict(grid or {}).items():
        if not isinstance(k, str):
            raise _pathpool.ScenarioError(f"grid: expected string keys (dotted paths or 'cc'), got {k!r}")
        if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
            raise _pathpool.ScenarioError(f"grid: {k}: expected a list of values, got {values!r}")
        values = list(values)
        if k == CC:
            for i, v in enumerate(values):
                cc_arg(v, f"grid: cc[{i}]")
        keys.append(k)
        lists.append(values)
    return keys, lists


def _points(keys, lists):
    """The grid's points, one at a time (a lazy product)."""
    for values in itertools.product(*lists):
        yield dict(zip(keys, values))


def _workers_arg(workers):
    if workers is None:
        return os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise _pathpool.ScenarioError(f"workers: expected a whole number >= 1 or None (every core), got {workers!r}")
    return workers


def sweep(scenario, grid=None, seeds=(1,), out="sweep", client=None, cc=None, overrides=None, workers=None, progress=True, batch=None):
    """Runs ``scenario`` at every point of ``grid`` (dotted key -> list of values; the key
    ``"cc"`` selects the multipath congestion control) for every seed in ``seeds``.

    Each finished run is stored as ``out/<run id>.json`` (its parameters, seed, summary and a
    digest of them); a run whose file exists and matches its digest is not run again, one
    that does not match is run again and counted. ``client=None`` uses ``workers`` threads
    (default: every core); a ``dask.distributed.Client`` runs on its cluster, ``batch`` runs
    per task (default: up to 10 while much of the grid remains, down to one run a task at
    its end; see _guided_size). The grid is
    walked lazily and at most a few runs per worker are in flight, so a large grid costs no
    memory before its first run; every point and every seed is checked before anything runs
    (ScenarioError names the field or argument). Returns one row per run: the grid's
    columns, ``seed``, then the summary's keys. A grid value with a unit is a number in the
    column ``KEY_bps`` (rates, bit/s), ``KEY_s`` (times, seconds) or ``KEY_bytes`` (sizes);
    a key whose values mix units is refused; ``.attrs["ran"]``, ``.attrs["reused"]`` and
    ``.attrs["mismatched"]`` count the runs computed now, those found in ``out``, and those
    whose stored file did not match and were run again.
    """
    keys, lists = _grid_arg(grid)
    seeds, seed_count = seeds_arg(seeds)
    cc_arg(cc, "cc")
    workers = _workers_arg(workers)
    _batch_arg(batch)
    name, text = _scenario_text(scenario)
    base = override_list(overrides)
    build = _build_digest()

    def tasks():
        for point in _points(keys, lists):
            scheme = point.get(CC, cc)
            sets = base + override_list({k: v for k, v in point.items() if k != CC})
            for seed in seeds:
                spec = {"scenario": text, "overrides": sets, "seed": seed, "cc": scheme, "build": build}
                key = hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:20]
                yield {"key": key, "params": {**point, "seed": seed}, "text": text, "name": name, "overrides": sets, "seed": seed, "cc": scheme}

    # Every point is checked before the first run: a bad value late in the grid must not
    # fail a sweep hours in.
    for point in _points(keys, lists):
        sets = base + override_list({k: v for k, v in point.items() if k != CC})
        _pathpool.check(text, sets, None, point.get(CC, cc), name)
    # After the check, so that a value no run accepts is named by the scenario's own message.
    typed = grid_columns(keys, lists)
    total = math.prod(len(v) for v in lists) * seed_count

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    rows, mismatched, failures, ran = {}, [], [], 0

    def stored_or_run():
        """Yields the tasks to run, taking the stored ones' rows on the way."""
        for index, t in enumerate(tasks()):
            path = folder / f"{t['key']}.json"
            found = _store.load(path, t["key"], build)
            if isinstance(found, dict):
                rows[index] = _row(found, typed)
                bar.update(1)
                continue
            if found == _store.MISMATCH:
                mismatched.append(path)
            yield index, t

    with tqdm(total=total, unit="run", disable=not progress, desc="pathpool sweep") as bar:
        for (index, task), summary, error in _execute(stored_or_run(), client, workers, batch, total):
            ran += 1
            if error is None:
                record = {"key": task["key"], "params": task["params"], "build": build, "summary": summary}
                _store.write(folder / f"{task['key']}.json", record)
                rows[index] = _row(record, typed)
            else:
                failures.append(f"{task['params']}: {error}")
            bar.update(1)
    if mismatched:
        shown = ", ".join(str(p) for p in mismatched[:3]) + (f" and {len(mismatched) - 3} more" if len(mismatched) > 3 else "")
        warnings.warn(f"{len(mismatched)} stored sweep results did not match (edited, damaged, or from another build) and were run again: {shown}", stacklevel=2)
    if failures:
        raise RuntimeError(f"{len(failures)} of {ran} runs failed (the others are stored in '{folder}'; call again to resume): " + "; ".join(failures[:5]))

    df = pd.DataFrame([rows[i] for i in sorted(rows)])
    df.attrs["ran"] = ran
    df.attrs["reused"] = total - ran
    df.attrs["mismatched"] = len(mismatched)
    return df


def _row(record, typed):
    params = typed_params(record["params"], typed)
    return {**params, **{k: v for k, v in record["summary"].items() if k != "seed"}}


def _execute(todo, client, workers, batch, total):
    """Yields (item, summary, error) as runs finish, for each (index, task) item of the
    iterator ``todo``; at most ``2 * workers`` runs (threads) or twice the cluster's threads
    in tasks of ``batch`` runs (Dask; None: _guided_size) are submitted at a time."""
    if client is None:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            yield from _bounded(todo, lambda t: pool.submit(_run_task, t), lambda fs: futures_wait(fs, return_when=FIRST_COMPLETED).done, 2 * workers)
        return
    from distributed import wait as dask_wait

    limit = 2 * max(1, sum(client.nthreads().values()))
    submit = lambda ts: client.submit(_run_batch, ts, key=f"pathpool-{ts[0]['key']}-{len(ts)}", pure=False)  # noqa: E731
    size = (lambda index: batch) if batch is not None else (lambda index: _guided_size(total - index, limit))
    batches = ((items, [t for _, t in items]) for items in _chunks(todo, size))
    for (items, _), done, error in _bounded(batches, submit, lambda fs: dask_wait(fs, return_when="FIRST_COMPLETED").done, limit):
        for item, (summary, run_error) in zip(items, done or [(None, error)] * len(items)):
            yield item, summary, run_error


def _chunks(items, size):
    """Lists of consecutive (index, task) items, taken lazily (when a task is submitted): each
    holds up to ``size(index)`` items, ``index`` the grid position of its first item, so that
    a size chosen from what remains sees the grid as it is at submission."""
    items = iter(items)
    for first in items:
        yield [first, *itertools.islice(items, size(first[0]) - 1)]


def _bounded(todo, submit, wait_any, limit):
    pending = {}
    items = iter(todo)
    while True:
        for item in items:
            pending[submit(item[1])] = item
            if len(pending) >= limit:
                break
        if not pending:
            return
        for f in wait_any(list(pending)):
            yield _outcome(pending.pop(f), f)


def _outcome(item, future):
    try:
        return item, future.result(), None
    except Exception as e:  # one run's failure must not lose the others' results
        return item, None, f"{type(e).__name__}: {e}"
