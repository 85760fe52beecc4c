#!/usr/bin/env python3
"""How a receiver acknowledges each TCP flow or MPTCP subflow, from captures at the receiver
(real: the testbed's `--capture` of the link into the receiver; simulated: `pathpool run
--pcap`), so that real Linux and the simulator are read by one yardstick (docs/fidelity-notes.md,
MPTCP).

    python3 -m scripts.ack_pattern --data D/capture/bottleneck.pcap --acks D/capture/bottleneck.reverse.pcap
    python3 -m scripts.ack_pattern --data S/pcap/dst.pcap        # a simulated receiver host

Per flow (source address and port of its data), after the first `--skip` seconds:

- PSH: the share of its data segments that carry it, and how far apart (in segments) one
  PSH segment is from the next: 2 or 3 (Linux's skbs of two segments, now and then three);
- ACKs by segments newly acknowledged: the share of the receiver's pure ACKs that advance the
  cumulative ACK by 1, 2 or 3+ segments;
- ACK hold at a train's end: for a segment after which the flow's next segment comes more than
  `--gap` later, the time to the first ACK that covers it, less the flow's floor (the 10th
  percentile of that time over all its segments); the share held over 0.3 ms, the median of
  those holds and the share of them over 35 ms (the delayed-ACK timer's);
- ACKs of one segment by what sent them: at once (within 0.3 ms of the floor) for a segment
  with PSH (Linux's read-time ACK), at once for one without (quick-ACK mode), or later (a
  held ACK let go by a read, another segment or the timer).

And over all flows: how the bottleneck interleaves them, as runs of consecutive segments of
one flow in the order they reach the receiver (mean run, share of runs of 10 or more), and
each flow's mean run. `--together A,B` counts the flows from source addresses A and B as one
(say, an MPTCP connection's subflows) in one more line.

With `--sender CAPTURE` (a capture at one flow's sender, e.g. its access link), also that
flow's bursts (segments less than 100 us apart): their sizes, and the share that end with PSH.

Reads captures with the pathpool Python package (`pathpool.packets`, the Rust reader of
`detect --pcap`): run it with a Python that has pathpool installed (docs/python.md).
"""
import argparse
import bisect
import sys
from collections import Counter, defaultdict

from scripts.mptcp_acks import after, tcp_segments  # (the same capture reader)


def segments(path):
    """(time, (src, sport), (dst, dport), seq, ack, payload, PSH) per TCP segment of an IPv4 capture."""
    for t, src, dst, seq, ack, payload, _ipid, psh in tcp_segments(path):
        yield t, src, dst, seq, ack, payload, psh


def address(src):
    """A source (address bytes, port) as its dotted address."""
    return ".".join(map(str, src[0]))


def label(key):
    """A source as address:port; a name given instead (flows counted as one) as it is."""
    return key if isinstance(key, str) else f"{address(key)}:{key[1]}"


