#!/usr/bin/env python3
"""The bound's own measure on a liar that does nothing: over the liar table's shared setups
(docs/security.md, "Beyond S0's scenarios"), each liar's median sum ratio over seeds 1-5 over
the honest receiver's (the "gain" the bound is stated on), beside the same measure of a
placebo: the honest receiver, the check on, and the MPTCP connection started a little later
(100 us by default). The placebo lies about nothing, so whatever "gain" it shows is how far the
runs' own spread moves that measure; where it lies beyond 5 % as often as the liars do, the
measure cannot tell a liar from a run started 100 us later.

    python3 -m scripts.liar_placebo_shared [--bin target/release/pathpool] [--out out/liar]
        [--seeds 5] [--start-us 100] [--paired-seeds 100] [--jobs N] [--print]
        [--setups KEY,...] [--check-set KEY=VALUE ...]

Where the measure puts a liar above +5 % (the bound fails on it), a second table counts, over seeds
1 to --paired-seeds, the seeds on which each receiver's sum ratio lies above 1.05 times the
honest receiver's on the same seed, below 1/1.05 times, or exactly on it (the run did not
change): a liar that gains moves runs up more often than down, a placebo moves them both ways.

Runs are shared with the liar table's in --out (scripts/liar_table.py's `run`): use a new --out
for a new build. Without --print the table goes into docs/security.md between its markers.
--setups takes only those shared setups (the table's keys) and counts their seeds whether or not
the measure flags them; --check-set passes a setting to every run (all have the check on), as
liar_table's does, and needs --print.
"""

import concurrent.futures
import os
import statistics
import sys
import time

from scripts import liar_placebo as lp
from scripts import liar_table as lt
from scripts.doc_table import emit

ROOT = lt.ROOT
BEGIN, END = "<!-- liar placebo shared: python3 -m scripts.liar_placebo_shared -->", "<!-- end of liar placebo shared -->"
PLACEBO = "placebo"


def bound_gain(receiver_ratios, honest_ratios):
    """The bound's measure: the median sum ratio over the honest receiver's median."""
    return lt.ratio(statistics.median(receiver_ratios), statistics.median(honest_ratios))


def beyond(gain):
    """'+' above the bound, '-' below its mirror (a loss of more than 5 %), '' within."""
    return "+" if gain > lt.GAIN_BOUND else "-" if gain < 1 / lt.GAIN_BOUND else ""


def paired_counts(receiver_ratios, honest_ratios):
    """Seeds above / below the bound and its mirror, and exactly the same, as 'a / b / c'."""
    rs = [lt.ratio(x, y) for x, y in zip(receiver_ratios, honest_ratios)]
    return f"{sum(r > lt.GAIN_BOUND for r in rs)} / {sum(r < 1 / lt.GAIN_BOUND for r in rs)} / {sum(r == 1.0 for r in rs)}"


def main():
    ap = lp.placebo_arguments(__doc__, 5)
    ap.add_argument("--paired-seeds", type=int, default=100, help="seeds of the second table (0: none)")
    ap.add_argument("--setups", help="comma-separated keys of shared setups: only these, their seeds counted whatever the measure says")
    lt.add_check_set(ap)
    a = lt.checked_check_set(lp.checked(ap))
    if a.paired_seeds < 0:
        sys.exit("--paired-seeds must be at least 0")
    shared, _ = lt.table_setups()
    if a.setups:
        known = {lt.key(s): s for s in shared}
        unknown = [k for k in a.setups.split(",") if k not in known]
        if unknown:
            sys.exit(f"--setups: unknown shared setup {', '.join(unknown)}; expected keys such as {next(iter(known))}")
        shared = [known[k] for k in a.setups.split(",")]
    seeds = range(1, a.seeds + 1)
    receivers = ["honest", *lt.LIARS, PLACEBO]
    plan = [(s, r, k) for s in shared for r in receivers for k in seeds]
    started = time.time()

    def one(p):
        s, r, k = p
        if r == PLACEBO:
            return lt.run(a, s, "honest", True, k, mptcp_start_us=a.start_us)["sum_ratio"]
        return lt.run(a, s, r, True, k)["sum_ratio"]

    def gather(plan):
        out = {}
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
            for (s, r, k), v in zip(plan, pool.map(one, plan)):
                out.setdefault((lt.key(s), r), []).append(v)
        return out

    ratios = gather(plan)
    lines = [
        f"| setup | hosts | honest: sum ratio | {' | '.join(lt.LIARS)} | placebo (MPTCP {a.start_us} us later) |",
        "|---|---|---|" + "---|" * (len(lt.LIARS) + 1),
    ]
    over = {r: 0 for r in [*lt.LIARS, PLACEBO]}
    under = dict(over)
    flagged = []
    for s in shared:
        honest = ratios[(lt.key(s), "honest")]
        cells = []
        for r in [*lt.LIARS, PLACEBO]:
            g = bound_gain(ratios[(lt.key(s), r)], honest)
            side = beyond(g)
            over[r] += side == "+"
            under[r] += side == "-"
            if side == "+" and r != PLACEBO and s not in flagged:
                flagged.append(s)
            text = f"{100 * (g - 1):+.1f} %"
            cells.append(f"**{text}**" if side == "+" else text)
        lines.append(f"| {lt.label(s)} | {s['hosts']} | {statistics.median(honest):.2f} | {' | '.join(cells)} |")
    n = len(shared)
    counts = "; ".join(f"{r} {over[r]} above +5 % and {under[r]} below -5 %" for r in [*lt.LIARS, PLACEBO])
    options = (f" --paired-seeds {a.paired_seeds}" + (f" --setups {a.setups}" if a.setups else "")
               + lt.check_set_options(a))
    head = (f"Written by `python3 -m scripts.liar_placebo_shared --seeds {a.seeds} --start-us {a.start_us}{options}`"
            + ("" if a.setups or a.check_set else " (`make liar-placebo-shared`)")
            + f" on {time.strftime('%Y-%m-%d')} ({(time.time() - started) / 60:.1f} min for the runs "
            f"not already in its folder, which it shares with the liar table): per shared setup, the check on, each receiver's "
            f"median sum ratio over seeds 1-{a.seeds} over the honest receiver's (the bound's own measure; beyond +5 % in bold).")
    tail = f"Of the {n} setups: {counts}."
    text = [head, "", *lines, "", tail]
    if a.setups:
        flagged = shared
    if a.paired_seeds and flagged:
        paired = gather([(s, r, k) for s in flagged for r in receivers for k in range(1, a.paired_seeds + 1)])
        text += ["", f"Where that measure puts a liar above +5 %: per receiver, of seeds 1-{a.paired_seeds}, "
                 "how many lie above 1.05 times the honest receiver's sum ratio on the same seed / below 1/1.05 times / exactly on it.", "",
                 f"| setup | hosts | {' | '.join(lt.LIARS)} | placebo |", "|---|---|" + "---|" * (len(lt.LIARS) + 1)]
        for s in flagged:
            honest = paired[(lt.key(s), "honest")]
            cells = [paired_counts(paired[(lt.key(s), r)], honest) for r in [*lt.LIARS, PLACEBO]]
            text.append(f"| {lt.label(s)} | {s['hosts']} | {' | '.join(cells)} |")
    emit("\n".join(text), a.print, os.path.join(ROOT, "docs", "security.md"), BEGIN, END)


if __name__ == "__main__":
    main()
