#!/usr/bin/env python3
"""Cross-check of pathpool's packet simulator against ns-3 (docs/validation.md,
"Cross-check against ns-3").

Builds the topology and flows of a pathpool scenario file in ns-3, runs it, and prints per
flow goodput and retransmission rate, bottleneck utilisation, drop rate and Jain's index as
JSON. With --pathpool BIN it also runs pathpool on the same file with the same duration and
prints both sides in one table.

ns-3 is not a dependency of the project. Install it in a throwaway virtual environment:

    python3 -m venv out/ns3venv
    out/ns3venv/bin/pip install ns3==3.44.post0 .    # ns-3, and pathpool's package for the units

and run, e.g.

    out/ns3venv/bin/python -m scripts.ns3_crosscheck scenarios/bench/b1-n10.toml \
        --duration 120s --pathpool target/release/pathpool

(`make crosscheck-ns3` does both for the two scenarios of docs/validation.md.)

Supported scenarios: point-to-point links with `droptail` or `red` queues and buffers in
packets, and bulk TCP flows with `cc = "reno"`. Anything else is rejected with an error
naming the field.

How the two simulators are made to agree (see the docs for what still differs):
- pathpool counts a 1500 B packet on the wire including the IP and TCP headers. ns-3's
  SegmentSize is the TCP payload, so SegmentSize = packet_size - 40 with the timestamp
  option off (pure ACKs are then 40 B, as in the scenarios). ns-3's point-to-point device
  adds a 2 B PPP header, so link rates are scaled by (packet_size + 2) / packet_size to keep
  the transmission time of a data packet the same.
- ns-3 goodput is reported in the scenario's units: delivered segments x packet_size.
- pathpool's buffer counts the packet in service. In ns-3 a packet in transmission and one
  in the device queue (1 packet, the minimum) sit below the queue disc, so the queue disc
  holds buffer - 2 packets and RED's thresholds are lowered by 2 packets (--red-offset).
- ns-3 defaults that differ from the scenarios are set explicitly: NewReno with classic
  recovery (not PRR), no SACK unless `recovery = "sack"`, no limited transmit, no
  timestamps, one ACK per segment, min RTO, initial window, socket buffers large enough
  never to limit the window (window scaling on).
"""

import argparse
import json
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from scripts import package

IP_TCP_HEADERS = 40
PPP_HEADER = 2
# Packets below the queue disc in ns-3: one in transmission, one in the device queue.
BELOW_QDISC = 2
SINK_PORT_BASE = 9000
SOCKET_BUFFER = 64 << 20


class ScenarioError(Exception):
    pass


# ---- scenario reading (the subset the cross-check needs) ----------------------------------

def _read(v, unit, field, example):
    """A value with a unit, read by the scenario loader's own parsers (pathpool.quantity), so
    that ns-3 is given exactly what pathpool simulates."""
    try:
        number, got = package.pathpool().quantity(v)
    except ValueError:
        got = None
    if got != unit:
        raise ScenarioError(f"{field}: expected a value with a unit like {example}, got {v!r}")
    return number


def seconds(v, field):
    return _read(v, "s", field, '"20ms"')


def rate_bps(v, field):
    return float(_read(v, "bps", field, '"100Mbps"'))


def size_bytes(v, field):
    return _read(v, "bytes", field, '"1500B"')


def packets(v, field):
    if isinstance(v, int) and v > 0:
        return v
    if isinstance(v, str) and re.fullmatch(r"\s*[0-9]+\s*pkt\s*", v):
        return int(v.strip()[:-3])
    raise ScenarioError(f"{field}: expected a buffer in packets (like 167 or \"167pkt\"), got {v!r}")


LINK_KEYS = {"from", "to", "rate", "delay", "buffer", "queue", "red_min", "red_max", "red_max_p", "red_weight", "red_gentle"}
FLOW_KEYS = {"name", "kind", "route", "count", "start", "start_spacing", "cc", "recovery", "delayed_ack", "initial_window", "min_rto", "packet_size", "ack_size", "traffic"}