def pct(v, q):
    v = sorted(v)
    return v[min(int(q * len(v)), len(v) - 1)] if v else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, help="capture with the data segments as they reach the receiver")
    ap.add_argument("--acks", help="capture with the receiver's ACKs (default: the --data capture)")
    ap.add_argument("--skip", type=float, default=5.0, help="seconds left out at the start (slow start)")
    ap.add_argument("--gap", type=float, default=1e-3, help="a longer pause between a flow's segments ends a train (s)")
    ap.add_argument("--sender", action="append", default=[], help="a capture at one flow's sender: its bursts")
    ap.add_argument("--together", help="source addresses, comma-separated, whose flows count as one in the runs")
    a = ap.parse_args()
    data, acks, order = defaultdict(list), defaultdict(list), []
    for t, src, dst, seq, _ack, n, psh in segments(a.data):
        if n > 0:
            data[(src, dst)].append((t, seq, n, psh))
            order.append((t, src))
    for t, src, dst, _seq, ack, n, _psh in segments(a.acks or a.data):
        if n == 0:
            acks[(dst, src)].append((t, ack))
    if not data:
        sys.exit(f"{a.data}: no TCP data segments")
    start = min(v[0][0] for v in data.values()) + a.skip
    for key in sorted(data, key=lambda k: -len(data[k])):
        segs, replies = data[key], acks.get(key, [])
        mss = Counter(n for _, _, n, _ in segs).most_common(1)[0][0]
        segs = [s for s in segs if s[0] > start]
        if len(segs) < 100 or not replies:
            continue
        arrived = {}
        for t, seq, n, psh in data[key]:
            arrived.setdefault((seq + n) % 2**32, (t, psh))
        per_ack, singles, single_acks, prev = Counter(), Counter(), [], None
        for t, ack in replies:
            if prev is not None and t > start:
                size = min(round(((ack - prev) % 2**32) / mss), 3) if after(ack, prev) and ack != prev else 0
                per_ack[size] += 1
                if size == 1 and ack in arrived:
                    single_acks.append((t - arrived[ack][0], arrived[ack][1]))
            prev = ack if prev is None or after(ack, prev) else prev
        times = [t for t, _ in replies]
        holds, ends = [], []
        for i, (t, seq, n, _) in enumerate(segs[:-1]):
            end = (seq + n) % 2**32
            j = bisect.bisect_left(times, t)
            while j < len(replies) and not after(replies[j][1], end):
                j += 1
            if j == len(replies):
                continue
            holds.append(replies[j][0] - t)
            if segs[i + 1][0] - t > a.gap:
                ends.append(replies[j][0] - t)
        pushed = sorted(seq for _, seq, _, psh in segs if psh)
        apart = Counter(min(round(((b - x) % 2**32) / mss), 4) for x, b in zip(pushed, pushed[1:]))
        floor = pct(holds, 0.1)
        for wait, psh in single_acks:
            singles["at once, PSH" if wait - floor <= 0.3e-3 and psh else "at once, no PSH" if wait - floor <= 0.3e-3 else "later"] += 1
        ends = [x - floor for x in ends]
        held = [x for x in ends if x > 0.3e-3]
        acked = sum(per_ack[k] for k in (1, 2, 3)) or 1
        name = label(key[0])
        spacing = sum(apart.values()) or 1
        print(f"{name}: {len(segs)} segments, PSH {sum(s[3] for s in segs) / len(segs):.2f} (2 / 3 segments apart {apart[2] / spacing:.2f} / {apart[3] / spacing:.2f}); ACKs of 1 / 2 / 3+ segments "
              + " / ".join(f"{per_ack[k] / acked:.3f}" for k in (1, 2, 3))
              + f"; train ends {len(ends)}, ACK held over 0.3 ms {len(held) / max(len(ends), 1):.2f}"
              f" (median {pct(held, 0.5) * 1e3:.1f} ms, by the 40 ms timer {sum(x > 35e-3 for x in held) / max(len(held), 1):.2f})"
              + "; ACKs of 1 segment that acknowledge it at once with PSH / at once without PSH / later "
              + " / ".join(f"{singles[k] / max(sum(singles.values()), 1):.2f}" for k in ("at once, PSH", "at once, no PSH", "later")))

    runs(order, start)
    if a.together:
        addresses = a.together.split(",")
        known = {address(src) for _t, src in order}
        unknown = [x for x in addresses if x not in known]
        if unknown:
            sys.exit(f"--together: no flow from {unknown[0]} in {a.data} (its flows come from {', '.join(sorted(known))})")
        merged = [(t, a.together if address(src) in addresses else src) for t, src in order]
        runs(merged, start)
    for path in a.sender:
        bursts(path, a.skip)


def keyed_runs(order, start):
    """(key, length) of each run of consecutive items of one key, in (time, key) order, from
    `start`; the last run, which may go on past the capture, is left out."""
    out, current, prev = [], 0, None
    for t, key in order:
        if t <= start:
            continue
        if key == prev:
            current += 1
        else:
            if current:
                out.append((prev, current))
            current, prev = 1, key
    return out


def run_lengths(order, start):
    """Lengths of the runs of consecutive items of one key, in (time, key) order, from `start`."""
    return [n for _key, n in keyed_runs(order, start)]


def runs(order, start):
    """Runs of consecutive segments of one flow, in arrival order, and each flow's mean run."""
    keyed = keyed_runs(order, start)
    if not keyed:
        return
    lengths = [n for _key, n in keyed]
    per_flow = defaultdict(list)
    for key, n in keyed:
        per_flow[label(key)].append(n)
    means = ", ".join(f"{k} {sum(v) / len(v):.1f}" for k, v in sorted(per_flow.items()))
    print(f"runs of one flow: {len(lengths)}, mean {sum(lengths) / len(lengths):.1f} segments, of 10 or more {sum(x >= 10 for x in lengths) / len(lengths):.2f}; per flow: {means}")


def bursts(path, skip):
    """Burst sizes at a sender and the share of bursts whose last segment has PSH."""
    data = [(t, psh) for t, _s, _d, _q, _a, n, psh in segments(path) if n > 0]
    if not data:
        sys.exit(f"{path}: no TCP data segments")
    data = [x for x in data if x[0] > data[0][0] + skip]
    runs, current = [], [data[0]]
    for prev, x in zip(data, data[1:]):
        if x[0] - prev[0] < 100e-6:
            current.append(x)
        else:
            runs.append(current)
            current = [x]
    sizes = Counter(min(len(r), 4) for r in runs)
    print(f"{path}: {len(runs)} bursts, of 1 / 2 / 3 / 4+ segments " + " / ".join(f"{sizes[k] / len(runs):.3f}" for k in (1, 2, 3, 4))
          + f"; ending with PSH {sum(r[-1][1] for r in runs) / len(runs):.2f}")


if __name__ == "__main__":
    main()
