#!/usr/bin/env python3
"""Ten minutes of traffic through every BPF controller at once (scenarios/kernel/soak.toml,
docs/kernel.md "Soak"): kernel messages during the run, the BPF maps' sizes after the
connections end, and the SBD daemon's memory over the run; the result is written into
docs/kernel.md between its soak markers.

    sudo python3 -m scripts.kernel_soak [--bin target/release/pathpool] [--out out/kernel-soak]
                                         [--duration 600s] [--doc docs/kernel.md]
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

from scripts.doc_table import write_between

BEGIN = "<!-- kernel-soak:begin (written by scripts/kernel_soak.py) -->"
END = "<!-- kernel-soak:end -->"
PIN = "/sys/fs/bpf/pathpool"


def registered():
    with open("/proc/sys/net/ipv4/tcp_available_congestion_control") as f:
        return [n for n in f.read().split() if n.startswith("pp_")]


def map_entries(name):
    out = subprocess.run(["bpftool", "-j", "map", "dump", "pinned", f"{PIN}/{name}"],
                         capture_output=True, text=True, check=True).stdout
    return len(json.loads(out or "[]"))


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", default="target/release/pathpool")
    p.add_argument("--out", default="out/kernel-soak")
    p.add_argument("--duration", default="600s")
    p.add_argument("--doc", default="docs/kernel.md")
    args = p.parse_args()
    if os.geteuid() != 0:
        sys.exit("kernel_soak.py needs root (the testbed and the BPF controllers)")
    os.makedirs(args.out, exist_ok=True)
    dmesg_before = subprocess.run(["dmesg"], capture_output=True, text=True).stdout.splitlines()
    loaded = False
    if not registered():
        subprocess.run([args.bin, "kernel", "load"], check=True)
        loaded = True
    log = open(os.path.join(args.out, "sbd.log"), "w")
    daemon = subprocess.Popen([args.bin, "kernel", "sbd"], stdout=log, stderr=subprocess.STDOUT)
    rss, stop = [], threading.Event()

    def sample():
        while not stop.is_set():
            rss.append((time.monotonic(), rss_kib(daemon.pid)))
            stop.wait(30)

    t = threading.Thread(target=sample)
    t.start()
    try:
        subprocess.run([args.bin, "testbed", "run", "scenarios/kernel/soak.toml", "--out",
                        os.path.join(args.out, "run"), "--set", f"simulation.duration={args.duration}"],
                       check=True)
        during = (map_entries("pp_conns"), map_entries("pp_groups"))
        # Sockets closed with data queued live on as orphans until the kernel gives up on them.
        waited = 0
        while map_entries("pp_conns") and waited < 300:
            time.sleep(5)
            waited += 5
        after = (map_entries("pp_conns"), map_entries("pp_groups"))
        time.sleep(35)  # the daemon forgets connections idle for 30 s
    finally:
        stop.set()
        t.join()
        daemon.send_signal(signal.SIGINT)
        daemon.wait(timeout=10)
        status = subprocess.run([args.bin, "kernel", "status"], capture_output=True, text=True).stdout
        if loaded:
            subprocess.run([args.bin, "kernel", "unload"], check=True)
    dmesg_after = subprocess.run(["dmesg"], capture_output=True, text=True).stdout.splitlines()
    new = dmesg_after[len(dmesg_before):]
    bad = [l for l in new if re.search(r"WARNING|BUG|Oops|bpf|mptcp|tcp", l, re.I)]
    with open(os.path.join(args.out, "sbd.log")) as f:
        last = f.read().strip().splitlines()[-1]
    with open(os.path.join(args.out, "run", "summary.json")) as f:
        summary = json.load(f)
    mbps = {k.split(".")[1]: v for k, v in summary.items()
            if k.startswith("mptcp.") and k.endswith(".throughput_mbps") and k.count(".") == 2}
    r0, r1 = rss[1][1] if len(rss) > 1 else rss[0][1], rss[-1][1]
    lines = [
        f"- traffic: {args.duration} through `pp_lia`, `pp_olia`, `pp_balia` and "
        f"`pp_mptcp_sbd` at once (MPTCP goodput, Mb/s: "
        + ", ".join(f"{k} {v:.2f}" for k, v in sorted(mbps.items())) + ")",
        f"- kernel messages during the run: {len(new)} new lines, {len(bad)} mentioning WARNING, BUG, "
        f"Oops, bpf, mptcp or tcp" + (": " + "; ".join(bad[:3]) if bad else ""),
        f"- `pp_conns` / `pp_groups` entries at the end of the traffic: {during[0]} / {during[1]}; "
        f"{waited} s later: {after[0]} / {after[1]}",
        f"- the SBD daemon's resident memory: {r0} KiB after 30 s, {r1} KiB at the end "
        f"({len(rss)} samples, every 30 s, max {max(v for _, v in rss)} KiB)",
        f"- the daemon's last line: `{last}`",
    ]
    guards = [l for l in status.splitlines() if l.startswith(("guards:", "first window above"))]
    lines.extend(f"- the controllers' {g}" for g in guards)
    text = "\n".join(lines)
    print(text)
    write_between(args.doc, BEGIN, END, text)


if __name__ == "__main__":
    main()
