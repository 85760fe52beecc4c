#!/usr/bin/env python3
"""Writes the README's results table (S0's experiments on the simulator) from the output of
`pathpool reproduce ferlin2016 --out DIR`, between the README's results markers, and copies
its headline figure (Fig. 5(a, b): OLIA, S0's detector and the default pathpool preset) to
docs/figures/ferlin2016-fig5-nsb.png.

    pathpool reproduce ferlin2016 --out out/ferlin2016
    python3 -m scripts.readme_results out/ferlin2016          # rewrites README.md and the figure
    python3 -m scripts.readme_results out/ferlin2016 --print  # prints the table only

Every figure comes from DIR/summary.json and DIR/ferlin2016/*_groups.csv; only the S0 column
quotes the paper (Ferlin et al. 2016, Table 2, Figs. 5 and 7).
"""
import argparse
import csv
import json
import os
import shutil
import sys

from scripts.doc_table import emit

BEGIN, END = "<!-- results table: begin -->", "<!-- results table: end -->"
FIGURE = ("ferlin2016/fig5ab_nsb_sum_ratio.png", "docs/figures/ferlin2016-fig5-nsb.png")
SIZES = (2, 3, 4, 5)


def group_fractions(path):
    """(scenario, number of groups) -> fraction of our decisions with that many groups."""
    with open(path) as f:
        return {(r["scenario"], int(r["groups"])): float(r["fraction_ours"]) for r in csv.DictReader(f)}


def row(label, cells, paper):
    return f"| {label} | " + " | ".join(cells) + f" | {paper} |"


def table(out_dir):
    with open(os.path.join(out_dir, "summary.json")) as f:
        s = json.load(f)
    paper_dir = os.path.join(out_dir, "ferlin2016")
    s0 = group_fractions(os.path.join(paper_dir, "table2_groups.csv"))
    split = group_fractions(os.path.join(paper_dir, "extension_corr_groups.csv"))
    preset = group_fractions(os.path.join(paper_dir, "extension_pathpool_groups.csv"))

    def each(fmt):
        return [fmt(n) for n in SIZES]

    def shift(prefix, paper=""):
        """S0's shifting bottleneck runs with two subflows only: one cell, then blanks. The
        mean covers the detected transitions only, so the cell says how many those were."""
        total, missed = s[prefix + "shift_transitions"], s[prefix + "shift_missed"]
        cell = f"{total - missed:.0f} of {total:.0f} detected; mean of those {s[prefix + 'shift_transition_delay_s']:.1f} s"
        return row("shifting bottleneck: transitions detected within the 30 s phase, mean delay to the first right decision (n = 2)",
                   [cell, "", "", ""], paper)

    lines = [
        f"`pathpool reproduce ferlin2016 --out {out_dir}` then `python3 -m scripts.readme_results {out_dir}`"
        + (" (quick preset)" if s.get("quick") else ""),
        "",
        "| | n = 2 | n = 3 | n = 4 | n = 5 | S0 |",
        "|---|---|---|---|---|---|",
        "| **S0's detector** (as the paper) | | | | | |",
        row("disjoint bottlenecks (NSB-n): MPTCP-SBD gain over OLIA, sum ratio to TCP",
            each(lambda n: f"{s[f'nsb_gain_n{n}']:.2f}"), "1.4 (n = 2), above 2 (n = 5)"),
        row("shared bottleneck (SB-n): MPTCP-SBD / TCP",
            each(lambda n: f"{s[f'sb_ratio_n{n}']:.2f}"), "slightly above 1"),
        row("SB-n: decisions that group all subflows together",
            each(lambda n: f"{s0[(f'sb-{n}', 1)]:.3f}"), "0.97 - 0.977"),
        row("NSB-n: decisions that separate every subflow",
            each(lambda n: f"{s0[(f'nsb-{n}', n)]:.3f}"), "0.75 - 0.70"),
        shift("", "all; 7 s"),
        "| **with the delay-correlation split** (an extension) | | | | | |",
        row("NSB-n: decisions that separate every subflow, and the gain over OLIA",
            each(lambda n: f"{split[(f'nsb-{n}', n)]:.3f}, {s[f'corr_nsb_gain_n{n}']:.2f}"), ""),
        shift("corr_"),
        "| **the `pathpool` preset** (split and change detector; the default) | | | | | |",
        row("NSB-n: decisions that separate every subflow, and the gain over OLIA",
            each(lambda n: f"{preset[(f'nsb-{n}', n)]:.3f}, {s[f'pathpool_nsb_gain_n{n}']:.2f}"), ""),
        row("SB-n: decisions that group all subflows together, and MPTCP-SBD / TCP",
            each(lambda n: f"{preset[(f'sb-{n}', 1)]:.3f}, {s[f'pathpool_sb_ratio_n{n}']:.2f}"), ""),
        shift("pathpool_"),
    ]
    return "\n".join(lines)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", help="output folder of `pathpool reproduce ferlin2016`")
    ap.add_argument("--readme", default=os.path.join(root, "README.md"))
    ap.add_argument("--print", action="store_true", help="print the table instead of writing the README")
    a = ap.parse_args()
    try:
        text = table(a.out)
    except FileNotFoundError as e:
        sys.exit(f"{e.filename}: not found; run `pathpool reproduce ferlin2016 --out {a.out}` first")
    except KeyError as e:
        sys.exit(f"{a.out}: key {e} missing; is this the output of `pathpool reproduce ferlin2016`?")
    emit(text, a.print, a.readme, BEGIN, END)
    if not a.print:
        src, dst = os.path.join(a.out, FIGURE[0]), os.path.join(root, FIGURE[1])
        if not os.path.exists(src):
            sys.exit(f"{src}: not found; run `pathpool reproduce ferlin2016 --out {a.out}` first")
        shutil.copyfile(src, dst)
        print(f"wrote {dst}")


if __name__ == "__main__":
    main()
