#!/usr/bin/env bash
# The Python package's tests (docs/python.md, "Tests"), run by `make test`: installs pathpool
# into a throwaway virtual environment under $OUT/pyvenv and runs python/tests with pytest.
#
# The environment (the dependencies from PyPI) is made again only when its inputs change:
# the interpreter, pyproject.toml or this script. The extension is rebuilt by maturin every
# time into the workspace's target/ (so it shares the compiled crates of `cargo test
# --profile fast-test`; cargo rebuilds only what changed). Without pip or PyPI the tests fail, naming
# the reason: they are never skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-out}
CARGO=${CARGO:-cargo}
PYTHON=${PYTHON:-python3}
VENV=$OUT/pyvenv

fail() { echo "python tests FAILED: $*" >&2; exit 1; }

command -v "$PYTHON" >/dev/null || fail "no '$PYTHON' on PATH; the Python package needs Python >= 3.10"
inputs=$( { "$PYTHON" --version 2>&1; cat pyproject.toml scripts/python-test.sh; } | sha256sum | cut -d' ' -f1)
if [ ! -x "$VENV/bin/python" ] || [ "$(cat "$VENV/.inputs" 2>/dev/null)" != "$inputs" ]; then
  echo "python tests: creating the virtual environment $VENV"
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV" || fail "'$PYTHON -m venv' failed (on Debian: apt-get install python3-venv)"
  # The build requirement (maturin), the package's dependencies and its test extra.
  mapfile -t reqs < <("$VENV/bin/python" -c 'import tomllib; d = tomllib.load(open("pyproject.toml", "rb")); print("\n".join(d["build-system"]["requires"] + d["project"]["dependencies"] + d["project"]["optional-dependencies"]["test"]))')
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check "${reqs[@]}" \
    || fail "pip could not install ${reqs[*]} into $VENV (is PyPI reachable?)"
  echo "$inputs" > "$VENV/.inputs"
fi

# The CLI binary the tests compare with, and the extension, in the profile of `make test`
# (fast-test: release without link-time optimisation), so both reuse what `cargo test` built.
PROFILE=${PROFILE:-fast-test}
$CARGO build --profile "$PROFILE" --locked -p pathpool
# maturin is called by pip as a command: the venv's bin/ goes first on PATH.
PATH="$PWD/$VENV/bin:$PATH" MATURIN_PEP517_ARGS="--profile $PROFILE" "$VENV/bin/python" -m pip install -q --disable-pip-version-check --no-deps --no-build-isolation --force-reinstall . \
  || fail "building the extension with maturin failed (output above)"
PATHPOOL_BIN="$PWD/target/$PROFILE/pathpool" "$VENV/bin/python" -m pytest -q -p no:cacheprovider python/tests
