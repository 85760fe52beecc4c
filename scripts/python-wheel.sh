#!/usr/bin/env bash
# Builds the Python package's wheel with maturin and prints the wheel's path on the last line.
# `make wheel` builds it in the release profile into target/wheels (docs/python.md, "Install");
# scripts/python-test.sh builds it in make test's fast-test profile and tests the installed wheel.
#
#   scripts/python-wheel.sh PROFILE OUT_DIR
#
# maturin is pyproject.toml's build requirement, installed into a virtual environment under
# $OUT/pybuild (made again only when the interpreter, pyproject.toml or this script change).
#
# The wheel's tag: the extension uses Python's stable ABI from 3.10 on (pyo3's `abi3-py310`
# feature, crates/python/Cargo.toml), so one wheel serves every CPython >= 3.10; it links only
# libc, libm and libgcc_s, and needs symbols of glibc 2.34 (built on glibc >= 2.34, Rust's
# standard library calls pthread_* and dlsym, which glibc moved into libc in 2.34). maturin audits
# the built library against the manylinux_2_34 policy (versioned symbols and linked
# libraries) and stops, naming what is too new, rather than writing a wrongly tagged wheel.
# MANYLINUX=manylinux_2_NN changes the policy.
set -euo pipefail
cd "$(dirname "$0")/.."
PROFILE=${1:?usage: $0 PROFILE OUT_DIR}
DEST=${2:?usage: $0 PROFILE OUT_DIR}
OUT=${OUT:-out}
PYTHON=${PYTHON:-python3}
MANYLINUX=${MANYLINUX:-manylinux_2_34}
VENV=$OUT/pybuild

fail() { echo "python wheel FAILED: $*" >&2; exit 1; }

command -v "$PYTHON" >/dev/null || fail "no '$PYTHON' on PATH; the Python package needs Python >= 3.10"
. scripts/python-venv.sh
python_venv "$VENV" 'd["build-system"]["requires"]' scripts/python-wheel.sh

# Built into a new folder, then moved: the name printed is the wheel this call wrote, never
# an older one lying in DEST.
mkdir -p "$DEST"
tmp=$(mktemp -d "$DEST/.build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# maturin's progress goes to standard error: standard output carries only the wheel's path.
"$VENV/bin/maturin" build --locked --profile "$PROFILE" --compatibility "$MANYLINUX" --auditwheel check \
  --interpreter "$VENV/bin/python" --out "$tmp" >&2 \
  || fail "maturin could not build a $MANYLINUX wheel (output above)"
built=("$tmp"/*.whl)
[ ${#built[@]} = 1 ] || fail "maturin wrote ${#built[@]} wheels, expected one: ${built[*]}"
mv -f "${built[0]}" "$DEST/"
echo "$DEST/$(basename "${built[0]}")"
