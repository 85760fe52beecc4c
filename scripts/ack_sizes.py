#!/usr/bin/env python3
"""How many segments each ACK of a TCP flow acknowledges, from captures: the testbed's
(`pathpool testbed run --capture`: the sender's access link and its reverse, or the
bottleneck's two directions for every flow at once) or the simulator's (`pathpool run --pcap
DIR`: a host's capture holds both directions). Linux's receiver acknowledges some lone
segments at once (docs/fidelity-notes.md, MPTCP) and compresses its SACKs; the simulator's RFC 5681
receiver does neither.

    python3 -m scripts.ack_sizes --data D/capture/a.pcap --acks D/capture/a.reverse.pcap   # testbed
    python3 -m scripts.ack_sizes --data D/pcap/reno_host.pcap --acks D/pcap/reno_host.pcap  # simulator
    python3 -m scripts.ack_sizes --data D/capture/bottleneck.pcap --acks D/capture/bottleneck.reverse.pcap

Each flow (addresses and ports; an MPTCP subflow is a flow of its own) is counted apart. Its
pure ACKs (no payload) after the first `--skip` seconds are grouped by how far they move the
cumulative ACK, in full segments (the flow's largest payload): 0 (duplicate ACKs, which carry
SACK blocks), 1, 2, 3 and 4 or more. Prints, per flow with at least 100 ACKs, ACKs per data
segment, the shares, and the share of its segments acknowledged one by one in runs of
`--run` or more one-segment ACKs in a row (a receiver in quick-ACK mode, or acknowledging
every segment for another reason, shows such runs; one that reads late shows lone ones).
Reads captures with the pathpool Python package (`pathpool.packets`, the Rust reader of
`detect --pcap`): run it with a Python that has pathpool installed (docs/python.md).
"""
import argparse
import sys
from collections import Counter, defaultdict

from scripts.ack_pattern import label  # (address:port)
from scripts.mptcp_acks import tcp_segments  # (the same pcap reader)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, help="capture of the data segments")
    ap.add_argument("--acks", required=True, help="capture of their ACKs (may be the same file)")
    ap.add_argument("--skip", type=float, default=10.0, help="seconds left out at the start")
    ap.add_argument("--run", type=int, default=10, help="one-segment ACKs in a row that make a run")
    a = ap.parse_args()
    if a.run < 1:
        ap.error(f"--run {a.run}: expected a number of ACKs, 1 or more")
    start, data, mss = None, Counter(), defaultdict(int)
    for t, src, dst, *_, payload, _ipid, _psh in tcp_segments(a.data):
        start = t if start is None else start
        if payload > 0 and t - start >= a.skip:
            data[(src, dst)] += 1
            mss[(src, dst)] = max(mss[(src, dst)], payload)
    if not data:
        sys.exit(f"{a.data}: no data segments after {a.skip} s")
    steps, last, first = defaultdict(list), {}, None
    for t, src, dst, _seq, ack, payload, _ipid, _psh in tcp_segments(a.acks):
        first = t if first is None else first
        flow = (dst, src)  # the data flow this ACK answers
        if payload > 0 or flow not in mss:
            continue
        if flow in last and t - first >= a.skip:
            steps[flow].append(min(round(((ack - last[flow]) % 2**32) / mss[flow]), 4))
        last[flow] = ack
    for flow in sorted(steps, key=lambda f: -data[f]):
        sizes = Counter(steps[flow])
        n = len(steps[flow])
        if n < 100:
            continue
        in_runs, run = 0, 0
        for s in steps[flow] + [None]:
            if s == 1:
                run += 1
                continue
            if run >= a.run:
                in_runs += run
            run = 0
        acked = sum(k * v for k, v in sizes.items())
        shares = " ".join(f"{k if k < 4 else '4+'}: {sizes[k] / n:.3f}" for k in range(5))
        print(f"{label(flow[0])} > {label(flow[1])}: {data[flow]} data segments, {n} ACKs ({n / data[flow]:.3f} per segment); "
              f"segments per ACK {shares}; acknowledged one by one in runs of {a.run}+: {in_runs / max(acked, 1):.3f}")


if __name__ == "__main__":
    main()
