"""No input takes the interpreter down: random dicts, random values at random places of a
real scenario, and random overrides either run or raise ScenarioError (a property test)."""

import copy
import tomllib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pathpool

KEYS = ["simulation", "links", "flows", "duration", "warmup", "seed", "rate", "delay", "buffer", "from", "to", "route", "cc", "kind", "subflows", "count", "queue", "name", "reverse", "probe_interval", "bottleneck", "x", "", "é", "a.b"]
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=300),
    st.integers(min_value=2**63 - 2, max_value=2**70),
    st.integers(min_value=-(2**70), max_value=-(2**63) + 2),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["1s", "20ms", "10Mbps", "0s", "-1s", "reno", "olia", "lia", "red", "droptail", "left", "right", "1e400", "NaN", "", "\x00", "ünï"]),
    st.text(max_size=8),
    st.builds(object),
)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=4), inner, max_size=4)), max_leaves=12)
FAST = settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)

BASE_TEXT = """
[simulation]
duration = "2s"
warmup = "0.5s"
probe_interval = "100ms"
[links.bottleneck]
from = "left"
to = "right"
rate = "10Mbps"
delay = "5ms"
buffer = 20
[[flows]]
name = "reno"
route = ["left", "right"]
"""
BASE = tomllib.loads(BASE_TEXT)


def _try(scenario, **kw):
    try:
        r = pathpool.run(scenario, **kw)
    except pathpool.ScenarioError as e:
        assert str(e)
        return None
    assert isinstance(r.summary, dict)
    return r


@FAST
@given(st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), VALUES, max_size=5))
def test_random_dicts_run_or_raise(d):
    _try(d)


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, prefix + (i,))


PATHS = [p for p in _paths(BASE) if p]


@FAST
@given(st.lists(st.tuples(st.sampled_from(PATHS), VALUES), min_size=1, max_size=3))
def test_random_values_in_a_real_scenario_run_or_raise(changes):
    d = copy.deepcopy(BASE)
    for path, value in changes:
        node = d
        try:
            for k in path[:-1]:
                node = node[k]
            node[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            pass
    _try(d)


@FAST
@given(st.dictionaries(st.sampled_from(["simulation.duration", "simulation.seed", "links.bottleneck.rate", "links.bottleneck.buffer", "flows.reno.cc", "flows.0.route", "links.x.from", "a..b", ".", "flows.reno"]), VALUES, max_size=3))
def test_random_overrides_run_or_raise(overrides):
    _try(BASE, overrides=overrides)


def test_a_self_containing_dict_is_refused():
    d = {"simulation": {}}
    d["simulation"]["loop"] = d
    r = _try(d)
    assert r is None
