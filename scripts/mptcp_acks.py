#!/usr/bin/env python3
"""How the receiver acknowledges each flow, and where each flow's packets are dropped, from
the testbed's captures (`pathpool testbed run --capture`; docs/fidelity-notes.md, MPTCP).

    python3 -m scripts.mptcp_acks D/capture --bottleneck path1 --access s1:1ms --access t1:1ms

`--bottleneck` names the bottleneck link's captures (NAME.pcap: data as it leaves the link;
NAME.reverse.pcap: the receiver's ACKs on that link); each `--access` names an access link
that carries one flow or subflow (NAME.pcap, NAME.reverse.pcap) and its propagation delay,
so a data packet meets the bottleneck queue at its capture time plus the delay. Flows are
told apart by source address (each subflow has its own). After the first `--skip` seconds,
per access link:

- ACKs by segments newly acknowledged: the share of the receiver's pure ACKs that advance
  the cumulative ACK by 0 (duplicates), 1, 2 or 3+ segments.
- ACK hold at a train's end: the bottleneck serves each flow's packets in runs (trains).
  For a segment that ends its flow's train (the next departure is another flow's) and for
  one inside a train, the time from its departure to the first ACK covering it, less the
  path's own delay (the 10th percentile of that time inside trains): median, 75th and 90th percentile.
  A receiver that acknowledges the odd last segment at once shows about 0 at the median;
  one that waits for the next segment or its delayed-ACK timer shows milliseconds.
- Drops by place in a burst (packets less than 100 us apart at the queue): drops / bursts
  for the second packet of a pair and the third of a triple; drops are data packets seen
  entering and never leaving the bottleneck.

- Drops per packet: of the flow's data packets that met the queue, those that never left it.
- PSH: the share of the flow's data segments that carry it.

And per flow: of its bursts that follow another flow's burst at the queue, how many come at
most one departure after it.

Reads captures with the pathpool Python package (`pathpool.packets`, the Rust reader of
`detect --pcap`): run it with a Python that has pathpool installed (docs/python.md).
"""
import argparse
import bisect
import os
import struct
import sys
from collections import Counter, defaultdict

from scripts.bursts import packets  # (the same pcap reader)
from scripts.units import seconds


def tcp_segments(path):
    """(time, (src, sport), (dst, dport), seq, ack, payload, IP ID, PSH) per TCP segment of an IPv4 capture."""
    if not os.path.exists(path):
        sys.exit(f"{path}: no such capture (run the testbed with --capture)")
    for t, _orig, d in packets(path):
        h = tcp_header(d)
        if h is None:
            continue
        ihl, _off, payload, sport, dport, seq, ack = h
        yield t, (bytes(d[12:16]), sport), (bytes(d[16:20]), dport), seq, ack, payload, bytes(d[4:6]), bool(d[ihl + 13] & 0x08)


def tcp_header(d):
    """(IP header length, TCP header length, payload, sport, dport, seq, ack) of an IPv4 TCP
    segment's bytes, or None for anything else."""
    if len(d) < 40 or d[0] >> 4 != 4 or d[9] != 6:
        return None
    ihl = (d[0] & 0xF) * 4
    off = (d[ihl + 12] >> 4) * 4
    payload = struct.unpack(">H", d[2:4])[0] - ihl - off
    sport, dport, seq, ack = struct.unpack(">HHII", d[ihl:ihl + 12])
    return ihl, off, payload, sport, dport, seq, ack


def tcp(path):
    """(time, source, destination, seq, ack, payload, IP ID, PSH) per TCP segment of an IPv4 capture."""
    for t, src, dst, seq, ack, payload, ipid, psh in tcp_segments(path):
        yield t, src[0], dst[0], seq, ack, payload, ipid, psh


def after(a, b):
    """Sequence number a is at or after b (32-bit wrap)."""
    return (a - b) % 2**32 < 2**31


