#!/usr/bin/env python3
"""How many segments each ACK of a TCP flow acknowledges, from captures: the testbed's
(`pathpool testbed run --capture`: the sender's access link and its reverse) or the
simulator's (`pathpool run --pcap DIR`: the sender's host capture holds both directions).
Linux's receiver acknowledges some lone segments at once (docs/fidelity.md, MPTCP) and
compresses its SACKs; the simulator's RFC 5681 receiver does neither.

    python3 scripts/ack_sizes.py --data D/capture/a.pcap --acks D/capture/a.reverse.pcap   # testbed
    python3 scripts/ack_sizes.py --data D/pcap/reno_host.pcap --acks D/pcap/reno_host.pcap  # simulator

Pure ACKs (no payload) after the first `--skip` seconds are grouped by how far they move the
cumulative ACK, in full segments (the largest payload seen in `--data`): 0 (duplicate ACKs,
which carry SACK blocks), 1, 2, 3 and 4 or more. Prints ACKs per data segment and the shares.
Standard library only.
"""
import argparse
import os
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mptcp_acks import tcp  # noqa: E402  (the same pcap reader)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True)
    ap.add_argument("--acks", required=True)
    ap.add_argument("--skip", type=float, default=10.0)
    a = ap.parse_args()
    start, data, mss = None, 0, 0
    for t, *_, payload, _ipid, _psh in tcp(a.data):
        start = t if start is None else start
        if payload > 0 and t - start >= a.skip:
            data += 1
            mss = max(mss, payload)
    if not mss:
        sys.exit(f"{a.data}: no data segments after {a.skip} s")
    sizes, last, first = Counter(), None, None
    for t, _src, _dst, _seq, ack, payload, _ipid, _psh in tcp(a.acks):
        first = t if first is None else first
        if payload > 0:
            continue
        if last is not None and t - first >= a.skip:
            sizes[min(round(((ack - last) % 2**32) / mss), 4)] += 1
        last = ack
    n = sum(sizes.values())
    shares = " ".join(f"{k if k < 4 else '4+'}: {sizes[k] / n:.3f}" for k in range(5))
    print(f"{a.acks}: {data} data segments, {n} ACKs ({n / data:.3f} per segment); segments per ACK {shares}")


if __name__ == "__main__":
    main()
