#!/usr/bin/env python3
"""When a sender sent part of an skb at once, and how far its next ACK was then
(docs/fidelity-notes.md, "A partial skb and the next ACK").

Linux's `tcp_tso_should_defer` (net/ipv4/tcp_output.c) lets an skb the window has no room
for wait for the next ACK, unless the last transmission was over 1 ms ago, the room is a
third of the window, or the next ACK is due too late. That last rule changed in October 2025
(Fixes: 50c8339e9299): before, send at once when the oldest unacknowledged segment left
less than SRTT/2 ago; after, when its ACK (its send time plus SRTT) is due more than
min(SRTT/2, 1 ms) from now. A sender that split an skb ends its burst on a segment without
PSH; this script finds those bursts in a sender's capture, rebuilds at the ACK that started
each one what the kernel knew (the oldest unacknowledged segment's send time, SRTT as
Linux smooths it, the last transmission), and says which rule explains the split. It also
counts the segments between the PSH marks around each split segment: the application's
write (skb) it was cut from, as far as the marks show it.

    python3 -m scripts.defer_decisions --data D/capture/t.pcap:1ms --acks D/capture/t.reverse.pcap
    python3 -m scripts.defer_decisions --data S/pcap/tcp.pcap          # a simulated sender host

--data: the capture of the sender's data, with the delay after the sender at which it was
taken (the testbed's LINK.pcap shows packets as they leave the link); --acks: the capture of
the ACKs as they reach the sender (default: the --data file, as a simulated host's capture
holds both directions). Bursts in loss recovery (from a retransmission until the ACK passes
what was sent before it) are left out: Linux does not defer there.
"""

import argparse
import statistics
import sys
from collections import Counter, defaultdict

from scripts.mptcp_acks import after, tcp_segments  # (the same capture reader)
from scripts.units import seconds

# An ACK's burst: the data a sender sends after it and before the next ACK, if it starts
# this soon after the ACK (a sender answers an ACK in tens of microseconds).
BURST_START = 300e-6
MS = 1e-3


def capture_arg(text):
    path, _, delay = text.partition(":")
    return path, seconds(delay) if delay else 0.0


def flows(data_path, delay, acks_path, skip):
    """Per flow (source address, port): time-ordered events ('d', t, seq, end, psh) and
    ('a', t, ack)."""
    events = defaultdict(list)
    start = None
    for t, src, _dst, seq, _ack, n, _ipid, psh in tcp_segments(data_path):
        if n > 0:
            start = t if start is None else start
            events[src].append(("d", t - delay, seq, (seq + n) % 2**32, psh))
    if start is None:
        sys.exit(f"{data_path}: no TCP data segments")
    for t, _src, dst, _seq, ack, n, _ipid, _psh in tcp_segments(acks_path):
        if n == 0 and dst in events:
            events[dst].append(("a", t, ack))
    for ev in events.values():
        # An ACK and the data it releases can share a timestamp: the ACK comes first.
        ev.sort(key=lambda e: (e[1], e[0] == "d"))
    return events, start + skip


