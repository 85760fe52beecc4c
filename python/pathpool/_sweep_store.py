"""The stored runs of a sweep: one JSON file per run, ``<out>/<run key>.json``, holding the
run's parameters, the build that computed it, its summary and a digest of all three. A file
that was edited, emptied, cut short or written by another build does not match its digest
and is run again (and counted); a file that cannot be read at all raises, naming it."""

import hashlib
import json
import os
import tempfile

#: The fields a stored run holds besides its digest.
FIELDS = ("key", "params", "build", "summary")


def digest(record):
    """SHA-256 of the record's fields as canonical JSON (sorted keys)."""
    body = {k: record.get(k) for k in FIELDS}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def write(path, record):
    """Written to a temporary file of its own in the same folder, then renamed: a concurrent
    sweep into the same folder never shares a temporary file, a killed one leaves no half
    file."""
    record = {**record, "digest": digest(record)}
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(json.dumps(record, sort_keys=True, indent=1) + "\n")
        os.replace(tmp, path)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise RuntimeError(f"{path}: cannot store the run's result: {e}") from None


MISSING = "missing"
MISMATCH = "mismatch"


def load(path, key, build):
    """The stored record of run ``key``, or MISSING (no file) or MISMATCH (a file that is not
    this run's result, computed by this build, unchanged)."""
    try:
        text = path.read_text()
    except FileNotFoundError:
        return MISSING
    except (OSError, UnicodeDecodeError) as e:
        raise RuntimeError(f"{path}: cannot read a stored sweep result: {e}; remove it to run it again") from None
    try:
        record = json.loads(text)
    except ValueError:
        return MISMATCH
    if not isinstance(record, dict) or not isinstance(record.get("summary"), dict) or not isinstance(record.get("params"), dict):
        return MISMATCH
    if record.get("key") != key or record.get("build") != build or record.get("digest") != digest(record):
        return MISMATCH
    return record
