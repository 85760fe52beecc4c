#!/usr/bin/env python3
"""Burst sizes per TCP flow in the testbed's captures (`pathpool testbed run --capture`).

A burst is a run of one flow's data packets that arrive within GAP of each other, at the
capture point: for an access link's capture, as the packets met the next link's queue.
With a bottleneck of 20 Mb/s (0.6 ms per 1500-byte packet) and 1 Gb/s access links
(12 us per packet), packets closer than 100 us were sent back to back.

    python3 -m scripts.bursts out/ms/capture/j1.pcap out/ms/capture/j2.pcap out/ms/capture/t.pcap

Prints, per flow (source address and port): data packets, mean burst, 90th percentile,
largest, the share of packets that travelled in bursts of 4 or more, and the share of bursts
of 1, 2 and 3 packets.
Reads captures with the pathpool Python package's reader (`pathpool.packets`, the Rust
reader of `pathpool detect --pcap`): run it with a Python that has pathpool installed
(docs/python.md, "Install").
"""
import argparse
import statistics
import struct
import sys
from collections import defaultdict

from scripts import package

# LINKTYPE_RAW and LINKTYPE_IPV4: the testbed's captures hold bare IPv4 packets.
RAW_IPV4 = (101, 228)


def packets(path):
    """(time in s, wire length, IPv4 bytes) of each packet of a capture the testbed writes
    (raw IPv4), read by pathpool's own capture reader (the Python package's
    ``pathpool.packets``, the Rust reader of ``pathpool detect --pcap``)."""
    capture = package.pathpool().packets

    try:
        for p in capture(path):
            if p.linktype not in RAW_IPV4:
                sys.exit(f"{path}: link type {p.linktype}; expected raw IPv4 (101 or 228) as the testbed writes")
            yield p.time_ns // 10**9 + (p.time_ns % 10**9) * 1e-9, p.length, p.data
    except (OSError, ValueError) as e:
        sys.exit(str(e))


def tcp_data(data, orig):
    """(flow key, payload length) of a TCP segment, or None."""
    if len(data) < 20 or data[0] >> 4 != 4 or data[9] != 6:
        return None
    ihl = (data[0] & 0xF) * 4
    if len(data) < ihl + 20:
        return None
    total = struct.unpack(">H", data[2:4])[0]
    offset = (data[ihl + 12] >> 4) * 4
    src = ".".join(str(b) for b in data[12:16])
    sport = struct.unpack(">H", data[ihl:ihl + 2])[0]
    return f"{src}:{sport}", total - ihl - offset


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pcap", nargs="+")
    ap.add_argument("--gap-us", type=float, default=100.0, help="largest gap inside a burst (default 100)")
    a = ap.parse_args()
    print("| capture | flow | data packets | mean burst | p90 | max | in bursts >= 4 | bursts of 1 / 2 / 3 |")
    print("|---|---|---|---|---|---|---|---|")
    for path in a.pcap:
        last = {}
        bursts = defaultdict(list)
        for t, orig, data in packets(path):
            d = tcp_data(data, orig)
            if d is None or d[1] <= 0:
                continue
            key = d[0]
            if key in last and t - last[key] <= a.gap_us * 1e-6:
                bursts[key][-1] += 1
            else:
                bursts[key].append(1)
            last[key] = t
        for key, b in sorted(bursts.items()):
            n = sum(b)
            if n < 100:
                continue
            p90 = sorted(b)[int(0.9 * (len(b) - 1))]
            big = sum(x for x in b if x >= 4) / n
            sizes = " / ".join(f"{sum(1 for x in b if x == k) / len(b):.2f}" for k in (1, 2, 3))
            print(f"| {path.split('/')[-1]} | {key} | {n} | {statistics.mean(b):.2f} | {p90} | {max(b)} | {big:.2f} | {sizes} |")


if __name__ == "__main__":
    main()
