#!/usr/bin/env python3
"""Shared bottleneck detection on real Linux captures of a known topology, per vantage point
(docs/pcap.md, "Real captures at both ends and in the middle"). Needs root.

The testbed (docs/testbed.md) runs S0's SB-2 (one shared bottleneck) and NSB-2 (two disjoint
ones) with a transfer from host s to host d: Linux MPTCP with two subflows
(scenarios/pcap/{sb,nsb}-2-testbed.toml) or two TCP flows over the same two routes
(scenarios/pcap/{sb,nsb}-2-testbed-tcp.toml). `--capture-host` records on the sender s, the
receiver d and the bottleneck's router(s) l0 (and l1: NSB-2's second path has its own), as
tcpdump -i any on those hosts would. Each capture is cut to the packets between s and d (the
flows the question is about, as `tcpdump host` would; the middle host also forwards the
cross traffic) and read by `pathpool detect --pcap` with each detector. Per run: the share of
decisions after 20 s that match the truth (SB-2: both flows in one group; NSB-2: each in a group
of its own), and the tool's own answer (summary.json: the MPTCP connection's `answer`, for TCP
the answer for all flows; "cannot tell" with its reason when its decisions disagree).
A run meets the target when its share is >= 90 % or the tool said it cannot tell.

Runs go into --out and are reused when present (delete a run's folder to run it again); the
table is written into docs/pcap.md between its markers (or printed with --print); exits 1 when
a `pathpool` row has a run below 90 % with a confident answer."""
import argparse
import csv
import json
import os
import re
import statistics
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
from scripts.doc_table import emit

TOPOLOGIES = [("sb-2", "shared", ["l0"]), ("nsb-2", "separate", ["l0", "l1"])]
TRANSFERS = [("mptcp", ""), ("tcp", "-tcp")]
VANTAGES = [("sender", ["s"]), ("middle", None), ("receiver", ["d"])]
DETECTORS = ["pathpool", "mptcp-sbd"]
AFTER_S = 20.0
TARGET = 0.9
BEGIN, END = "<!-- pcap_testbed_vantage.py begin -->", "<!-- pcap_testbed_vantage.py end -->"


def run_testbed(a, topo, middle, suffix, k):
    out = os.path.join(a.out, f"{topo}{suffix}-run{k}")
    if os.path.exists(os.path.join(out, "summary.json")):
        return out
    cmd = [a.bin, "testbed", "run", os.path.join(ROOT, "scenarios", "pcap", f"{topo}-testbed{suffix}.toml"),
           "--out", out, "--seed", str(k)]
    for h in ["s", "d"] + middle:
        cmd += ["--capture-host", h]
    # A run that fails (a real socket can be reset under load) is tried once more; the failure
    # is kept beside the run and reported under the table.
    failures = []
    for _ in range(2):
        load_before = open("/proc/loadavg").read().split()[0]
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode == 0:
            break
        failures.append(r.stderr.strip().splitlines()[-1] if r.stderr.strip() else f"exit {r.returncode}")
    else:
        sys.exit(f"{out}: the testbed failed twice: {failures}")
    with open(os.path.join(out, "load.txt"), "w") as f:
        f.write(f"{load_before} {open('/proc/loadavg').read().split()[0]}\n")
    with open(os.path.join(out, "failures.txt"), "w") as f:
        f.write("".join(x + "\n" for x in failures))
    # What the run said (packets a capture lacks, if any).
    with open(os.path.join(out, "stderr.txt"), "w") as f:
        f.write(r.stderr)
    return out


def pcap_records(path):
    """(byte order, header bytes, [(record header, data)]) of a classic pcap with raw IP (the
    testbed writes big-endian files)."""
    with open(path, "rb") as f:
        raw = f.read()
    order = ">" if raw[:4] in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d") else "<"
    head, recs, at = raw[:24], [], 24
    while at + 16 <= len(raw):
        incl = struct.unpack_from(order + "I", raw, at + 8)[0]
        recs.append((raw[at:at + 16], raw[at + 16:at + 16 + incl]))
        at += 16 + incl
    return order, head, recs


def pair(ip):
    return (ip[12:16], ip[16:20]) if len(ip) >= 20 and ip[0] >> 4 == 4 else None