def required(table, key, prefix):
    if key not in table:
        raise ScenarioError(f"{prefix}.{key}: required")
    return table[key]


def read_scenario(path, duration_override, warmup_override, recovery_override):
    with open(path, "rb") as f:
        doc = tomllib.load(f)
    sim = doc.get("simulation", {})
    duration = seconds(duration_override or sim.get("duration"), "simulation.duration")
    warmup = seconds(warmup_override or sim.get("warmup", "0s"), "simulation.warmup")
    if not 0 <= warmup < duration:
        raise ScenarioError(f"simulation.warmup: must be below simulation.duration ({duration} s), got {warmup} s")
    links = {}
    for name, l in doc.get("links", {}).items():
        extra = set(l) - LINK_KEYS
        if extra:
            raise ScenarioError(f"links.{name}.{sorted(extra)[0]}: not supported by the ns-3 cross-check")
        queue = l.get("queue", "droptail")
        if queue not in ("droptail", "red"):
            raise ScenarioError(f"links.{name}.queue: expected \"droptail\" or \"red\" for the ns-3 cross-check, got {queue!r}")
        at = f"links.{name}"
        link = {"from": required(l, "from", at), "to": required(l, "to", at),
                "rate": rate_bps(required(l, "rate", at), f"{at}.rate"), "delay": seconds(required(l, "delay", at), f"{at}.delay"),
                "buffer": packets(required(l, "buffer", at), f"{at}.buffer"), "queue": queue}
        if queue == "red":
            link["red"] = {"min": float(required(l, "red_min", at)), "max": float(required(l, "red_max", at)),
                           "max_p": float(l.get("red_max_p", 0.1)),
                           "weight": float(l.get("red_weight", 0.002)), "gentle": bool(l.get("red_gentle", True))}
        if link["buffer"] <= BELOW_QDISC:
            raise ScenarioError(f"links.{name}.buffer: must exceed {BELOW_QDISC} packets for ns-3")
        links[name] = link
    nodes = {n for l in links.values() for n in (l["from"], l["to"])}
    if len(links) != len(nodes) - 1:
        # ns-3's global routing takes shortest paths; in a tree that is the only path.
        raise ScenarioError(f"links: the ns-3 cross-check needs a tree ({len(nodes)} nodes, so {len(nodes) - 1} links), got {len(links)} links")
    bottleneck = sim.get("bottleneck") or (next(iter(links)) if len(links) == 1 else None)
    if bottleneck not in links:
        raise ScenarioError(f"simulation.bottleneck: expected the name of a link, got {bottleneck!r}")
    flows = []
    for k, f in enumerate(doc.get("flows", [])):
        name = f.get("name", f"flow{k}")
        extra = set(f) - FLOW_KEYS
        if extra:
            raise ScenarioError(f"flows.{name}.{sorted(extra)[0]}: not supported by the ns-3 cross-check")
        for key, expected in (("kind", "tcp"), ("cc", "reno"), ("traffic", "bulk")):
            if f.get(key, expected) != expected:
                raise ScenarioError(f"flows.{name}.{key}: the ns-3 cross-check supports only {expected!r}, got {f[key]!r}")
        if size_bytes(f.get("ack_size", "40B"), f"flows.{name}.ack_size") != IP_TCP_HEADERS:
            raise ScenarioError(f"flows.{name}.ack_size: ns-3's pure ACK is {IP_TCP_HEADERS} B (IP + TCP headers), got {f['ack_size']!r}")
        recovery = recovery_override or f.get("recovery", "newreno")
        if recovery not in ("newreno", "sack"):
            raise ScenarioError(f"flows.{name}.recovery: expected \"newreno\" or \"sack\", got {recovery!r}")
        count = f.get("count")
        start = seconds(f.get("start", "0s"), f"flows.{name}.start")
        spacing = seconds(f.get("start_spacing", "0s"), f"flows.{name}.start_spacing")
        for i in range(count or 1):
            flows.append({"name": f"{name}.{i}" if count else name, "route": required(f, "route", f"flows.{name}"),
                          "start": start + i * spacing,
                          "sack": recovery == "sack", "delayed_ack": bool(f.get("delayed_ack", False)),
                          "initial_window": int(f.get("initial_window", 10)),
                          "min_rto": seconds(f.get("min_rto", "200ms"), f"flows.{name}.min_rto"),
                          "packet_size": size_bytes(f.get("packet_size", "1500B"), f"flows.{name}.packet_size")})
    if not flows:
        raise ScenarioError("flows: the scenario has no flow")
    if flows[0]["packet_size"] <= IP_TCP_HEADERS:
        raise ScenarioError(f"flows.*.packet_size: must exceed the {IP_TCP_HEADERS} B of IP and TCP headers")
    for key in ("sack", "delayed_ack", "initial_window", "min_rto", "packet_size"):
        if len({fl[key] for fl in flows}) != 1:
            raise ScenarioError(f"flows.*.{key}: ns-3 sets it globally, so all flows must agree")
    return {"duration": duration, "warmup": warmup, "seed": int(sim.get("seed", 1)), "links": links,
            "bottleneck": bottleneck, "flows": flows, "flow_entries": len(doc.get("flows", []))}


