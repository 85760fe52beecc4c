#!/usr/bin/env python3
"""What a sender's own measurements say about two of its subflows sharing a bottleneck, from
a capture on the sending host (`pathpool run --pcap DIR`: the host's pcap holds both
directions): the evidence the sender's check against a lying receiver could use
(docs/security.md, "What the sender can see").

Per pair of flows (sender address:port) with data:

- Delay (Rubenstein, Kurose, Towsley, IEEE/ACM ToN 10(3) 2002, §IV, the comparison test): on
  RTT samples taken only from ACKs that left the receiver at once (from a receiver that delays
  ACKs, in-order ACKs of exactly two segments, the "every second segment" ACK of RFC 5681
  §4.2, and ACKs with SACK blocks: the sender check's rule, crates/sim/src/mptcp/ack_delay.rs),
  averaged in 25 ms bins by send time, over windows of 2.8 s stepped by 350 ms: "shared" when
  the pair's cross-correlation is at least the geometric mean of each flow's lag-one
  autocorrelation, "apart" when below, "none" with fewer than 10 bins of both. The numbers
  of windows of each verdict, and of each verdict beyond chance (the sender check's evidence
  of two bottlenecks, `pathpool_sbd::comparison::compare_beyond_chance`).
- Loss (the co-occurrence of losses, as Rubenstein's loss comparison test in the same paper
  asks of adjacent packets): a segment is lost when it is sent again; in bins of 2 ms by the
  lost segment's first send time, the bins where both flows lost a segment against the number
  independent losses would give (the sum over bins of the two flows' chances of a loss in the
  bin, at their loss rates and the segments they sent in it).

    python3 -m scripts.sender_view D/pcap/client.pcap [--skip 20]

Reads captures with the pathpool Python package (`pathpool.packets`): run it with a Python
that has pathpool installed (docs/python.md).
"""
import argparse
import math
import statistics
from collections import Counter, defaultdict

from scripts.bursts import packets  # (the same pcap reader)
from scripts.mptcp_acks import after, tcp_header

BIN_S, WINDOW_BINS, STEP_BINS, MIN_BINS = 0.025, 112, 14, 10  # as crates/kernel/src/comparison.rs
LOSS_BIN_S = 0.002
Z_95 = 1.96  # the two-sided 95 % quantile of the standard normal


def segments(path):
    """(time, sender, receiver, seq, ack, payload, SACK blocks present) per TCP segment."""
    for t, _length, d in packets(path):
        h = tcp_header(d)
        if h is None:
            continue
        ihl, off, payload, sport, dport, seq, ack = h
        src, dst = (bytes(d[12:16]), sport), (bytes(d[16:20]), dport)
        yield t, src, dst, seq, ack, payload, has_sack(d[ihl + 20:ihl + off])


def has_sack(options):
    i = 0
    while i < len(options):
        kind = options[i]
        if kind == 0:
            return False
        if kind == 1:
            i += 1
            continue
        if kind == 5:
            return True
        if i + 1 >= len(options) or options[i + 1] < 2:
            return False
        i += options[i + 1]
    return False


def read(path, skip):
    """Per flow: clean RTT samples (send time, RTT s) and (first send time, lost) per segment."""
    first, mss, acked = defaultdict(dict), defaultdict(int), {}
    resent = defaultdict(list)  # per flow, the end sequence numbers of segments sent again
    clean = defaultdict(list)
    counts = defaultdict(lambda: {1: 0, 2: 0})
    for t, src, dst, seq, ack, payload, sack in segments(path):
        if payload > 0:
            end = (seq + payload) % 2**32
            if end in first[src]:
                first[src][end][1] = True
                resent[src].append(end)
            else:
                first[src][end] = [t, False]
            mss[src] = max(mss[src], payload)
            continue
        flow = dst
        if flow not in first:
            continue
        prev = acked.get(flow)
        acked[flow] = ack if prev is None or after(ack, prev) else prev
        if prev is None or ack == prev or not after(ack, prev) or t < skip:
            continue
        # Karn (RFC 6298 §3), over every segment the ACK covers: an ACK that covers a segment
        # sent again was released by that retransmission (as the sender check's echo, which is
        # the last segment to arrive), and the segment ending at it may have waited at the
        # receiver behind the hole for the whole recovery.
        covers_resent = any(after(e, (prev + 1) % 2**32) and after(ack, e) for e in resent[flow])
        resent[flow] = [e for e in resent[flow] if after(e, (ack + 1) % 2**32)]
        sent = first[flow].get(ack)
        if sent is None or sent[1] or covers_resent:
            continue
        n = round(((ack - prev) % 2**32) / mss[flow])
        if not sack and n in (1, 2):
            counts[flow][n] += 1
        # As the sender's check (crates/sim/src/mptcp/ack_delay.rs): a receiver whose in-order
        # two-segment ACKs are at least one in 8 of its one-segment ones delays ACKs.
        delaying = counts[flow][2] * 8 >= counts[flow][1]
        if sack or n == 2 or not delaying:
            clean[flow].append((sent[0], t - sent[0]))
    fates = {f: [(s[0], s[1]) for s in segs.values() if s[0] >= skip] for f, segs in first.items()}
    return clean, fates


