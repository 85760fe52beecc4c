# Sourced by scripts/python-wheel.sh and scripts/python-test.sh: a virtual environment holding
# some of pyproject.toml's requirements, made again only when its inputs change.
#
#   python_venv DIR EXPRESSION [FILE...]
#
# EXPRESSION is Python over `d`, pyproject.toml read as a dict, giving the requirements (for
# example d["build-system"]["requires"]); the inputs are the interpreter's version,
# pyproject.toml and the FILEs (the calling script). Needs PYTHON and a `fail` function.
python_venv() {
  local venv=$1 select=$2 inputs
  shift 2
  inputs=$( { "$PYTHON" --version 2>&1; cat pyproject.toml scripts/python-venv.sh "$@"; } | sha256sum | cut -d' ' -f1)
  if [ -x "$venv/bin/python" ] && [ "$(cat "$venv/.inputs" 2>/dev/null)" = "$inputs" ]; then
    return 0
  fi
  echo "python: creating the virtual environment $venv" >&2
  rm -rf "$venv"
  "$PYTHON" -m venv "$venv" || fail "'$PYTHON -m venv' failed (on Debian: apt-get install python3-venv)"
  local reqs
  mapfile -t reqs < <("$venv/bin/python" -c "import tomllib; d = tomllib.load(open('pyproject.toml', 'rb')); print('\n'.join($select))")
  [ ${#reqs[@]} -gt 0 ] || fail "no requirements found in pyproject.toml for $venv ($select)"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "${reqs[@]}" \
    || fail "pip could not install ${reqs[*]} into $venv (is PyPI reachable?)"
  echo "$inputs" > "$venv/.inputs"
}