# ---- summary statistics ----------------------------------------------------------------------

def jain(xs):
    return sum(xs) ** 2 / (len(xs) * sum(x * x for x in xs)) if xs and any(xs) else None


def retransmission_rate(retransmitted, delivered):
    """Retransmitted segments per segment sent (sent = new segments delivered + retransmitted)."""
    return retransmitted / (delivered + retransmitted) if delivered + retransmitted else 0.0


# ---- ns-3 -----------------------------------------------------------------------------------

COUNTERS_CPP = r"""
#include "ns3/bulk-send-application.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-disc.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-socket-base.h"

namespace crosscheck {
using namespace ns3;

struct Flow {
    uint64_t tx = 0, retx = 0, loss_states = 0, recoveries = 0, quick_recoveries = 0, drops = 0;
    Time open_since = Seconds(0);
};
// A fast recovery that starts this soon after the previous recovery or timeout ended cannot
// have been triggered by three duplicate ACKs for data sent after it ended.
const Time QUICK = MilliSeconds(1);
std::vector<Flow> flows;
uint64_t enqueued = 0, dropped = 0, device_dropped = 0, tx_bytes = 0;

void OnTx(uint32_t i, Ptr<const Packet> p, const TcpHeader&, Ptr<const TcpSocketBase>) {
    if (p->GetSize() > 0) flows[i].tx++;
}
void OnRetx(uint32_t i, Ptr<const Packet>, const TcpHeader&, const Address&, const Address&, Ptr<const TcpSocketBase>) {
    flows[i].retx++;
}
void OnCongState(uint32_t i, TcpSocketState::TcpCongState_t from, TcpSocketState::TcpCongState_t to) {
    Flow& f = flows[i];
    if (to == TcpSocketState::CA_LOSS && from != to) f.loss_states++;
    if (to == TcpSocketState::CA_RECOVERY && from != to) {
        f.recoveries++;
        if (f.open_since > Seconds(0) && Simulator::Now() - f.open_since < QUICK) f.quick_recoveries++;
    }
    if (to == TcpSocketState::CA_OPEN && (from == TcpSocketState::CA_RECOVERY || from == TcpSocketState::CA_LOSS))
        f.open_since = Simulator::Now();
}
void OnEnqueue(Ptr<const QueueDiscItem>) { enqueued++; }
void OnDrop(Ptr<const QueueDiscItem> item) {
    dropped++;
    TcpHeader h;  // an IPv4 queue-disc item keeps the IP header apart: the packet starts with TCP
    if (item->GetPacket()->PeekHeader(h)) {
        uint32_t port = h.GetDestinationPort();
        if (port >= %(base)d && port - %(base)d < flows.size()) flows[port - %(base)d].drops++;
    }
}
void OnDeviceDrop(Ptr<const Packet>) { device_dropped++; }
void OnPhyTxEnd(Ptr<const Packet> p) { tx_bytes += p->GetSize(); }

void Reset(uint32_t n) { flows.assign(n, Flow()); }
bool AttachFlow(Ptr<Application> app, uint32_t i) {
    Ptr<TcpSocketBase> s = DynamicCast<TcpSocketBase>(DynamicCast<BulkSendApplication>(app)->GetSocket());
    if (!s) return false;
    s->TraceConnectWithoutContext("Tx", MakeBoundCallback(&OnTx, i));
    s->TraceConnectWithoutContext("Retransmission", MakeBoundCallback(&OnRetx, i));
    s->TraceConnectWithoutContext("CongState", MakeBoundCallback(&OnCongState, i));
    return true;
}
void AttachBottleneck(Ptr<QueueDisc> q, Ptr<NetDevice> dev) {
    q->TraceConnectWithoutContext("Enqueue", MakeCallback(&OnEnqueue));
    q->TraceConnectWithoutContext("Drop", MakeCallback(&OnDrop));
    Ptr<PointToPointNetDevice> p2p = DynamicCast<PointToPointNetDevice>(dev);
    p2p->GetQueue()->TraceConnectWithoutContext("Drop", MakeCallback(&OnDeviceDrop));
    p2p->TraceConnectWithoutContext("PhyTxEnd", MakeCallback(&OnPhyTxEnd));
}
}  // namespace crosscheck
""" % {"base": SINK_PORT_BASE}


