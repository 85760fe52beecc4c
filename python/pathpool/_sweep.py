"""pathpool.sweep(): a cartesian grid of overrides x seeds, one simulation per point and seed,
each run's summary stored in its own JSON file as soon as it finishes, so that calling again
with the same ``out`` runs only what is missing (docs/python.md, "Sweeps").

The runs execute on this machine's cores in threads (the simulator releases the GIL) or, with
a ``dask.distributed.Client``, on that client's cluster. Results are written by the caller, not
by the workers, so a cluster needs no shared file system.
"""

import hashlib
import itertools
import json
import os
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

import pandas as pd
from tqdm.auto import tqdm

from pathpool import _pathpool
from pathpool._args import override_list, scenario_arg

#: The grid key that selects the multipath congestion control (``--cc``) instead of a value
#: of the scenario.
CC = "cc"


def _build_digest():
    with open(_pathpool.__file__, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:16]


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


def _write(path, record):
    tmp = path.with_suffix(".json.partial")
    tmp.write_text(json.dumps(record, sort_keys=True, indent=1) + "\n")
    os.replace(tmp, path)


def _load(path, key):
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return record if record.get("key") == key else None


def sweep(scenario, grid=None, seeds=(1,), out="sweep", client=None, cc=None, overrides=None, workers=None, progress=True):
    """Runs ``scenario`` at every point of ``grid`` (dotted key -> list of values; the key
    ``"cc"`` selects the multipath congestion control) for every seed in ``seeds``.

    Each finished run is stored as ``out/<run id>.json`` (its parameters, seed and summary);
    a run whose file exists is not run again. ``client=None`` uses ``workers`` threads
    (default: every core); a ``dask.distributed.Client`` runs on its cluster. Every point is
    checked before anything runs (ScenarioError names the field). Returns one row per run:
    the grid's columns, ``seed``, then the summary's keys; ``.attrs["ran"]`` and
    ``.attrs["reused"]`` count the runs computed now and those found in ``out``.
    """
    grid = dict(grid or {})
    for k, values in grid.items():
        if not isinstance(k, str):
            raise _pathpool.ScenarioError(f"grid: expected string keys (dotted paths or 'cc'), got {k!r}")
        if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
            raise _pathpool.ScenarioError(f"grid: {k}: expected a list of values, got {values!r}")
        grid[k] = list(values)
    seeds = list(seeds)
    name, text = _scenario_text(scenario)
    base = override_list(overrides)
    build = _build_digest()
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)

    keys = list(grid)
    tasks = []
    for values in itertools.product(*(grid[k] for k in keys)):
        point = dict(zip(keys, values))
        scheme = point.get(CC, cc)
        sets = base + override_list({k: v for k, v in point.items() if k != CC})
        _pathpool.check(text, sets, None, scheme, name)
        for seed in seeds:
            spec = {"scenario": text, "overrides": sets, "seed": seed, "cc": scheme, "build": build}
            key = hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:20]
            tasks.append({"key": key, "params": {**point, "seed": seed}, "text": text, "name": name, "overrides": sets, "seed": seed, "cc": scheme})

    records, todo = {}, []
    for t in tasks:
        found = _load(folder / f"{t['key']}.json", t["key"])
        if found is None:
            todo.append(t)
        else:
            records[t["key"]] = found
    failures = []
    with tqdm(total=len(tasks), initial=len(records), unit="run", disable=not progress, desc="pathpool sweep") as bar:
        for task, summary, error in _execute(todo, client, workers):
            if error is None:
                record = {"key": task["key"], "params": task["params"], "summary": summary}
                _write(folder / f"{task['key']}.json", record)
                records[task["key"]] = record
            else:
                failures.append(f"{task['params']}: {error}")
            bar.update(1)
    if failures:
        raise RuntimeError(f"{len(failures)} of {len(todo)} runs failed (the others are stored in '{folder}'; call again to resume): " + "; ".join(failures[:5]))

    rows = []
    for t in tasks:
        summary = {k: v for k, v in records[t["key"]]["summary"].items() if k != "seed"}
        rows.append({**t["params"], **summary})
    df = pd.DataFrame(rows)
    df.attrs["ran"] = len(todo)
    df.attrs["reused"] = len(tasks) - len(todo)
    return df


def _execute(todo, client, workers):
    """Yields (task, summary, error) as runs finish."""
    if not todo:
        return
    if client is None:
        with ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 1) as pool:
            futures = {pool.submit(_run_task, t): t for t in todo}
            for f in as_completed(futures):
                yield _outcome(futures[f], f)
        return
    from distributed import as_completed as dask_completed

    futures = {}
    for t in todo:
        futures[client.submit(_run_task, t, key=f"pathpool-{t['key']}", pure=False)] = t
    for f in dask_completed(list(futures)):
        yield _outcome(futures[f], f)


def _outcome(task, future):
    try:
        return task, future.result(), None
    except Exception as e:  # one run's failure must not lose the others' results
        return task, None, f"{type(e).__name__}: {e}"
