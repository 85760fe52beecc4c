#!/usr/bin/env python3
"""Where the flows of a testbed run mix: runs of one flow at each point of the loop, and what
triggers a subflow's bursts, and what each hop of the testbed takes.

For the shared MPTCP case (docs/fidelity-notes.md, "MPTCP against TCP"), from the captures of
`pathpool testbed run scenarios/fidelity/mptcp-shared.toml --capture --out D`:

    python3 -m scripts.interleave D/capture

prints the mean run of one flow (consecutive segments, or ACKs, of one flow) at the
receiver, at the senders' first hop and at the bottleneck's queue, and of the ACKs as they
have crossed the bottleneck link back and as they reach the senders; then, for the subflows' bursts at the
sender, what the hops around the bottleneck take (each subflow crosses one relay hop more
than TCP each way), and how often the ACK just before a burst was the subflow's own and how long before.
Each capture is stamped when a packet reaches the next node (crates/netlab/src/capture.rs),
so a subflow's data, stamped at the far end of its 1 ms first hop, is moved back by
--first-hop to its sending time.
"""
import argparse
import bisect
from collections import Counter
from pathlib import Path

from scripts.ack_pattern import run_lengths, segments


def load(folder, files, data, shift=0.0):
    out = []
    for f in files:
        for t, src, dst, _seq, ack, n, _psh in segments(str(Path(folder) / f)):
            if (n > 0) == data:
                out.append((t + shift, src if data else dst))
    return sorted(out)


def first_stamps(folder, name, data):
    """(src, dst, seq or ack) -> the first time the capture saw that segment or ACK."""
    seen = {}
    for t, src, dst, seq, ack, n, _psh in segments(str(Path(folder) / name)):
        if (n > 0) == data:
            seen.setdefault((src, dst, seq if data else ack), t)
    return seen


def hop(folder, before, after, data):
    """Percentiles (us) of the time between two captures' stamps of the same packets."""
    a, b = first_stamps(folder, before, data), first_stamps(folder, after, data)
    x = sorted(b[k] - a[k] for k in a if k in b)
    return " / ".join(f"{x[int(q * len(x))] * 1e6:.0f}" for q in (0.1, 0.5, 0.9)) if x else "none"


def mean_run(order, start):
    lengths = run_lengths(order, start)
    return sum(lengths) / len(lengths), sum(x >= 10 for x in lengths) / len(lengths)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("capture", help="a testbed run's capture folder (mptcp-shared)")
    ap.add_argument("--skip", type=float, default=5.0, help="seconds left out at the start")
    ap.add_argument("--first-hop", type=float, default=1e-3, help="delay of the subflows' first link (s)")
    a = ap.parse_args()
    d = a.capture
    start = load(d, ["bottleneck.pcap"], True)[0][0] + a.skip
    points = [
        ("data at the receiver", ["bottleneck.pcap"], True),
        ("data at the senders' first hop", ["s1.pcap", "s2.pcap", "t.pcap"], True),
        ("data into the bottleneck's queue", ["j1.pcap", "j2.pcap", "t.pcap"], True),
        ("ACKs back across the bottleneck link", ["bottleneck.reverse.pcap"], False),
        ("ACKs reaching the senders", ["s1.reverse.pcap", "s2.reverse.pcap", "t.reverse.pcap"], False),
    ]
    for name, files, data in points:
        m, ten = mean_run(load(d, files, data), start)
        print(f"{name}: runs of one flow, mean {m:.1f}, of 10 or more {ten:.2f}")
    print("what each hop takes (p10 / p50 / p90, us), from the stamps of the same packets:")
    for before, after, data, what in [
        ("s1.pcap", "j1.pcap", True, "data, subflow 1's 1 us link"),
        ("s2.pcap", "j2.pcap", True, "data, subflow 2's 1 us link"),
        ("bottleneck.reverse.pcap", "s1.reverse.pcap", False, "ACKs, bottleneck's far end to subflow 1's sender"),
        ("bottleneck.reverse.pcap", "s2.reverse.pcap", False, "ACKs, bottleneck's far end to subflow 2's sender"),
        ("bottleneck.reverse.pcap", "t.reverse.pcap", False, "ACKs, bottleneck's far end to the TCP sender"),
    ]:
        print(f"  {what}: {hop(d, before, after, data)}")
    events = []
    for sf in ("s1", "s2"):
        events += [(t - a.first_hop, "data", sf) for t, _ in load(d, [f"{sf}.pcap"], True)]
        events += [(t, "ack", sf) for t, _ in load(d, [f"{sf}.reverse.pcap"], False)]
    events.sort()
    acks = [(t, sf) for t, kind, sf in events if kind == "ack"]
    ack_times = [t for t, _ in acks]
    own, gaps, prev = Counter(), {True: [], False: []}, None
    for e in events:
        t, kind, sf = e
        if t >= start and kind == "data" and (prev is None or prev[1] == "ack" or prev[2] != sf):
            j = bisect.bisect_left(ack_times, t) - 1
            if j >= 0:
                same = acks[j][1] == sf
                own[same] += 1
                gaps[same].append(t - acks[j][0])
        prev = e
    total = sum(own.values()) or 1
    g = sorted(gaps[True]) or [0.0]
    print(f"subflow bursts after an ACK of their own: {own[True] / total:.3f} (median {g[len(g) // 2] * 1e6:.0f} us later), "
          f"after the other subflow's: {own[False] / total:.3f}")


if __name__ == "__main__":
    main()