def run_ns3(sc, red_offset):
    from ns import ns
    import cppyy

    cppyy.cppdef(COUNTERS_CPP)
    cc = cppyy.gbl.crosscheck
    flows = sc["flows"]
    f0 = flows[0]
    pkt = f0["packet_size"]
    ns.RngSeedManager.SetSeed(sc["seed"])
    d = ns.Config.SetDefault
    d("ns3::TcpL4Protocol::SocketType", ns.StringValue("ns3::TcpNewReno"))
    d("ns3::TcpL4Protocol::RecoveryType", ns.StringValue("ns3::TcpClassicRecovery"))
    d("ns3::TcpSocket::SegmentSize", ns.UintegerValue(pkt - IP_TCP_HEADERS))
    d("ns3::TcpSocket::InitialCwnd", ns.UintegerValue(f0["initial_window"]))
    d("ns3::TcpSocket::DelAckCount", ns.UintegerValue(2 if f0["delayed_ack"] else 1))
    d("ns3::TcpSocket::SndBufSize", ns.UintegerValue(SOCKET_BUFFER))
    d("ns3::TcpSocket::RcvBufSize", ns.UintegerValue(SOCKET_BUFFER))
    d("ns3::TcpSocketBase::Sack", ns.BooleanValue(f0["sack"]))
    d("ns3::TcpSocketBase::Timestamp", ns.BooleanValue(False))
    d("ns3::TcpSocketBase::WindowScaling", ns.BooleanValue(True))
    d("ns3::TcpSocketBase::LimitedTransmit", ns.BooleanValue(False))
    d("ns3::TcpSocketBase::MinRto", ns.TimeValue(ns.Seconds(f0["min_rto"])))

    node_names = sorted({n for l in sc["links"].values() for n in (l["from"], l["to"])})
    nodes = ns.NodeContainer()
    nodes.Create(len(node_names))
    node = {name: nodes.Get(i) for i, name in enumerate(node_names)}
    ns.InternetStackHelper().Install(nodes)

    address_of = {}  # node name -> one of its addresses (for sinks)
    bottleneck = None
    for k, (name, l) in enumerate(sorted(sc["links"].items())):
        p2p = ns.PointToPointHelper()
        p2p.SetDeviceAttribute("DataRate", ns.DataRateValue(ns.DataRate(round(l["rate"] * (pkt + PPP_HEADER) / pkt))))
        p2p.SetChannelAttribute("Delay", ns.TimeValue(ns.Seconds(l["delay"])))
        p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", ns.QueueSizeValue(ns.QueueSize("1p")))
        devs = p2p.Install(node[l["from"]], node[l["to"]])
        limit = ns.QueueSizeValue(ns.QueueSize(f"{l['buffer'] - BELOW_QDISC}p"))
        if l["queue"] == "red":
            r = l["red"]
            d("ns3::RedQueueDisc::MaxSize", limit)
            if r["min"] - red_offset < 0:
                raise ScenarioError(f"links.{name}.red_min: {r['min']} is below --red-offset {red_offset}")
            d("ns3::RedQueueDisc::MinTh", ns.DoubleValue(r["min"] - red_offset))
            d("ns3::RedQueueDisc::MaxTh", ns.DoubleValue(r["max"] - red_offset))
            d("ns3::RedQueueDisc::LInterm", ns.DoubleValue(1.0 / r["max_p"]))
            d("ns3::RedQueueDisc::QW", ns.DoubleValue(r["weight"]))
            d("ns3::RedQueueDisc::Gentle", ns.BooleanValue(r["gentle"]))
            # Floyd's original p_a = p_b / (1 - count p_b), as pathpool, not the "wait" variant.
            d("ns3::RedQueueDisc::Wait", ns.BooleanValue(False))
            d("ns3::RedQueueDisc::MeanPktSize", ns.UintegerValue(pkt))
            d("ns3::RedQueueDisc::LinkBandwidth", ns.DataRateValue(ns.DataRate(round(l["rate"]))))
            d("ns3::RedQueueDisc::LinkDelay", ns.TimeValue(ns.Seconds(l["delay"])))
            kind = "ns3::RedQueueDisc"
        else:
            d("ns3::FifoQueueDisc::MaxSize", limit)
            kind = "ns3::FifoQueueDisc"
        tch = ns.TrafficControlHelper()
        tch.SetRootQueueDisc(kind)
        qdiscs = tch.Install(devs)  # before addresses are assigned, so no default FqCoDel
        ips = ns.Ipv4AddressHelper()
        ips.SetBase(ns.Ipv4Address(f"10.{k // 250}.{k % 250}.0"), ns.Ipv4Mask("255.255.255.0"))
        ifaces = ips.Assign(devs)
        address_of.setdefault(l["from"], ifaces.GetAddress(0))
        address_of.setdefault(l["to"], ifaces.GetAddress(1))
        if name == sc["bottleneck"]:
            bottleneck = (qdiscs.Get(0), devs.Get(0), l)
    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()

    cc.Reset(len(flows))
    senders, sinks = [], []
    for i, f in enumerate(flows):
        src, dst = f["route"][0], f["route"][-1]
        for n in (src, dst):
            if n not in node:
                raise ScenarioError(f"flows.{f['name']}.route: node {n!r} is not an end of any link")
        port = SINK_PORT_BASE + i
        sink = ns.PacketSinkHelper("ns3::TcpSocketFactory", ns.InetSocketAddress(ns.Ipv4Address.GetAny(), port).ConvertTo())
        sink_app = sink.Install(node[dst])
        sink_app.Start(ns.Seconds(0))
        sinks.append(ns.DynamicCast[ns.PacketSink](sink_app.Get(0)))
        bulk = ns.BulkSendHelper("ns3::TcpSocketFactory", ns.InetSocketAddress(address_of[dst], port).ConvertTo())
        bulk.SetAttribute("MaxBytes", ns.UintegerValue(0))
        bulk.SetAttribute("SendSize", ns.UintegerValue(10 * (pkt - IP_TCP_HEADERS)))
        app = bulk.Install(node[src])
        app.Start(ns.Seconds(f["start"]))
        senders.append(app.Get(0))
    q, dev, blink = bottleneck
    cc.AttachBottleneck(q, dev)

    # Run until every sender has its socket, hook its traces, then run the warm-up and the
    # measured window.
    attach_at = max(f["start"] for f in flows) + 1e-6
    if attach_at >= sc["warmup"]:
        raise ScenarioError("simulation.warmup: must be later than the last flow start for the ns-3 cross-check")
    ns.Simulator.Stop(ns.Seconds(attach_at))
    ns.Simulator.Run()
    for i, app in enumerate(senders):
        if not cc.AttachFlow(app, i):
            raise RuntimeError(f"flow {flows[i]['name']}: no TCP socket at {attach_at} s")

    def snapshot():
        fl = [{"tx": c.tx, "retx": c.retx, "loss_states": c.loss_states, "recoveries": c.recoveries,
               "quick_recoveries": c.quick_recoveries, "drops": c.drops}
              for c in cc.flows]
        return {"rx": [s.GetTotalRx() for s in sinks], "flows": fl, "enqueued": cc.enqueued, "dropped": cc.dropped,
                "device_dropped": cc.device_dropped, "tx_bytes": cc.tx_bytes}

    ns.Simulator.Stop(ns.Seconds(sc["warmup"] - attach_at))
    ns.Simulator.Run()
    a = snapshot()
    ns.Simulator.Stop(ns.Seconds(sc["duration"] - sc["warmup"]))
    ns.Simulator.Run()
    b = snapshot()
    ns.Simulator.Destroy()

    window = sc["duration"] - sc["warmup"]
    seg = pkt - IP_TCP_HEADERS
    out_flows = {}
    for i, f in enumerate(flows):
        delivered = (b["rx"][i] - a["rx"][i]) / seg
        c = {k: b["flows"][i][k] - a["flows"][i][k] for k in b["flows"][i]}
        out_flows[f["name"]] = {
            "throughput_mbps": delivered * pkt * 8 / window / 1e6,
            "retransmissions": c["retx"],
            "retransmission_rate": retransmission_rate(c["retx"], delivered),
            "sent": c["tx"],
            "bottleneck_drops": c["drops"],
            "loss_states": c["loss_states"],
            "fast_recoveries": c["recoveries"],
            "fast_recoveries_within_1ms_of_the_last": c["quick_recoveries"],
        }
    drops = b["dropped"] - a["dropped"]
    arrivals = b["enqueued"] - a["enqueued"] + drops
    wire_rate = blink["rate"] * (pkt + PPP_HEADER) / pkt
    return {
        "flows": out_flows,
        "bottleneck_utilization": (b["tx_bytes"] - a["tx_bytes"]) * 8 / wire_rate / window,
        "bottleneck_drops": drops,
        "bottleneck_drop_rate": drops / arrivals if arrivals else 0.0,
        "bottleneck_device_drops": b["device_dropped"] - a["device_dropped"],
        "jain_index": jain([v["throughput_mbps"] for v in out_flows.values()]),
    }


