"""Command-line values with units ("400us", "20Mbps") read as scenario files read them: by the
pathpool Python package (``pathpool.quantity``, the scenario loader's Rust parsers), so that
the scripts parse no unit a second way. A value that is not of the kind asked for ends the
script naming the option and what was expected."""

import sys

from scripts import package


def _value(text, unit, option, example):
    quantity = package.pathpool().quantity

    try:
        value, got = quantity(text)
    except ValueError:
        got = None
    if got != unit:
        sys.exit(f"{option}: expected a value with a unit like {example}, got {text!r}")
    return value


def seconds(text, option="time"):
    """A time in seconds: "400us" -> 0.0004."""
    return _value(text, "s", option, '"400us" or "20ms"')


def rate_bps(text, option="rate"):
    """A rate in bit/s: "20Mbps" -> 20000000."""
    return _value(text, "bps", option, '"20Mbps"')
