"""scripts/ as one package: no module reaches another through the import path's back door,
every module imports, and every script has a make target or a test that runs it."""

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "scripts"
# The pattern is split so that this file does not match itself.
PATH_TRICK = re.compile(r"sys\." + r"path\b")


def _python_files():
    for top in (ROOT / "scripts", ROOT / "python"):
        yield from (p for p in top.rglob("*.py") if "__pycache__" not in p.parts)


def test_no_import_path_manipulation():
    found = [f"{p.relative_to(ROOT)}:{n}" for p in _python_files() for n, line in enumerate(p.read_text().splitlines(), 1) if PATH_TRICK.search(line)]
    assert found == [], "modules are imported as scripts.NAME (python3 -m scripts.NAME from the top), never by editing the import path: " + ", ".join(found)


MODULES = sorted(p.stem for p in SCRIPTS.glob("*.py") if p.stem != "__init__")
# Modules that run their work at import time (no main guard): imported by their tests instead.
RUN_ON_IMPORT = {"pcap_accuracy", "synflood_pcap"}


@pytest.mark.parametrize("name", [m for m in MODULES if m not in RUN_ON_IMPORT])
def test_every_module_imports(name):
    importlib.import_module(f"scripts.{name}")


def _runners():
    """Text of everything that runs a script: the Makefile, the tests, and the shell scripts."""
    texts = [(ROOT / "Makefile").read_text()]
    # A shell script run by a target runs what it names (python-test.sh sources python-venv.sh).
    for pattern in ("crates/*/tests/**/*.rs", "python/tests/*.py", "scripts/tests/*.py", "scripts/**/*.sh"):
        texts += [p.read_text() for p in ROOT.glob(pattern) if p.name != Path(__file__).name]
    return "\n".join(texts)


def _names(path):
    """How a runner names a script: its path, its module (scripts.NAME), or, in a shell
    script beside it, its folder's path and its name ("$here/NAME")."""
    rel = path.relative_to(ROOT).as_posix()
    names = [rel, f'/{path.name}"']
    return names + [f"scripts.{path.stem}"] if path.suffix == ".py" else names


def test_every_script_has_a_make_target_or_a_test():
    runners = _runners()
    files = [p for p in SCRIPTS.rglob("*") if p.is_file() and "__pycache__" not in p.parts and "tests" not in p.relative_to(SCRIPTS).parts]
    files = [p for p in files if p.name not in ("__init__.py", "README.md")]
    missing = [str(p.relative_to(ROOT)) for p in files if not any(n in runners for n in _names(p))]
    assert missing == [], "scripts with neither a make target nor a test (scripts/README.md): " + ", ".join(missing)


def test_the_inventory_lists_every_script():
    inventory = (SCRIPTS / "README.md").read_text()
    files = [p for p in SCRIPTS.rglob("*") if p.is_file() and "__pycache__" not in p.parts and "tests" not in p.relative_to(SCRIPTS).parts]
    missing = [p.relative_to(SCRIPTS).as_posix() for p in files if p.name not in ("__init__.py", "README.md") and f"`{p.relative_to(SCRIPTS).as_posix()}`" not in inventory]
    assert missing == [], "scripts/README.md does not list: " + ", ".join(missing)
