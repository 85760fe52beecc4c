#!/usr/bin/env python3
"""Which flow loses in each congestion episode of a bottleneck, from captures of the packets
going in and of the packets that came out: the testbed's (`pathpool testbed run --capture`)
or the simulator's (`pathpool run --pcap DIR`), so the two can be compared (docs/fidelity.md).

    python3 -m scripts.loss_episodes --arrived D/capture/bottleneck.pcap \\
        --sent D/capture/short.pcap --sent D/capture/long.pcap          # testbed
    python3 -m scripts.loss_episodes --arrived D/receiver.pcap \\
        --sent D/s20.pcap --sent D/s40.pcap                              # simulator

Each `--sent` capture holds one flow's data packets before the bottleneck, `--arrived` the
packets after it. A data packet sent and never arriving was dropped (matched on address,
port, sequence number, IP ID and TSval, so a retransmission is a packet of its own). Drops
less than `--gap` apart form one congestion episode. Per flow, after the first `--skip`
seconds and before the last second: packets, drops, loss rate, episodes it lost in and drops
per such episode; then how many episodes hit both flows or only one, and which flow lost
first. With `--bursts`, per flow also where its dropped packets stood in their bursts as sent
(packets less than `--burst-gap` apart, 100 us: back to back at 1 Gb/s): "3/3: n" counts
drops of the last packet of a burst of three (the packet a window increase adds to an ACK of
two segments), "2/2" the second of a pair, and how many bursts of each size the flow sent.
Reads captures with the pathpool Python package (`pathpool.packets`, the Rust reader of
`detect --pcap`): run it with a Python that has pathpool installed (docs/python.md).
"""
import argparse
import os
import sys
from collections import Counter

from scripts.queue_phase import segments  # (the same pcap reader and segment key)


def tsval(options):
    """The TSval of a TCP timestamp option, or b"" without one."""
    i = 0
    while i + 1 < len(options) and options[i] != 0:
        if options[i] == 1:
            i += 1
            continue
        if options[i] == 8:
            return bytes(options[i + 2:i + 6])
        i += max(options[i + 1], 2)
    return b""


def data_packets(path):
    """(time, key) per TCP data segment: queue_phase's key (address, port, sequence
    number, IP ID) and the TSval, which tells the simulator's retransmissions apart."""
    for t, key, payload, options in segments(path):
        if payload > 0:
            yield t, key + (tsval(options),)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arrived", required=True, help="capture after the bottleneck")
    ap.add_argument("--sent", action="append", required=True, help="one flow's capture before the bottleneck")
    ap.add_argument("--skip", type=float, default=10.0, help="seconds left out at the start (warm-up)")
    ap.add_argument("--gap", type=float, default=0.2, help="drops closer than this (s) are one episode")
    ap.add_argument("--bursts", action="store_true", help="where the drops stood in their bursts")
    ap.add_argument("--burst-gap", type=float, default=100e-6, help="packets closer than this (s) are one burst")
    a = ap.parse_args()
    arrived = set(k for _, k in data_packets(a.arrived))
    names = [os.path.basename(p)[: -len(".pcap")] for p in a.sent]
    drops, sent = [], Counter()
    ends, positions = [], {}
    for name, path in zip(names, a.sent):
        data = list(data_packets(path))
        if not data:
            sys.exit(f"{path}: no TCP data packets")
        ends.append(data[-1][0])
        start = data[0][0] + a.skip
        positions[name] = burst_positions(data, arrived, start, data[-1][0] - 1.0, a.burst_gap)
        for t, k in data:
            if t < start:
                continue
            sent[name] += 1
            if k not in arrived:
                drops.append((t, name))
    end = min(ends) - 1.0
    drops = sorted(d for d in drops if d[0] <= end)
    episodes = []
    for t, n in drops:
        if episodes and t - episodes[-1][-1][0] < a.gap:
            episodes[-1].append((t, n))
        else:
            episodes.append([(t, n)])
    per = Counter(n for _, n in drops)
    hit = Counter(n for e in episodes for n in set(x for _, x in e))
    first = Counter(e[0][1] for e in episodes)
    both = sum(1 for e in episodes if len(set(x for _, x in e)) > 1)
    print(f"episodes {len(episodes)}, both flows lost in {both}")
    for n in names:
        rate = per[n] / max(sent[n], 1)
        print(f"{n}: packets {sent[n]}, drops {per[n]} (loss {rate * 100:.3f} %), "
              f"episodes {hit[n]}, alone in {hit[n] - both}, first in {first[n]}, drops per episode {per[n] / max(hit[n], 1):.2f}")
        if a.bursts:
            dropped, sizes = positions[n]
            where = " ".join(f"{k[1]}/{k[0]}: {v}" for k, v in sorted(dropped.items()))
            print(f"  {n}: drops by place in burst (place/size) {where}; bursts sent by size "
                  + " ".join(f"{k}: {v}" for k, v in sorted(sizes.items())))


def burst_positions(data, arrived, start, end, gap):
    """Drops by (burst size, place in the burst), sizes capped at 4, and bursts by size,
    for the bursts that start in [start, end]."""
    dropped, sizes, burst = Counter(), Counter(), []
    for t, k in data + [(float("inf"), None)]:
        if burst and t - burst[-1][0] > gap:
            if start <= burst[0][0] <= end:
                n = min(len(burst), 4)
                sizes[n] += 1
                for i, (_, key) in enumerate(burst):
                    if key not in arrived:
                        dropped[(n, min(i + 1, 4))] += 1
            burst = []
        burst.append((t, k))
    return dropped, sizes


if __name__ == "__main__":
    main()
