#!/usr/bin/env python3
"""How each flow's packets meet a drop-tail bottleneck, from the testbed's captures
(`pathpool testbed run --capture`; docs/fidelity.md).

    python3 -m scripts.queue_phase --out D/capture/path1.pcap:19ms \\
        --in D/capture/s1.pcap:1ms --in D/capture/t1.pcap:1ms --acks D/capture/s1.reverse.pcap

The testbed stamps each packet as it reaches the far end of its link
(crates/netlab/src/capture.rs). `--out` is the bottleneck's capture with the bottleneck's
delay: a packet left the queue at its stamp less that delay. Each `--in` is an access link's
capture with that link's delay: a packet met the queue at its stamp, and left its sender at
its stamp less the delay. Per `--in` capture, after the first `--skip` seconds:

- departures: how regular the bottleneck's departures are (gaps against their median).
- phase: where the packet arrives between two departures of the bottleneck, as a share of
  the gap (histogram in tenths), and its circular standard deviation in microseconds with
  the uniform send jitter U[0, J) of the same spread (J = sqrt(12) x std). A deterministic
  simulator puts every packet of a flow at one phase.
- response: when FILE's reverse capture (FILE with `.reverse.pcap`) exists, the time from
  an ACK reaching the sender (its capture time plus the delay) to each data packet leaving
  it, median, 90th and 99th percentile.
- drops: data packets captured going in and never coming out (matched on address, port,
  sequence number and IP ID), and congestion episodes (drops less than 200 ms apart), with
  how many episodes each flow lost a packet in.

Per `--acks` capture (ACKs on a reverse link): how many SACK blocks each pure ACK carries.
Reads captures with the pathpool Python package (`pathpool.packets`, the Rust reader of
`detect --pcap`): run it with a Python that has pathpool installed (docs/python.md).
"""
import argparse
import bisect
import cmath
import math
import os
import struct
import sys
from collections import Counter

from scripts.bursts import packets  # (the same pcap reader)
from scripts.units import seconds


def segments(path):
    """(time, key, payload) per TCP segment of an IPv4 capture."""
    for t, _orig, d in packets(path):
        if len(d) < 40 or d[0] >> 4 != 4 or d[9] != 6:
            continue
        ihl = (d[0] & 0xF) * 4
        tcp = d[ihl:]
        off = (tcp[12] >> 4) * 4
        payload = struct.unpack(">H", d[2:4])[0] - ihl - off
        key = (d[12:16], tcp[0:2], tcp[4:8], d[4:6])
        yield t, key, payload, tcp[20:off]


def sack_blocks(options):
    i = 0
    while i < len(options):
        kind = options[i]
        if kind == 0:
            break
        if kind == 1:
            i += 1
            continue
        if i + 1 >= len(options) or options[i + 1] < 2:
            break
        if kind == 5:
            return (options[i + 1] - 2) // 8
        i += options[i + 1]
    return 0


