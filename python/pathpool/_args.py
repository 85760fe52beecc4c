"""Arguments shared by run() and sweep(): a scenario as a path, TOML text or dict, and
overrides as a dict of dotted keys (``--set KEY=VALUE`` of the CLI)."""

import os
from collections.abc import Mapping

from pathpool import _pathpool


def scenario_arg(scenario):
    """What the extension accepts: a dict, a str (TOML text or a path) or a path."""
    if isinstance(scenario, Mapping) and not isinstance(scenario, dict):
        scenario = dict(scenario)
    if isinstance(scenario, os.PathLike):
        return os.fspath(scenario)
    return scenario


def override_list(overrides):
    """``{"links.bottleneck.rate": "50Mbps"}`` -> ``["links.bottleneck.rate=\\"50Mbps\\""]``;
    None as a value removes the key, as an empty VALUE does on the command line."""
    if overrides is None:
        return []
    if not isinstance(overrides, Mapping):
        raise _pathpool.ScenarioError(f"overrides: expected a dict of dotted keys to values, got a value of type {type(overrides).__name__}")
    out = []
    for key, value in overrides.items():
        if not isinstance(key, str):
            raise _pathpool.ScenarioError(f"overrides: expected string keys (dotted paths), got {key!r}")
        out.append(_pathpool.override_text(key, value))
    return out


def seed_arg(seed):
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise _pathpool.ScenarioError(f"seed: expected a whole number between 0 and 2^64 - 1, got {seed!r}")
    return seed


#: The largest seed a scenario holds (simulation.seed is a TOML integer: i64).
MAX_SEED = 2**63 - 1


def cc_arg(cc, what="cc"):
    """A multipath congestion control's name or None; ``what`` names the argument."""
    if cc is not None and not isinstance(cc, str):
        raise _pathpool.ScenarioError(f"{what}: expected the name of a multipath congestion control (a string, e.g. 'olia') or None, got {cc!r}")
    return cc


def _seed_ok(seed):
    return not isinstance(seed, bool) and isinstance(seed, int) and 0 <= seed <= MAX_SEED


def seeds_arg(seeds):
    """The seeds of a sweep and their number, checked before anything runs: a range is kept
    as it is (checked at its ends, never listed), any other iterable is listed once. Every
    seed must be a whole number from 0 to MAX_SEED."""
    if isinstance(seeds, (str, bytes)) or not hasattr(seeds, "__iter__"):
        raise _pathpool.ScenarioError(f"seeds: expected a list or range of whole numbers, got {seeds!r}")
    if isinstance(seeds, range):
        # len() of a range beyond sys.maxsize raises; its ends are computed instead.
        count = 0 if not seeds else (seeds[-1] - seeds[0]) // seeds.step + 1
        checked = [(0, seeds[0]), (count - 1, seeds[-1])] if count else []
    else:
        seeds = list(seeds)
        count = len(seeds)
        checked = enumerate(seeds)
    if count == 0:
        raise _pathpool.ScenarioError("seeds: expected at least one seed, got none")
    for i, seed in checked:
        if not _seed_ok(seed):
            raise _pathpool.ScenarioError(f"seeds[{i}]: expected a whole number from 0 to {MAX_SEED}, got {seed!r}")
    return seeds, count
