#!/usr/bin/env python3
"""Records how far every paper's quick-preset headline numbers spread over seeds: the
reference that `make test` holds today's quick reproductions to
(crates/cli/tests/headlines/reference.json, checked by crates/cli/tests/support/headlines.rs).

    python3 -m scripts.headline_reference --pathpool BINARY --sets 5 \\
        --scenarios scenarios/papers --out crates/cli/tests/headlines/reference.json

runs `BINARY reproduce PAPER --quick --seed-offset 100k` for k = 0 .. sets-1 (seed set k is
seeds 100k+1, 100k+2, ...; set 0 is the one `make test` runs) and writes, per paper and
headline key, the value of set 0 and the mean, sample standard deviation, minimum and
maximum over the sets. Keys that are null or missing in a set are left out of that set. A paper may name its own
number of sets (`--papers ferlin2016:5,zhang2019:3`), for the slow ones.
--note is stored beside the figures (say which code the binary was built from).

Deterministic papers (drop-tail, no random element: every seed set gives the same values)
have no seed spread. For them the spread is measured under a small perturbation instead:

    python3 -m scripts.headline_reference --pathpool target/release/pathpool --sets 10 \\
        --papers jowkar2022 --send-jitter 10us --scenarios scenarios/papers \\
        --out crates/cli/tests/headlines/jitter_spread.json

runs the reproductions on a copy of each paper's scenario folder in which every flow has
`send_jitter = "10us"` (each data packet waits a uniform random time in [0, 10 us) before
its first link, from a random stream of its own: a host's per-packet jitter, far below the
0.5-1 ms a packet takes at these bottlenecks), so each seed set takes another sample path,
as the event-order change made the unperturbed run take one (docs/validation.md).

--only PREFIX rewrites only the keys that start with PREFIX (of the papers run) in the --out
file and keeps every other key, the command and the note as they are; the command that
rewrote them is listed under "updates". For a change meant to move one extension's keys.
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

PAPERS = ["ferlin2016", "jowkar2022", "raiciu2009", "zhang2019", "zongor2019"]
SKIP = {"runs", "quick", "wall_seconds", "papers"}
OFFSET_STEP = 100


def headline_keys(summary):
    return {k: float(v) for k, v in summary.items() if k not in SKIP and isinstance(v, (int, float)) and not isinstance(v, bool)}


def jittered_scenarios(scenarios, paper, jitter, work):
    """A copy of `paper`'s scenario folder with `send_jitter = JITTER` in every flow."""
    if not scenarios:
        sys.exit("--send-jitter needs --scenarios (the folder whose copy gets the jitter)")
    if not re.fullmatch(r"[0-9.]+(ps|ns|us|ms|s)", jitter):
        sys.exit(f"--send-jitter {jitter}: expected a duration such as 10us")
    root = os.path.join(work, f"scenarios-jitter-{jitter}")
    dst = os.path.join(root, paper)
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(os.path.join(scenarios, paper), dst)
    flows = 0
    for name in sorted(os.listdir(dst)):
        if name.endswith(".toml"):
            path = os.path.join(dst, name)
            text = open(path).read()
            if "send_jitter" in text:
                sys.exit(f"{path}: already sets send_jitter; expected none to perturb")
            text, n = re.subn(r"^\[\[flows\]\]$", f'[[flows]]\nsend_jitter = "{jitter}"', text, flags=re.M)
            flows += n
            open(path, "w").write(text)
    if flows == 0:
        sys.exit(f"{os.path.join(scenarios, paper)}: no [[flows]] to give send_jitter")
    return root