def decisions(events, since):
    """Per burst outside recovery: (how_far, srtt, split, since_last_send). how_far: when the
    next ACK was due, from the ACK that started the burst (the oldest unacknowledged
    segment's send time plus SRTT, less now). A burst split its last skb if its last segment
    has no PSH; the decision on that skb came after the burst's earlier segments if it has
    any (since_last_send 0), else after the sender's previous transmission."""
    sent = {}  # segment start -> last send time
    order = []  # segment starts in send order of first transmission
    head_i = 0
    snd_una = high = None
    srtt = None
    last_send = None
    recovery_until = None
    bursts = []
    current = None  # [how_far, srtt, gap before the burst, ACK time, [(psh, retransmit)]]
    for e in events:
        if e[0] == "d":
            _, t, seq, end, psh = e
            if high is None:
                snd_una = high = seq
            retransmit = not after(seq, high)
            if retransmit:
                recovery_until = high
            else:
                order.append(seq)
                high = end
            sent[seq] = t
            last_send = t
            if current is not None and (current[4] or t - current[3] <= BURST_START):
                current[4].append((psh, retransmit, seq))
            continue
        _, t, ack = e
        if current is not None:
            bursts.append(current)
            current = None
        if snd_una is None or not after(ack, snd_una) or ack == snd_una:
            continue
        # RTT sample as Linux takes it: from the oldest newly acknowledged segment.
        oldest = order[head_i] if head_i < len(order) else None
        if oldest is not None and oldest in sent:
            sample = t - sent[oldest]
            srtt = sample if srtt is None else srtt + (sample - srtt) / 8
        snd_una = ack
        while head_i < len(order) and after(snd_una, order[head_i]) and snd_una != order[head_i]:
            nxt = order[head_i + 1] if head_i + 1 < len(order) else None
            if nxt is not None and not after(snd_una, nxt):
                break  # snd_una lies inside this segment: it is still the head
            head_i += 1
        if recovery_until is not None and after(snd_una, recovery_until):
            recovery_until = None
        if t < since or recovery_until is not None or srtt is None or head_i >= len(order) or last_send is None:
            continue
        current = [sent[order[head_i]] + srtt - t, srtt, t - last_send, t, []]
    out = []
    for how_far, rtt, gap, _t, segs in bursts:
        if not segs or any(r for _p, r, _s in segs):
            continue
        split = not segs[-1][0]
        # The split skb's segments are those after the burst's last PSH segment.
        pushed = [i for i, (p, _r, _s) in enumerate(segs) if p]
        since_last = 0.0 if pushed else gap
        out.append((how_far, rtt, split, since_last, segs[-1][2]))
    return out


def write_sizes(events, seqs):
    """For each segment start in `seqs`: how many segments lie between the PSH marks around
    it, in order of first transmission (the size of the application's write it was cut
    from, as the marks show it)."""
    first, high = [], None
    for e in events:
        if e[0] == "d" and (high is None or after(e[2], high) and e[2] != high):
            high = e[2]
            first.append(e)
    index = {e[2]: i for i, e in enumerate(first)}
    sizes = Counter()
    for seq in seqs:
        i = index.get(seq)
        if i is None:
            continue
        lo = i
        while lo > 0 and not first[lo - 1][4]:
            lo -= 1
        hi = i
        while hi + 1 < len(first) and not first[hi][4]:
            hi += 1
        sizes[min(hi - lo + 1, 5)] += 1
    return sizes


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, type=capture_arg, help="FILE[:DELAY] of the sender's data")
    ap.add_argument("--acks", help="FILE of the ACKs reaching the sender (default: the --data file)")
    ap.add_argument("--skip", type=float, default=5.0, help="seconds left out at the start (slow start)")
    a = ap.parse_args()
    path, delay = a.data
    events, since = flows(path, delay, a.acks or path, a.skip)
    for (addr, port), ev in sorted(events.items()):
        recs = decisions(ev, since)
        name = ".".join(str(b) for b in addr) + f":{port}"
        if not recs:
            print(f"{name}: no bursts outside recovery")
            continue
        splits = [r for r in recs if r[2]]
        recent = [r for r in splits if r[3] <= MS]
        due_late = sum(1 for r in recs if r[0] > MS) / len(recs)
        print(f"{name}: {len(recs)} bursts outside recovery; the next ACK due over 1 ms after the burst's ACK for {due_late:.3f} of them "
              f"(median {1e3 * statistics.median(r[0] for r in recs):.2f} ms, SRTT {1e3 * statistics.median(r[1] for r in recs):.1f} ms)")
        sizes = write_sizes(ev, [r[4] for r in splits])
        cut_from = ("  the split segments lie in runs of these many segments between PSH marks: "
                    + ", ".join(f"{'5+' if k == 5 else k}: {n}" for k, n in sorted(sizes.items())))
        if not recent:
            print(f"  {len(splits)} end in a split skb, none decided within 1 ms of a transmission")
            print(cut_from)
            continue
        late = sum(1 for r in recent if r[0] > MS) / len(recent)
        old = sum(1 for r in recent if r[0] > r[1] / 2) / len(recent)
        print(f"  {len(splits)} end in a split skb, {len(recent)} of them decided within 1 ms of a transmission; of these, the next ACK "
              f"was due over 1 ms later for {late:.3f} (the rule since October 2025), over SRTT/2 later for {old:.3f} (the rule before)")
        print(cut_from)


if __name__ == "__main__":
    main()
