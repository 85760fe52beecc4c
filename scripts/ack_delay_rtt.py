#!/usr/bin/env python3
"""The RTT a sender measures, by how many segments each ACK newly acknowledges, from a
capture on the sending host (`pathpool run --pcap DIR`: the host's pcap holds both
directions). An RTT is the ACK's time less the first transmission of the newest segment it
acknowledges (the segment whose end the ACK names), as the simulator's timestamp echo gives
it; ACKs that acknowledge no new data, or data that was sent again, give none. A receiver
that delays ACKs sends the ACK of a lone segment late (its timer, or the application's
read), so its one-segment ACKs read longer RTTs than its two-segment ones
(docs/security.md, "Why the check missed sharing").

    python3 -m scripts.ack_delay_rtt D/pcap/client.pcap [--skip 20]

Prints per flow (sender address:port) with at least 100 samples the number of ACKs and the
median and 90th percentile RTT in ms for ACKs of 1, 2 and 3 or more segments.
Reads captures with the pathpool Python package (`pathpool.packets`, the Rust reader of
`detect --pcap`): run it with a Python that has pathpool installed (docs/python.md).
"""
import argparse
import statistics
import sys
from collections import defaultdict

from scripts.ack_pattern import label  # (address:port)
from scripts.mptcp_acks import after, tcp_segments


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("capture", help="the sending host's pcap")
    ap.add_argument("--skip", type=float, default=20.0, help="seconds left out at the start")
    a = ap.parse_args()
    sent = defaultdict(dict)  # flow -> segment end -> first send time (None once sent again)
    mss = defaultdict(int)
    acked = {}
    rtts = defaultdict(lambda: defaultdict(list))
    for t, src, dst, seq, ack, payload, _ipid, _psh in tcp_segments(a.capture):
        if payload > 0:
            end = (seq + payload) % 2**32
            sent[src][end] = None if end in sent[src] else t
            mss[src] = max(mss[src], payload)
            continue
        flow = dst  # a pure ACK back to the sender
        if flow not in sent:
            continue
        prev = acked.get(flow)
        acked[flow] = ack if prev is None or after(ack, prev) else prev
        if prev is None or ack == prev or not after(ack, prev) or t < a.skip:
            continue
        first = sent[flow].get(ack)
        if first is None:
            continue
        segments = round(((ack - prev) % 2**32) / mss[flow])
        rtts[flow][min(segments, 3)].append(1e3 * (t - first))
    for flow, by in sorted(rtts.items(), key=lambda kv: label(kv[0])):
        if sum(len(v) for v in by.values()) < 100:
            continue
        cells = []
        for k, name in ((1, "1 segment"), (2, "2 segments"), (3, "3 or more")):
            v = sorted(by.get(k, []))
            cells.append(f"{name}: {len(v)} ACKs" + (f", median {statistics.median(v):.1f} ms, p90 {v[int(0.9 * (len(v) - 1))]:.1f} ms" if v else ""))
        print(f"{label(flow)}: " + "; ".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