def run_set(binary, paper, k, scenarios, work, jobs, tag=""):
    out = os.path.join(work, f"{paper}{tag}-set{k}")
    summary = os.path.join(out, "summary.json")
    if not os.path.exists(summary):
        cmd = [binary, "reproduce", paper, "--quick", "--jobs", str(jobs), "--out", out]
        if scenarios:
            cmd += ["--scenarios", scenarios]
        if k > 0:
            cmd += ["--seed-offset", str(k * OFFSET_STEP)]
        started = time.time()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        print(f"{paper} set {k}: {time.time() - started:.0f} s", file=sys.stderr)
    return headline_keys(json.load(open(summary)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pathpool", required=True, help="the pathpool binary to run")
    ap.add_argument("--sets", type=int, default=5, help="seed sets per paper (>= 2)")
    ap.add_argument("--papers", default=",".join(PAPERS), help="papers, each optionally :SETS")
    ap.add_argument("--scenarios", help="scenario folder (one folder per paper)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--work", default="out/headline-reference", help="where the reproductions go (reused when run again)")
    ap.add_argument("--note", default="", help="what the binary was built from")
    ap.add_argument("--send-jitter", help="run with this send_jitter on every flow (e.g. 10us), for deterministic papers")
    ap.add_argument("--only", help="rewrite only the keys starting with this prefix in --out, keep the rest")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    if a.sets < 2:
        sys.exit("--sets: expected at least 2 seed sets, to measure a spread")
    papers = {}
    for item in a.papers.split(","):
        paper, _, n = item.partition(":")
        n = int(n) if n else a.sets
        if n < 2:
            sys.exit(f"--papers {item}: expected at least 2 seed sets")
        scenarios, tag = a.scenarios, ""
        if a.send_jitter:
            scenarios, tag = jittered_scenarios(a.scenarios, paper, a.send_jitter, a.work), f"-jitter-{a.send_jitter}"
        sets = [run_set(a.pathpool, paper, k, scenarios, a.work, a.jobs, tag) for k in range(n)]
        keys = {}
        for key in sorted(sets[0]):
            vals = [s[key] for s in sets if key in s]
            keys[key] = {
                "first": sets[0][key],
                "mean": statistics.fmean(vals),
                "std": statistics.stdev(vals) if len(vals) > 1 else 0.0,
                "min": min(vals),
                "max": max(vals),
                "sets": len(vals),
            }
        papers[paper] = keys
    command = "python3 -m scripts.headline_reference " + " ".join(
        [f"--pathpool {os.path.basename(a.pathpool)}", f"--sets {a.sets}", f"--papers {a.papers}"]
        + ([f"--send-jitter {a.send_jitter}"] if a.send_jitter else [])
        + ([f"--scenarios {a.scenarios}"] if a.scenarios else [])
        + [f"--out {a.out}"]
    )
    doc = {"command": command, "note": a.note, "seed_offset_step": OFFSET_STEP}
    if a.send_jitter:
        doc["send_jitter"] = a.send_jitter
    doc["papers"] = papers
    if a.only:
        with open(a.out) as f:
            doc = json.load(f)
        for paper, keys in papers.items():
            kept = {k: v for k, v in doc["papers"][paper].items() if not k.startswith(a.only)}
            kept.update({k: v for k, v in keys.items() if k.startswith(a.only)})
            doc["papers"][paper] = dict(sorted(kept.items()))
        papers = doc.pop("papers")
        doc["updates"] = doc.get("updates", []) + [f"{command} --only {a.only}" + (f" ({a.note})" if a.note else "")]
        doc["papers"] = papers
    os.makedirs(os.path.dirname(a.out) or ".", exist_ok=True)
    # One line per key, so that a change of reference reads as a diff of the keys it moved.
    lines = [f' "{k}": {json.dumps(v)},' for k, v in doc.items() if k != "papers"] + [' "papers": {']
    papers = doc["papers"]
    for p_i, (paper, keys) in enumerate(papers.items()):
        lines.append(f'  "{paper}": {{')
        lines += [f'   "{k}": {json.dumps(v)}' + ("," if i + 1 < len(keys) else "") for i, (k, v) in enumerate(keys.items())]
        lines.append("  }" + ("," if p_i + 1 < len(papers) else ""))
    with open(a.out, "w") as f:
        f.write("{\n" + "\n".join(lines) + "\n }\n}\n")
    print(f"wrote {a.out}: {sum(len(k) for k in papers.values())} keys over {len(papers)} papers", file=sys.stderr)


if __name__ == "__main__":
    main()
