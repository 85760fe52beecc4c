"""Shared fixtures: the repository's top (tests run scenario files from it) and the CLI binary
that Python's results are compared with (built by scripts/python-test.sh)."""

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def root():
    return ROOT


@pytest.fixture(scope="session")
def cli():
    exe = Path(os.environ.get("PATHPOOL_BIN", ROOT / "target" / "release" / "pathpool"))
    if not exe.exists():
        pytest.fail(f"the pathpool binary '{exe}' is missing; build it with `cargo build --release -p pathpool` or set PATHPOOL_BIN")
    return exe
