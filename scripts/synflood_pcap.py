#!/usr/bin/env python3
"""A SYN-flood-like capture for the capture reader's memory bound (BENCHMARKS.md, "Packet
captures of many connections"): N TCP SYNs, each from its own address and port (so N
connections, N flow directions, none carrying data), raw IPv4, nanosecond pcap, spread evenly
over SPAN seconds from START (to lie over a real capture's time, given as a second --pcap).

    python3 -m scripts.synflood_pcap N OUT.pcap [--span S] [--start S]
"""
import argparse
import struct

p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
p.add_argument("n", type=int)
p.add_argument("out")
p.add_argument("--span", type=float, default=20.0)
p.add_argument("--start", type=float, default=0.0)
a = p.parse_args()

# pcap header: ns timestamps (a1b23c4d), version 2.4, snaplen 65535, LINKTYPE_RAW (101).
header = struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 65535, 101)
# IPv4 (20 bytes, total length 40, TTL 64, TCP) + TCP SYN (20 bytes, data offset 5).
ip = bytearray([0x45, 0, 0, 40, 0, 0, 0x40, 0, 64, 6, 0, 0, 0, 0, 0, 0, 192, 0, 2, 1])
tcp = bytearray(20)
tcp[2:4] = (80).to_bytes(2, "big")
tcp[12] = 5 << 4
tcp[13] = 0x02
record = struct.Struct("<IIII")
step = a.span * 1e9 / max(a.n, 1)
start = int(a.start * 1e9)
with open(a.out, "wb") as f:
    f.write(header)
    chunk = bytearray()
    for i in range(a.n):
        t = start + int(i * step)
        chunk += record.pack(t // 1_000_000_000, t % 1_000_000_000, 40, 40)
        # Source 10.x.y.z from i's upper bits, port from its lower bits: every SYN its own
        # connection; IP ID and sequence from i.
        ip[4:6] = (i & 0xFFFF).to_bytes(2, "big")
        ip[12:16] = (0x0A000000 | (i >> 8) & 0xFFFFFF).to_bytes(4, "big")
        tcp[0:2] = (1024 + (i & 0xFF)).to_bytes(2, "big")
        tcp[4:8] = (i * 2654435761 & 0xFFFFFFFF).to_bytes(4, "big")
        chunk += ip
        chunk += tcp
        if len(chunk) >= 1 << 22:
            f.write(chunk)
            chunk = bytearray()
    f.write(chunk)
