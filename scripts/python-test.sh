#!/usr/bin/env bash
# The Python package's tests (docs/python.md, "Tests"), run by `make test`: builds the wheel,
# installs it into a new virtual environment with no Rust toolchain on PATH, and runs
# python/tests with pytest against the installed package, and scripts/tests (the scripts'
# package, run from the top as `python3 -m scripts.NAME`; some read captures through it).
#
# Two environments under $OUT:
# - pyvenv holds the package's dependencies and its test extra from PyPI; it is made again
#   only when its inputs change (the interpreter, pyproject.toml or this script).
# - pywheel-venv is made new on every run and holds only pathpool, installed from the wheel
#   with pip; the dependencies come from pyvenv through a .pth file, and pip checks the
#   wheel's requirements against them without an index.
# The wheel (scripts/python-wheel.sh) is built in make test's fast-test profile into the
# workspace's target/, so it shares the compiled crates of `cargo test --profile fast-test`
# (cargo rebuilds only what changed). Without pip or PyPI the tests fail, naming the reason:
# they are never skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-out}
CARGO=${CARGO:-cargo}
PYTHON=${PYTHON:-python3}
DEPS=$OUT/pyvenv
VENV=$OUT/pywheel-venv

fail() { echo "python tests FAILED: $*" >&2; exit 1; }

command -v "$PYTHON" >/dev/null || fail "no '$PYTHON' on PATH; the Python package needs Python >= 3.10"
# The package's dependencies and its test extra.
. scripts/python-venv.sh
python_venv "$DEPS" 'd["project"]["dependencies"] + d["project"]["optional-dependencies"]["test"]' scripts/python-test.sh

# The CLI binary the tests compare with, and the wheel, in the profile of `make test`
# (fast-test: release without link-time optimisation), so both reuse what `cargo test` built.
PROFILE=${PROFILE:-fast-test}
$CARGO build --profile "$PROFILE" --locked -p pathpool
wheel=$(OUT="$OUT" PYTHON="$PYTHON" bash scripts/python-wheel.sh "$PROFILE" "$OUT/pywheel" | tail -n 1)

# From here on nothing may compile: PATH keeps no folder with cargo or rustc in it, so an
# install that tried to build from source would fail instead of passing unnoticed.
no_rust_path=$(tr ':' '\n' <<<"$PATH" | while read -r dir; do
  [ -n "$dir" ] && [ ! -e "$dir/cargo" ] && [ ! -e "$dir/rustc" ] && echo "$dir"; done | paste -sd:)
rm -rf "$VENV"
"$PYTHON" -m venv --without-pip "$VENV" || fail "'$PYTHON -m venv' failed"
site() { "$1" -c 'import sysconfig; print(sysconfig.get_path("purelib"))'; }
site "$DEPS/bin/python" > "$(site "$VENV/bin/python")/pathpool-test-dependencies.pth"
env -u CARGO -u RUSTC PATH="$no_rust_path" "$VENV/bin/python" -m pip install -q --disable-pip-version-check --no-index "$wheel" \
  || fail "pip could not install $wheel into $VENV without a Rust toolchain (output above)"
env -u CARGO -u RUSTC PATH="$no_rust_path" PATHPOOL_WHEEL="$(realpath "$wheel")" PATHPOOL_BIN="$PWD/target/$PROFILE/pathpool" \
  "$VENV/bin/python" -m pytest -q -p no:cacheprovider python/tests scripts/tests