def departure_gaps(dep, skip):
    """How regular the bottleneck's departures are: gaps between consecutive data packets
    leaving it (after `skip` seconds), as the shares under a sixth of the median gap (tbf sends
    two packets back to back when its timer is late), within a sixth of it, and the rest."""
    start = dep[0] + skip if dep else 0.0
    gaps = sorted(b - a for a, b in zip(dep, dep[1:]) if a >= start)
    if not gaps:
        return
    m = gaps[len(gaps) // 2]
    close = sum(1 for g in gaps if g < m / 6) / len(gaps)
    near = sum(1 for g in gaps if abs(g - m) <= m / 6) / len(gaps)
    print(f"departures: median gap {m * 1e6:.0f} us; under {m / 6 * 1e6:.0f} us {close:.3f}, "
          f"within {m / 6 * 1e6:.0f} us of the median {near:.3f}, other {1 - close - near:.3f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="FILE:DELAY, the bottleneck's capture and its delay")
    ap.add_argument("--in", dest="ins", action="append", default=[], help="FILE:DELAY, an access link's capture and its delay")
    ap.add_argument("--acks", action="append", default=[], help="a reverse link's capture (SACK blocks per ACK)")
    ap.add_argument("--skip", type=float, default=5.0, help="seconds left out at the start (slow start)")
    a = ap.parse_args()
    out_path, _, out_delay = a.out.rpartition(":")
    if not out_path:
        sys.exit(f"--out {a.out}: give the bottleneck's delay too, as FILE:DELAY (e.g. bottleneck.pcap:19ms)")
    out_delay = seconds(out_delay, "--out")
    out = [(t - out_delay, k) for t, k, p, _ in segments(out_path) if p > 0]
    dep = [t for t, _ in out]
    left = set(k for _, k in out)
    end = dep[-1] - 1.0 if dep else 0.0
    departure_gaps(dep, a.skip)
    drops = {}
    for spec in a.ins:
        path, _, delay = spec.rpartition(":")
        delay = seconds(delay, "--in")
        data = [(t, k) for t, k, p, _ in segments(path) if p > 0]
        if not data:
            sys.exit(f"{path}: no TCP data packets")
        start = data[0][0] + a.skip
        phases, lost = [], []
        for t, k in data:
            if t < start or t > end:
                continue
            if k not in left:
                lost.append(t)
            i = bisect.bisect_right(dep, t) - 1
            if 0 <= i < len(dep) - 1 and dep[i + 1] - dep[i] < 2e-3:
                phases.append(((t - dep[i]) / (dep[i + 1] - dep[i]), dep[i + 1] - dep[i]))
        drops[os.path.basename(path)] = lost
        response = None
        reverse = path[: -len(".pcap")] + ".reverse.pcap"
        if os.path.exists(reverse):
            acks = sorted(t + delay for t, _, p, _ in segments(reverse) if p == 0)
            wait = sorted(t - acks[i] for t, _ in data if t >= start for i in [bisect.bisect_right(acks, t) - 1] if i >= 0)
            if wait:
                response = (f"  data after the latest ACK reached the sender: median {wait[len(wait) // 2] * 1e6:.0f} us, 90th percentile {wait[9 * len(wait) // 10] * 1e6:.0f} us, 99th {wait[99 * len(wait) // 100] * 1e6:.0f} us")
        else:
            response = None
        h = Counter(min(int(x * 10), 9) for x, _ in phases)
        z = sum(cmath.exp(2j * math.pi * x) for x, _ in phases) / max(len(phases), 1)
        gap = sorted(g for _, g in phases)[len(phases) // 2] if phases else 0.0
        std = math.sqrt(-2 * math.log(max(abs(z), 1e-12))) / (2 * math.pi) * gap * 1e6
        print(f"{os.path.basename(path)}: {len(phases)} packets, phase in tenths of the gap {[round(h[k] / max(len(phases), 1), 2) for k in range(10)]}")
        print(f"  phase std {std:.0f} us of a {gap * 1e6:.0f} us gap (uniform jitter of the same spread: {std * math.sqrt(12):.0f} us), mean phase {(cmath.phase(z) / (2 * math.pi)) % 1:.2f}; dropped {len(lost)}")
        if response:
            print(response)
    if drops:
        every = sorted((t, n) for n, ts in drops.items() for t in ts)
        episodes = []
        for t, n in every:
            if episodes and t - episodes[-1][-1][0] < 0.2:
                episodes[-1].append((t, n))
            else:
                episodes.append([(t, n)])
        hit = Counter(n for e in episodes for n in set(x for _, x in e))
        print(f"congestion episodes: {len(episodes)}; a flow lost packets in: " + ", ".join(f"{n} {hit[n]}" for n in drops))
    for path in a.acks:
        blocks = Counter(sack_blocks(o) for _, _, p, o in segments(path) if p == 0)
        print(f"{os.path.basename(path)}: pure ACKs by SACK blocks carried {dict(sorted(blocks.items()))}")


if __name__ == "__main__":
    main()