# ---- pathpool ---------------------------------------------------------------------------------

def run_pathpool(binary, scenario_path, sc, overrides):
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        cmd = [binary, "run", str(scenario_path), "--out", str(out)]
        for key, value in overrides.items():
            if value and key == "recovery":
                cmd += [a for k in range(sc["flow_entries"]) for a in ("--set", f"flows.{k}.recovery={value}")]
            elif value:
                cmd += ["--set", f"simulation.{key}={value}"]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        s = json.loads((out / "summary.json").read_text())
    window = sc["duration"] - sc["warmup"]
    pkt = sc["flows"][0]["packet_size"]
    flows = {}
    for f in sc["flows"]:
        n = f["name"]
        delivered = s[f"flow.{n}.delivered_bytes"] / f["packet_size"]
        flows[n] = {
            "throughput_mbps": s[f"flow.{n}.throughput_mbps"],
            "retransmissions": s[f"flow.{n}.retransmissions"],
            "retransmission_rate": retransmission_rate(s[f"flow.{n}.retransmissions"], delivered),
            "timeouts": s[f"flow.{n}.timeouts"],
        }
    rate = sc["links"][sc["bottleneck"]]["rate"]
    departed = s["bottleneck_utilization"] * rate * window / (pkt * 8)
    drops = s["bottleneck_drops"]
    return {
        "flows": flows,
        "bottleneck_utilization": s["bottleneck_utilization"],
        "bottleneck_drops": drops,
        "bottleneck_drop_rate": drops / (departed + drops) if departed + drops else 0.0,
        "jain_index": s.get("jain_index"),
        "command": " ".join(cmd[:3] + ["--out", "DIR"] + cmd[5:]),
    }


