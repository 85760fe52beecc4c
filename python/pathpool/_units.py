"""pathpool.quantity(): a scenario value with a unit as a number, read by the scenario
loader's own parsers (pathpool_scenario::units, through the extension), so that no Python
code parses units a second way."""

from pathpool import _pathpool


def reading(value):
    """``(number, unit)`` for a string with a unit, None for anything else; units: ``bps``
    (bit/s), ``s`` (seconds), ``bytes``."""
    if not isinstance(value, str):
        return None
    q = _pathpool.quantity(value)
    if q is None:
        return None
    unit, count, per_unit = q
    return (count if per_unit == 1 else count / per_unit), unit


def quantity(text):
    """``(number, unit)`` for a value with a unit, read as scenario files are:
    ``quantity("10Mbps") == (10000000, "bps")``, ``quantity("20ms") == (0.02, "s")``,
    ``quantity("64KiB") == (65536, "bytes")``. Anything else raises ValueError naming what was
    expected."""
    r = reading(text)
    if r is None:
        raise ValueError(f"expected a rate, time or size with a unit, like \"10Mbps\", \"20ms\" or \"1500B\", got {text!r}")
    return r
