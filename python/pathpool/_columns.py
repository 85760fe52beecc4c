"""A sweep's grid columns as numbers: a grid value with a unit ("10Mbps", "20ms", "64KiB")
becomes a number in one unit per column, bit/s, seconds or bytes, and the column's name
says which (``links.bottleneck.rate_bps``, ``links.access_b.delay_s``, ``..._bytes``), as the
summary's keys do (``duration_s``, ``tcp_mbps``). Units are read by the scenario loader's
own parsers (``pathpool.quantity``), so a column holds what the simulator ran.
"""

from pathpool import _pathpool
from pathpool._units import reading


def grid_columns(keys, lists):
    """{grid key: (column name, {value: number})} for the keys whose values carry units; a
    key whose values mix units, or units with bare values, is refused naming the key (its
    column would hold numbers in two units)."""
    typed = {}
    for key, values in zip(keys, lists):
        readings = [reading(v) for v in values]
        if all(r is None for r in readings):
            continue
        suffixes = {r[1] for r in readings if r is not None}
        if len(suffixes) > 1 or any(r is None for r in readings):
            shown = ", ".join(repr(v) for v in values)
            raise _pathpool.ScenarioError(
                f"grid: {key}: expected values with one kind of unit (all rates, all times or all sizes) so that "
                f"its column holds numbers in one unit, got {shown}"
            )
        typed[key] = (f"{key}_{suffixes.pop()}", {v: r[0] for v, r in zip(values, readings)})
    return typed


def typed_params(params, typed):
    """A run's parameters with each unit value replaced by its number under its column name."""
    out = {}
    for key, value in params.items():
        if key in typed:
            column, numbers = typed[key]
            out[column] = numbers[value]
        else:
            out[key] = value
    return out
