"""Writes a generated block into a document between its begin/end markers (the tables of
docs/kernel.md written by kernel_measure.py and kernel_soak.py, docs/security.md's by
security_table.py, docs/sbd.md's by sbd_eval.py and sbd_sweep.py)."""
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


def table_arguments(root, out, seeds, doc):
    """The options every table script shares: the binary, the runs' folder, seeds, jobs, and
    --print (print the table instead of writing `doc`)."""
    import argparse
    import os

    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(root, "target", "release", "pathpool"))
    ap.add_argument("--out", default=os.path.join(root, "out", out))
    ap.add_argument("--seeds", type=int, default=seeds)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--print", action="store_true", help=f"print the table instead of writing {doc}")
    return ap


def emit(text, print_only, path, begin, end):
    """Prints the table, or writes it into `path` between the markers."""
    if print_only:
        print(text)
    else:
        write_between(path, begin, end, text)
