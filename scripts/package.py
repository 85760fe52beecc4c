"""The pathpool Python package, for the scripts that read captures, units or groupings with
its Rust code: imported on first use, and a clear stop naming what to do when this Python
does not have it."""

import sys


def pathpool():
    try:
        import pathpool as pp
    except ImportError as e:
        sys.exit(
            f"{sys.argv[0]}: needs the pathpool Python package ({e}); install it into this Python "
            "(docs/python.md, \"Install\": `pip install .` or the wheel of `make wheel`) or run the "
            "script with a Python that has it (make: PYTHON=venv/bin/python)"
        )
    return pp
