"""Writes a generated block into a document between its begin/end markers (the tables of
docs/kernel.md written by kernel_measure.py and kernel_soak.py, docs/security.md's by
security_table.py)."""
import sys


def write_between(path, begin, end, text):
    with open(path) as f:
        doc = f.read()
    if begin not in doc or end not in doc:
        sys.exit(f"{path}: markers {begin!r} / {end!r} not found")
    head, rest = doc.split(begin, 1)
    _, tail = rest.split(end, 1)
    with open(path, "w") as f:
        f.write(head + begin + "\n" + text + "\n" + end + tail)
    print(f"wrote into {path}")