def cut(run, hosts, ends, name):
    """The captures of `hosts` merged into one file holding only packets between s and d."""
    path = os.path.join(run, "capture", f"{name}.pcap")
    if os.path.exists(path) and os.path.getsize(path) > 24:
        return path
    head, kept, order = None, [], "<"
    for h in hosts:
        order, hd, recs = pcap_records(os.path.join(run, "capture", f"host-{h}.pcap"))
        head = head or hd
        kept += [r for r in recs if pair(r[1]) in ends]
    kept.sort(key=lambda r: struct.unpack_from(order + "II", r[0]))
    with open(path, "wb") as f:
        f.write(head)
        for rh, data in kept:
            f.write(rh + data)
    return path


def share(decisions, names, truth):
    by_time = {}
    with open(decisions) as f:
        for r in csv.DictReader(f):
            if r["subflow"] in names:
                by_time.setdefault(float(r["time_s"]), []).append(int(r["group"]))
    judged = [g for t, g in sorted(by_time.items()) if t >= AFTER_S]
    if truth == "shared":
        ok = sum(1 for g in judged if g[0] != 0 and all(x == g[0] for x in g))
    else:
        ok = sum(1 for g in judged if 0 not in g and len(set(g)) == len(g))
    return ok, len(judged)


def detect(a, capture, transfer, truth, det):
    out = os.path.splitext(capture)[0] + f"-{det}"
    r = subprocess.run([a.bin, "detect", "--pcap", capture, "--detector", det, "--out", out], capture_output=True, text=True)
    if r.returncode != 0:
        return {"cannot": r.stderr.strip().splitlines()[-1] if r.stderr.strip() else f"exit {r.returncode}"}
    s = json.load(open(os.path.join(out, "summary.json")))
    if transfer == "mptcp":
        conns = [c for c in s["connections"] if c["name"].startswith("mptcp") and len(c["subflows"]) == 2]
        if not conns:
            return {"cannot": "the MPTCP connection's two subflows were not both analysed: " + "; ".join(x["why"] for x in s["cannot_tell"])}
        subs, answer = conns[0]["subflows"], conns[0]["answer"]
    else:
        subs = [f for c in s["connections"] for f in c["subflows"]]
        if len(subs) != 2:
            return {"cannot": f"{len(subs)} TCP flows analysed, not 2: " + "; ".join(x["why"] for x in s["cannot_tell"])}
        answer = s["answer_all_flows"]
    ok, n = share(os.path.join(out, "decisions.csv"), [f["name"].split(" ")[0] for f in subs], truth)
    return {"ok": ok, "n": n, "vantage": sorted({f["vantage"] for f in subs}), "delay": sorted({f["delay"] for f in subs}),
            "answer": answer, "duplicates": s["duplicates_dropped"]}