def rel(a, b):
    return f"{(b - a) / a * 100:+.1f} %" if a else "-"


def print_table(sc, ours, theirs):
    print(f"{'flow':<12} {'pathpool Mb/s':>14} {'ns-3 Mb/s':>10} {'diff':>8}   {'pathpool retx':>13} {'ns-3 retx':>10} {'diff':>8}")
    for f in sc["flows"]:
        n = f["name"]
        o, t = ours["flows"][n], theirs["flows"][n]
        print(f"{n:<12} {o['throughput_mbps']:>14.2f} {t['throughput_mbps']:>10.2f} {rel(o['throughput_mbps'], t['throughput_mbps']):>8}"
              f"   {o['retransmission_rate'] * 100:>12.3f}% {t['retransmission_rate'] * 100:>9.3f}% {rel(o['retransmission_rate'], t['retransmission_rate']):>8}")
    for key, fmt in (("bottleneck_utilization", "{:.4f}"), ("bottleneck_drop_rate", "{:.5f}"), ("bottleneck_drops", "{}"), ("jain_index", "{:.4f}")):
        print(f"{key:<24} pathpool {fmt.format(ours[key]):>10}   ns-3 {fmt.format(theirs[key]):>10}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scenario", type=Path, help="pathpool scenario file (TOML)")
    ap.add_argument("--duration", help='simulated time, e.g. "120s" (default: the scenario\'s simulation.duration)')
    ap.add_argument("--warmup", help='start of the measured window, e.g. "20s" (default: the scenario\'s simulation.warmup)')
    ap.add_argument("--recovery", choices=["newreno", "sack"], help="loss recovery of every flow (default: the scenario's)")
    ap.add_argument("--red-offset", type=float, default=BELOW_QDISC,
                    help=f"packets subtracted from RED's thresholds in ns-3 (default {BELOW_QDISC}: the packets below the queue disc)")
    ap.add_argument("--pathpool", metavar="BIN", help="also run this pathpool binary on the scenario and compare")
    ap.add_argument("--json", type=Path, help="also write the results to this file")
    args = ap.parse_args()
    try:
        sc = read_scenario(args.scenario, args.duration, args.warmup, args.recovery)
    except (ScenarioError, tomllib.TOMLDecodeError, OSError) as e:
        sys.exit(f"{args.scenario}: {e}")
    result = {"scenario": str(args.scenario), "duration_s": sc["duration"], "warmup_s": sc["warmup"], "seed": sc["seed"],
              "ns3_red_offset": args.red_offset}
    if args.pathpool:
        result["pathpool"] = run_pathpool(args.pathpool, args.scenario, sc, {"duration": args.duration, "warmup": args.warmup, "recovery": args.recovery})
    try:
        result["ns3"] = run_ns3(sc, args.red_offset)
    except ScenarioError as e:
        sys.exit(f"{args.scenario}: {e}")
    text = json.dumps(result, indent=2, sort_keys=True)
    if args.json:
        args.json.write_text(text + "\n")
    if args.pathpool:
        print_table(sc, result["pathpool"], result["ns3"])
    else:
        print(text)


if __name__ == "__main__":
    main()