def correlation(pairs):
    """(Pearson correlation, number of pairs), or None with too few pairs or a flat series."""
    if len(pairs) < MIN_BINS:
        return None
    xs, ys = [p[0] for p in pairs], [p[1] for p in pairs]
    if statistics.pvariance(xs) <= 0 or statistics.pvariance(ys) <= 0:
        return None
    return statistics.correlation(xs, ys), len(pairs)


def fisher(r):
    return math.atanh(min(max(r, -0.999999), 0.999999))


def comparison(a, b, start, end):
    """Rubenstein et al.'s delay comparison test on bin means a, b (dicts) over [start, end):
    the verdict by the sign, and the verdict beyond chance (the sender check's,
    `pathpool_sbd::comparison::compare_beyond_chance`: "apart" only when the Fisher transforms
    of cross and auto lie more than 1.96 / sqrt(n - 3) apart, "shared" only when cross is also
    above zero by as much; otherwise "none")."""
    cross = correlation([(a[k], b[k]) for k in range(start, end) if k in a and k in b])
    ra = correlation([(a[k], a[k + 1]) for k in range(start, end - 1) if k in a and k + 1 in a])
    rb = correlation([(b[k], b[k + 1]) for k in range(start, end - 1) if k in b and k + 1 in b])
    if cross is None or ra is None or rb is None:
        return "none", "none"
    (c, n), auto = cross, (max(ra[0], 0) * max(rb[0], 0)) ** 0.5
    if c >= auto:
        return "shared", ("shared" if fisher(c) >= Z_95 / math.sqrt(n - 3) else "none")
    band = Z_95 / math.sqrt(min(n, ra[1], rb[1]) - 3)
    return "apart", ("apart" if fisher(auto) - fisher(c) >= band else "none")


def bin_means(samples):
    bins = defaultdict(list)
    for sent, rtt in samples:
        bins[int(sent / BIN_S)].append(rtt)
    return {k: statistics.mean(v) for k, v in bins.items()}


def delay_verdicts(a, b):
    ma, mb = bin_means(a), bin_means(b)
    if not ma or not mb:
        return Counter(), Counter()
    lo, hi = max(min(ma), min(mb)), min(max(ma), max(mb))
    verdicts = [comparison(ma, mb, e - WINDOW_BINS, e) for e in range(lo + WINDOW_BINS, hi + 2, STEP_BINS)]
    return Counter(v[0] for v in verdicts), Counter(v[1] for v in verdicts)


def co_losses(a, b):
    """(bins where both lost, what independent losses would give)."""
    sent, lost = [defaultdict(int), defaultdict(int)], [defaultdict(int), defaultdict(int)]
    for i, fates in enumerate((a, b)):
        for t, gone in fates:
            k = int(t / LOSS_BIN_S)
            sent[i][k] += 1
            lost[i][k] += gone
    rate = [sum(lost[i].values()) / max(1, sum(sent[i].values())) for i in (0, 1)]
    both = sum(1 for k in lost[0] if lost[0][k] and lost[1].get(k, 0))
    chance = sum((1 - (1 - rate[0]) ** sent[0][k]) * (1 - (1 - rate[1]) ** sent[1][k]) for k in sent[0] if k in sent[1])
    return both, chance


def label(flow):
    return ".".join(str(x) for x in flow[0]) + f":{flow[1]}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("capture", help="the sending host's pcap")
    ap.add_argument("--skip", type=float, default=20.0, help="seconds left out at the start")
    a = ap.parse_args()
    clean, fates = read(a.capture, a.skip)
    flows = sorted((f for f in fates if fates[f]), key=label)
    for i, x in enumerate(flows):
        for y in flows[i + 1:]:
            v, w = delay_verdicts(clean[x], clean[y])
            both, chance = co_losses(fates[x], fates[y])
            print(f"{label(x)} ~ {label(y)}: clean RTT samples {len(clean[x])}, {len(clean[y])}; delay windows "
                  f"shared {v['shared']}, apart {v['apart']}, none {v['none']} (beyond chance: shared {w['shared']}, "
                  f"apart {w['apart']}, none {w['none']}); losses {sum(g for _, g in fates[x])}, "
                  f"{sum(g for _, g in fates[y])}, in one 2 ms bin {both} against {chance:.1f} by chance")


if __name__ == "__main__":
    main()