def shape(grouping):
    """The answer without the flows' names: "one group", "two groups", ..."""
    words = {1: "one group", 2: "two groups", 3: "three groups"}
    text = words.get(grouping.count("{"), f"{grouping.count('{')} groups")
    return text + (", some not bottlenecked" if "not bottlenecked" in grouping else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "pathpool"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "pcap-testbed-vantage"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--print", action="store_true", help="print the table instead of writing docs/pcap.md")
    a = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("pcap_testbed_vantage.py: skipped, the testbed needs root (network namespaces, TUN devices, tc)")
    runs = list(range(1, a.runs + 1))
    res, health = {}, {}
    for k in runs:
        for topo, truth, middle in TOPOLOGIES:
            for transfer, suffix in TRANSFERS:
                run = run_testbed(a, topo, middle, suffix, k)
                summary = json.load(open(os.path.join(run, "summary.json")))
                load = open(os.path.join(run, "load.txt")).read().split()
                health[(topo, transfer, k)] = (summary.get("bottleneck_utilization"), summary.get("wall_seconds"), load)
                _, _, recs = pcap_records(os.path.join(run, "capture", "host-s.pcap"))
                ends = {pair(r[1]) for r in recs} - {None}
                for v, hosts in VANTAGES:
                    cap = cut(run, hosts or middle, ends, v)
                    for d in DETECTORS:
                        res[(topo, transfer, v, d, k)] = detect(a, cap, transfer, truth, d)
    lines = [f"| topology | transfer | capture | detector | where the tool says | delay signal | right per run (decisions after {AFTER_S:g} s) | median [min, max] | tool's answer per run | target met? |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    failed = False
    for topo, truth, middle in TOPOLOGIES:
        for transfer, _ in TRANSFERS:
            for v, hosts in VANTAGES:
                where = "+".join(f"host-{h}" for h in (hosts or middle))
                for d in DETECTORS:
                    rs = [res[(topo, transfer, v, d, k)] for k in runs]
                    judged = [r for r in rs if "ok" in r]
                    shares = [r["ok"] / r["n"] for r in judged if r["n"]]
                    per = ", ".join(f"{r['ok']}/{r['n']}" if "ok" in r else "none" for r in rs)
                    rng = f"{statistics.median(shares):.3f} [{min(shares):.3f}, {max(shares):.3f}]" if shares else "—"
                    answers = []
                    met = True
                    for r in rs:
                        if "ok" not in r:
                            answers.append(f"cannot tell: {r['cannot']}")
                            continue
                        ans = r["answer"]
                        if ans["settled"]:
                            answers.append(f"{shape(ans['grouping'])} ({ans['agreeing']}/{ans['decisions']})")
                            met &= r["n"] > 0 and r["ok"] / r["n"] >= TARGET
                        else:
                            answers.append(f"cannot tell ({ans['agreeing']}/{ans['decisions']} agree)")
                    failed |= d == "pathpool" and not met
                    vant = ", ".join(sorted({x for r in judged for x in r["vantage"]}))
                    sig = ", ".join(sorted({x for r in judged for x in r["delay"]}))
                    lines.append(f"| {topo} ({truth}) | {transfer} | {v} ({where}) | {d} | {vant} | {sig} | {per} | {rng} | {'; '.join(answers)} | {'yes' if met else 'no'} |")
    failed_runs = []
    for k in runs:
        for topo, _, _ in TOPOLOGIES:
            for transfer, suffix in TRANSFERS:
                path = os.path.join(a.out, f"{topo}{suffix}-run{k}", "failures.txt")
                failed_runs += [f"{topo} {transfer} run {k}: {x}" for x in (open(path).read().splitlines() if os.path.exists(path) else [])]
    lines += ["", f"Runs: {len(runs)} per topology and transfer (`--seed` 1-{len(runs)}). The testbed's health per run "
              "(bottleneck utilisation, wall seconds of the 140 s scenario, load average before and after):", "",
              "| topology | transfer | " + " | ".join(f"run {k}" for k in runs) + " |", "|---|---|" + "---|" * len(runs)]
    for topo, _, _ in TOPOLOGIES:
        for transfer, _ in TRANSFERS:
            cells = []
            for k in runs:
                u, w, load = health[(topo, transfer, k)]
                cells.append(f"{u:.3f}, {w:.0f} s, load {load[0]}/{load[1]}" if u is not None and w is not None else f"{u}, load {load[0]}/{load[1]}")
            lines.append(f"| {topo} | {transfer} | " + " | ".join(cells) + " |")
    notes = []
    for k in runs:
        for topo, _, _ in TOPOLOGIES:
            for transfer, suffix in TRANSFERS:
                path = os.path.join(a.out, f"{topo}{suffix}-run{k}", "stderr.txt")
                said = [x for x in open(path).read().splitlines() if "packets" in x] if os.path.exists(path) else ["not recorded"]
                # The file by its name only: where the runs were kept is no part of the result.
                notes += [f"{topo} {transfer} run {k}: " + re.sub(r"'[^']*/([^/']+)'", r"'\1'", x) for x in said]
    lines += ["", "Packets missing from the captures (the testbed names each file that lacks any): " + ("; ".join(notes) if notes else "none") + "."]
    if failed_runs:
        lines += ["", "Testbed runs that failed and were run again: " + "; ".join(failed_runs) + "."]
    emit("\n".join(lines), a.print, os.path.join(ROOT, "docs", "pcap.md"), BEGIN, END)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
