#!/usr/bin/env python3
"""Per-subflow TCP state of a testbed MPTCP run over time, from `ss` (docs/kernel.md, "Why the
floor is 2 segments"): runs `pathpool testbed run FILE --out OUT [--set ...]` and, every 50 ms,
`ss -tinO` (the subflows running a pp_* controller: cwnd, ssthresh, retransmissions,
unacknowledged and not-yet-sent bytes) and `ss -MinO` (the MPTCP connection: write_seq and
snd_una) in every namespace of the run, into OUT/ss.txt (the run's files in OUT/run); then prints a summary per subflow.

    sudo python3 -m scripts.kernel_ss_trace scenarios/kernel/shared.toml --out out/kernel-ss/olia \\
        --set flows.mp.cc=olia [--bin target/release/pathpool]
    python3 -m scripts.kernel_ss_trace --summary out/kernel-ss/olia/ss.txt    # summary only

The summary counts, per subflow, the samples at cwnd 1 and the longest stretch there (with the
retransmissions during it), and the samples in which the subflow had nothing in flight and
nothing queued (idle) while the connection's send buffer held data (write_seq - snd_una).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time

PERIOD = 0.05


def trace(args):
    os.makedirs(args.out, exist_ok=True)
    # The run's own files go in OUT/run: pathpool refuses an --out folder holding ss.txt.
    cmd = [args.bin, "testbed", "run", args.file, "--out", os.path.join(args.out, "run")]
    for s in args.set or []:
        cmd += ["--set", s]
    print("+", " ".join(cmd), flush=True)
    p = subprocess.Popen(cmd)
    prefix = f"pathpool-{p.pid}-"
    path = os.path.join(args.out, "ss.txt")
    t0 = time.time()
    with open(path, "w") as log:
        while p.poll() is None:
            names = [n for n in os.listdir("/run/netns") if n.startswith(prefix)] if os.path.isdir("/run/netns") else []
            now = time.time() - t0
            for ns in names:
                for flag in ("-tinOH", "-MinOH"):
                    r = subprocess.run(["ip", "netns", "exec", ns, "ss", flag], capture_output=True, text=True)
                    for line in r.stdout.splitlines():
                        if flag == "-MinOH" or "pp_" in line:
                            log.write(f"{now:.3f} {ns} {flag} {line}\n")
            time.sleep(PERIOD)
    if p.returncode != 0:
        sys.exit(f"pathpool testbed run failed ({p.returncode})")
    return path


def summary(path):
    subflows, conn = {}, []
    for line in open(path):
        parts = line.split()
        t, flag = float(parts[0]), parts[2]
        kv = dict(re.findall(r"(\w+):([^\s]+)", line))
        if flag == "-tinOH":
            retrans = int(kv.get("retrans", "0/0").split("/")[1])
            subflows.setdefault(parts[6], []).append(
                (t, int(kv.get("cwnd", 0)), int(kv.get("unacked", 0)), int(kv.get("notsent", 0)), retrans))
        elif "write_seq" in kv and "snd_una" in kv and "pp_" not in line:
            conn.append((t, parts[1], int(kv["write_seq"], 16) - int(kv["snd_una"], 16)))
    # The sender's connection is the one whose subflows run a pathpool controller: its
    # namespace is the one ss -tinO found them in.
    sender_ns = {line.split()[1] for line in open(path) if " -tinOH " in line}
    backlog = [b for t, ns, b in conn if ns in sender_ns]
    if backlog:
        print(f"connection: write_seq - snd_una median {statistics.median(backlog) / 1e3:.0f} kB "
              f"[{min(backlog) / 1e3:.0f}, {max(backlog) / 1e3:.0f}] over {len(backlog)} samples")
    for name, rows in sorted(subflows.items()):
        at1 = [r for r in rows if r[1] == 1]
        longest, start, best = 0.0, None, (0, 0)
        for k, r in enumerate(rows):
            if r[1] == 1 and start is None:
                start = k
            if (r[1] != 1 or k == len(rows) - 1) and start is not None:
                end = k if r[1] != 1 else k
                if rows[end][0] - rows[start][0] > longest:
                    longest = rows[end][0] - rows[start][0]
                    best = (rows[start][4], rows[end][4])
                start = None
        idle = sum(1 for r in rows if r[2] == 0 and r[3] == 0)
        print(f"subflow {name}: {len(rows)} samples, cwnd median {statistics.median(r[1] for r in rows):.0f}; "
              f"at cwnd 1 in {len(at1)} ({100 * len(at1) / len(rows):.0f} %), longest stretch {longest:.1f} s "
              f"with {best[1] - best[0]} retransmissions in it; idle (nothing in flight or queued) in {idle} "
              f"({100 * idle / len(rows):.0f} %); queued but unsent median {statistics.median(r[3] for r in rows) / 1e3:.0f} kB")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", nargs="?")
    p.add_argument("--out")
    p.add_argument("--set", action="append")
    p.add_argument("--bin", default="target/release/pathpool")
    p.add_argument("--summary", metavar="SS_TXT", help="only summarise an existing ss.txt")
    args = p.parse_args()
    if args.summary:
        summary(args.summary)
        return
    if not (args.file and args.out):
        sys.exit("kernel_ss_trace.py: give a scenario FILE and --out DIR (or --summary SS_TXT)")
    if os.geteuid() != 0:
        sys.exit("kernel_ss_trace.py needs root (the testbed)")
    summary(trace(args))


if __name__ == "__main__":
    main()
