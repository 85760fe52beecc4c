#!/usr/bin/env python3
"""Scenario files for the lying-receiver evaluation (docs/security.md, scripts/liar_table.py):
one MPTCP-SBD connection of n subflows and m TCP flows, either all through one bottleneck
("shared") or each subflow through a bottleneck of its own with m TCP flows beside it
("disjoint").

A setup is a dict: rate_mbps, rtt_ms (base RTT of every flow), buffer_bdp (the bottleneck's
buffer in bandwidth-delay products of that RTT), subflows, tcp, queue ("droptail" or "red"),
hosts ("linux-6.18" or "ideal"), layout ("shared" or "disjoint").
"""

import math
import sys

PACKET = 1500
ACCESS_MS = 0.5  # every host's access link, each way; the bottleneck's delay makes up the rest
EXIT_MS = 0.5


def buffer_packets(s):
    bdp = s["rate_mbps"] * 1e6 * s["rtt_ms"] / 1e3 / 8 / PACKET
    # At least one packet per flow through it, and a few for RED's thresholds to lie apart.
    flows = s["tcp"] + (1 if s["layout"] == "disjoint" else s["subflows"])
    return max(round(s["buffer_bdp"] * bdp), flows + 1, 4)


def name(s):
    return (f"{s['layout']}-{s['rate_mbps']:g}M-{s['rtt_ms']:g}ms-{s['buffer_bdp']:g}bdp-"
            f"{s['subflows']}sf-{s['tcp']}tcp-{s['queue']}-{s['hosts']}")


def _bottleneck(key, src, dst, s):
    delay = s["rtt_ms"] / 2 - ACCESS_MS - EXIT_MS
    b = buffer_packets(s)
    out = [f"[links.{key}]", f'from = "{src}"', f'to = "{dst}"', f'rate = "{s["rate_mbps"]:g}Mbps"',
           f'delay = "{delay:g}ms"', f"buffer = {b}"]
    if s["queue"] == "red":
        # Floyd's rule of thumb: max_th three times min_th, min_th a fifth of the buffer.
        lo = max(1, round(b / 5))
        out += ['queue = "red"', f"red_min = {lo}", f"red_max = {max(lo + 1, 3 * lo)}"]
    return out + [""]


def _link(key, src, dst, delay_ms=ACCESS_MS):
    return [f"[links.{key}]", f'from = "{src}"', f'to = "{dst}"', 'rate = "1Gbps"', f'delay = "{delay_ms:g}ms"', "buffer = 1000", ""]


def toml(s, duration_s, warmup_s):
    """The scenario file's text (seed 1; `--seed` sets another)."""
    n, m = s["subflows"], s["tcp"]
    shared = s["layout"] == "shared"
    lines = [f'description = "{name(s)}"', "", "[simulation]", f'hosts = "{s["hosts"]}"',
             f'duration = "{duration_s}s"', f'warmup = "{warmup_s}s"', "seed = 1", 'probe_interval = "1s"',
             f'bottleneck = "bn0"', ""]
    nbn = 1 if shared else n
    for b in range(nbn):
        lines += _bottleneck(f"bn{b}", f"l{b}", f"r{b}", s)
        lines += _link(f"exit{b}", f"r{b}", f"d{b}", EXIT_MS)
        lines += _link(f"mp_exit{b}", f"r{b}", "server", EXIT_MS)
    for i in range(n):
        lines += _link(f"mp_in{i}", "client", f"a{i}", ACCESS_MS / 2)
        lines += _link(f"mp_via{i}", f"a{i}", f"l{0 if shared else i}", ACCESS_MS / 2)
    for b in range(nbn):
        for j in range(m):
            lines += _link(f"tcp_in{b}_{j}", f"t{b}_{j}", f"l{b}")
    subflows = ", ".join(f'["client", "a{i}", "l{0 if shared else i}", "r{0 if shared else i}", "server"]' for i in range(n))
    lines += ["[[flows]]", 'name = "mptcp"', 'kind = "mptcp"', 'cc = "mptcp-sbd"', f"subflows = [{subflows}]", ""]
    for flow, b, j in tcp_flows(s):
        lines += ["[[flows]]", f'name = "{flow}"', f'route = ["t{b}_{j}", "l{b}", "r{b}", "d{b}"]',
                  "competitor = true", f'start = "{tcp_start_s(j):.1f}s"', ""]
    return "\n".join(lines)


def tcp_flows(s):
    """(name, bottleneck, index at that bottleneck) of every TCP flow: `tcp` per bottleneck,
    one bottleneck when shared, one per subflow when disjoint."""
    bottlenecks = 1 if s["layout"] == "shared" else s["subflows"]
    return [(f"tcp{b}_{j}", b, j) for b in range(bottlenecks) for j in range(s["tcp"])]


def tcp_start_s(j):
    """The j-th TCP flow's start, in seconds (each bottleneck's flows 100 ms apart)."""
    return 0.1 * (j + 1)


def bdp_packets(s):
    return s["rate_mbps"] * 1e6 * s["rtt_ms"] / 1e3 / 8 / PACKET


if __name__ == "__main__":
    # The setup of docs/security.md's "Why the check missed sharing" (scenarios/security/ holds
    # both layouts, written by this), and the five starved subflows of "What still fails"
    # (`starved`: shared, where the sender's check has no evidence of its own).
    kind = sys.argv[1] if len(sys.argv) > 1 else "shared"
    if kind == "starved":
        setup = dict(rate_mbps=10, rtt_ms=10, buffer_bdp=2, subflows=5, tcp=3, queue="droptail", hosts="linux-6.18", layout="shared")
        print("# Written by `python3 -m scripts.liar_scenarios starved`: five starved subflows of docs/security.md")
        print("# (\"What still fails\"); crates/scenario/tests/check_blind.rs runs it.")
    else:
        setup = dict(rate_mbps=20, rtt_ms=20, buffer_bdp=1, subflows=2, tcp=1, queue="droptail", hosts="linux-6.18", layout=kind)
        assert math.isclose(bdp_packets(setup), 33.33, rel_tol=1e-3)
        print(f"# Written by `python3 -m scripts.liar_scenarios {kind}`: the lying-receiver setup of docs/security.md")
        print("# (\"Why the check missed sharing\"); crates/scenario/tests/liar.rs runs it under both host models.")
    print(toml(setup, 140, 20))
