"""The tests run against pathpool installed from its wheel (scripts/python-test.sh): the
package a user gets from `make wheel && pip install target/wheels/...`, with no Rust toolchain
on PATH, not the sources under python/ nor a build made on the fly."""

import hashlib
import importlib.metadata
import os
import shutil
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

import pathpool
from pathpool import _pathpool


@pytest.fixture(scope="module")
def wheel():
    path = os.environ.get("PATHPOOL_WHEEL")
    if not path:
        pytest.fail("PATHPOOL_WHEEL is not set: run the tests with scripts/python-test.sh (make python-test), which builds and installs the wheel")
    return Path(path)


def test_no_rust_toolchain_on_path():
    assert shutil.which("cargo") is None, shutil.which("cargo")
    assert shutil.which("rustc") is None, shutil.which("rustc")


def test_package_is_installed_in_this_environment(root):
    site = Path(sysconfig.get_path("platlib")).resolve()
    for module in (pathpool, _pathpool):
        path = Path(module.__file__).resolve()
        assert path.is_relative_to(site), f"{module.__name__} imported from {path}, not from {site}"
        assert not path.is_relative_to(root / "python"), f"{module.__name__} imported from the sources: {path}"
    assert Path(sys.prefix).resolve() != Path(sys.base_prefix).resolve(), "not in a virtual environment"


def test_installed_files_are_the_wheels(wheel):
    # The wheel's own file name carries its tag: CPython's stable ABI from 3.10 on, manylinux.
    name, version, python, abi, platform = wheel.name.removesuffix(".whl").split("-")
    assert (name, python, abi) == ("pathpool", "cp310", "abi3"), wheel.name
    assert platform.startswith("manylinux_2_"), wheel.name
    dist = importlib.metadata.distribution("pathpool")
    assert dist.version == version
    assert (dist.read_text("INSTALLER") or "").strip() == "pip"
    tags = [line.split(":", 1)[1].strip() for line in dist.read_text("WHEEL").splitlines() if line.startswith("Tag:")]
    assert tags == [f"{python}-{abi}-{platform}"]
    # Every installed module, the compiled extension included, has the bytes the wheel holds.
    with zipfile.ZipFile(wheel) as whl:
        modules = [n for n in whl.namelist() if n.startswith("pathpool/")]
        assert f"pathpool/{Path(_pathpool.__file__).name}" in modules
        for member in modules:
            installed = Path(dist.locate_file(member)).read_bytes()
            assert hashlib.sha256(installed).digest() == hashlib.sha256(whl.read(member)).digest(), member
