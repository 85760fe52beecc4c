#!/usr/bin/env python3
"""Why a Linux receiver sent its pure ACKs, from the counts scripts/ack_reasons.sh writes
(docs/fidelity-notes.md, "Drift").

    python3 -m scripts.ack_reasons out/acks.json [--seconds]

Per receiving flow (named by the data sender's port, as in scripts/ack_sizes.py's output of
a capture of the same run), its pure ACKs by the receiver's state as each was built
(net/ipv4/tcp_input.c, __tcp_ack_snd_check and tcp_cleanup_rbuf in net/ipv4/tcp.c):

- duplicate: out-of-order data waits (the ACK carries SACK blocks);
- quick-ACK mode: icsk_ack.quick > 0 outside ping-pong mode, so every segment is ACKed at
  once; split by the quick-ACKs left, 1 or more (the count falls by one per ACK sent);
- every second segment: two or more full segments newly acknowledged;
- immediate: one segment or none, with ICSK_ACK_NOW set (a gap filled, a CWR, receive
  memory short);
- one segment: the delayed-ACK timer or the application's read (tcp_cleanup_rbuf), or a
  receiver told to acknowledge every segment (the testbed's `delayed_ack = false`);
- other: nothing newly acknowledged and no out-of-order data (a window update).

`--seconds` adds, per flow and second of the run, how many ACKs were sent in quick-ACK mode.
Standard library only.
"""
import argparse
import json
import struct
import sys
from collections import Counter, defaultdict

FIELDS = ("remote_port", "second", "segments", "quick", "pingpong", "pending", "out_of_order")
ACK_NOW = 16


def entries(path):
    """(key dict, count) per map entry of `bpftool map dump -j`, formatted or raw."""
    try:
        with open(path) as f:
            dump = json.load(f)
    except OSError as e:
        sys.exit(f"{path}: {e.strerror}")
    except json.JSONDecodeError as e:
        sys.exit(f"{path}: not JSON ({e}); expected the output of scripts/ack_reasons.sh")
    if not isinstance(dump, list):
        sys.exit(f"{path}: expected a JSON list of map entries (bpftool map dump -j)")
    for i, e in enumerate(dump):
        if "formatted" in e:
            key = e["formatted"].get("key", {})
            missing = [f for f in FIELDS if f not in key]
            if missing:
                sys.exit(f"{path}: entry {i}: no field {missing[0]!r}; expected the key of scripts/ack_reasons.bpf.c")
            yield key, int(e["formatted"]["value"])
            continue
        try:
            key = bytes(int(b, 16) for b in e["key"])
            value = bytes(int(b, 16) for b in e["value"])
        except (KeyError, TypeError, ValueError):
            sys.exit(f"{path}: entry {i}: expected 'key' and 'value' byte lists")
        if len(key) != 4 * len(FIELDS) or len(value) != 8:
            sys.exit(f"{path}: entry {i}: a {len(key)}-byte key; expected {4 * len(FIELDS)} (scripts/ack_reasons.bpf.c)")
        yield dict(zip(FIELDS, struct.unpack(f"<{len(FIELDS)}I", key))), struct.unpack("<Q", value)[0]


def reason(k):
    if k["out_of_order"]:
        return "duplicate"
    if k["quick"] and not k["pingpong"]:
        return "quick-ACK mode, 1 left" if k["quick"] == 1 else "quick-ACK mode, 2+ left"
    if k["segments"] >= 2:
        return "every second segment"
    if k["pending"] & ACK_NOW:
        return "immediate (ICSK_ACK_NOW)"
    if k["segments"] == 1:
        return "one segment: timer or read"
    return "other"


ORDER = ["every second segment", "one segment: timer or read", "quick-ACK mode, 2+ left",
         "quick-ACK mode, 1 left", "immediate (ICSK_ACK_NOW)", "duplicate", "other"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("counts", help="the JSON file scripts/ack_reasons.sh wrote")
    ap.add_argument("--seconds", action="store_true", help="quick-ACK mode ACKs per second of the run")
    ap.add_argument("--min", type=int, default=100, help="leave out flows with fewer ACKs")
    a = ap.parse_args()
    by_flow, by_second, first = defaultdict(Counter), defaultdict(Counter), None
    for k, n in entries(a.counts):
        r = reason(k)
        by_flow[k["remote_port"]][r] += n
        if r.startswith("quick"):
            by_second[k["remote_port"]][k["second"]] += n
        first = k["second"] if first is None else min(first, k["second"])
    for port, reasons in sorted(by_flow.items(), key=lambda x: -sum(x[1].values())):
        total = sum(reasons.values())
        if total < a.min:
            continue
        print(f"flow from port {port}: {total} pure ACKs")
        for r in ORDER:
            if reasons[r]:
                print(f"  {r:30s} {reasons[r]:7d}  {reasons[r] / total:.3f}")
        if a.seconds:
            series = " ".join(f"{s - first}:{c}" for s, c in sorted(by_second[port].items()))
            print(f"  quick-ACK mode ACKs by second: {series or 'none'}")


if __name__ == "__main__":
    main()
