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