def pct(v, q):
    return v[min(int(q * len(v)), len(v) - 1)] if v else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("capture", help="the run's capture folder (D/capture)")
    ap.add_argument("--bottleneck", required=True, help="the bottleneck link's name")
    ap.add_argument("--access", action="append", required=True, help="NAME:DELAY, an access link carrying one flow")
    ap.add_argument("--skip", type=float, default=5.0, help="seconds left out at the start (slow start)")
    a = ap.parse_args()
    base = lambda n: os.path.join(a.capture, n)  # noqa: E731
    out = [(t, s, q, n, i) for t, s, _, q, _, n, i, _p in tcp(base(a.bottleneck + ".pcap")) if n > 0]
    dep = [(t, s, (q + n) % 2**32) for t, s, q, n, _ in out]
    if not dep:
        sys.exit(f"{base(a.bottleneck + '.pcap')}: no TCP data packets")
    left = set((s, q, i) for _, s, q, _, i in out)
    acks = defaultdict(list)
    for t, _s, d, _q, ack, n, _i, _p in tcp(base(a.bottleneck + ".reverse.pcap")):
        if n == 0:
            acks[d].append((t, ack))
    start, end = dep[0][0] + a.skip, dep[-1][0] - 1.0
    # ACK hold per segment, by place in its flow's train at the bottleneck.
    hold = defaultdict(lambda: defaultdict(list))
    for i in range(len(dep) - 1):
        t, s, e = dep[i]
        if not start < t < end:
            continue
        times = acks.get(s)
        if not times:
            continue
        j = bisect.bisect_left(times, (t, -1))
        while j < len(times) and not after(times[j][1], e):
            j += 1
        if j < len(times):
            hold[s]["end" if dep[i + 1][1] != s else "inside"].append(times[j][0] - t)
    # The path's own delay: the 10th percentile inside trains, where every second segment
    # completes a pair and is acknowledged at once.
    floor = pct(sorted(x for h in hold.values() for x in h["inside"]), 0.1)
    arrivals = []
    for spec in a.access:
        name, _, delay = spec.rpartition(":")
        delay = seconds(delay, "--access")
        data = [(t + delay, s, q, n, i, p) for t, s, _, q, _, n, i, p in tcp(base(name + ".pcap")) if n > 0]
        if not data:
            sys.exit(f"{base(name + '.pcap')}: no TCP data packets")
        src = Counter(x[1] for x in data).most_common(1)[0][0]
        mss = Counter(x[3] for x in data).most_common(1)[0][0]
        # Segments per ACK, from the cumulative ACK's advance.
        per_ack, prev = Counter(), None
        for t, _s, _d, _q, ack, n, _i, _p in tcp(base(name + ".reverse.pcap")):
            if n > 0:
                continue
            if prev is not None and t > data[0][0] + a.skip:
                per_ack[min(round(((ack - prev) % 2**32) / mss), 3) if after(ack, prev) else 0] += 1
            prev = ack if prev is None or after(ack, prev) else prev
        total = sum(per_ack.values()) or 1
        pushed = sum(1 for x in data if x[5]) / len(data)
        arrivals.extend((x[0], name) for x in data)
        # Drops by place in a burst at the queue.
        place, drops = Counter(), Counter()
        k = 0
        while k < len(data):
            m = k + 1
            while m < len(data) and data[m][0] - data[m - 1][0] < 100e-6:
                m += 1
            if start < data[k][0] < end:
                size = m - k
                if size in (2, 3):
                    place[size] += 1
                    last = data[m - 1]
                    drops[size] += (src, last[2], last[4]) not in left
            k = m
        h = hold.get(src, {})
        line = lambda v: f"{pct(v, 0.5) * 1e3:.1f} / {pct(v, 0.75) * 1e3:.1f} / {pct(v, 0.9) * 1e3:.1f} ms"  # noqa: E731
        print(f"{name}: {pushed:.2f} of data segments with PSH; {total} ACKs; segments per ACK " + ", ".join(f"{s}{'+' if s == 3 else ''}: {per_ack[s] / total:.3f}" for s in range(4)))
        ends = sorted(x - floor for x in h.get("end", []))
        held = sum(1 for x in ends if x > 0.3e-3)
        print(f"  ACK hold (median / 75th / 90th): train's last segment {line(ends)}, held over 0.3 ms {held}/{len(ends)};"
              f" inside a train {line(sorted(x - floor for x in h.get('inside', [])))}")
        print(f"  drops: second of a pair {drops[2]}/{place[2]}, third of a triple {drops[3]}/{place[3]}")
        # Every data packet that met the queue in the window and never left it.
        met = [x for x in data if start < x[0] < end]
        lost = sum(1 for x in met if (src, x[2], x[4]) not in left)
        print(f"  drops per packet: {lost}/{len(met)}")
    train_changes(arrivals, [t for t, _, _ in dep], start, end)


def train_changes(arrivals, departures, start, end):
    """Per flow, the bursts that follow another flow's burst at the queue, and how many of
    them come after at most one departure (two bursts pressed together)."""
    arrivals.sort()
    bursts = []
    for t, n in arrivals:
        if bursts and bursts[-1][1] == n and t - bursts[-1][2] < 100e-6:
            bursts[-1][2] = t
        else:
            bursts.append([t, n, t])
    close, total = Counter(), Counter()
    for prev, b in zip(bursts, bursts[1:]):
        if prev[1] != b[1] and start < b[0] < end:
            total[b[1]] += 1
            close[b[1]] += bisect.bisect_left(departures, b[0]) - bisect.bisect_left(departures, prev[2]) <= 1
    if len(total) > 1:
        print("after another flow's burst, at most one departure apart: " + ", ".join(f"{n} {close[n]}/{total[n]}" for n in sorted(total)))


if __name__ == "__main__":
    main()
