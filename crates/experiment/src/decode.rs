//! From the document tree to the typed scenario (`schema`): every key known, every value of
//! the expected type, unit and range. Cross-references (routes, the bottleneck) are checked
//! afterwards in `topology`.

use crate::error::{Result, Source};
use crate::fields::{Fields, Located};
use crate::host_model::HostModel;
use crate::schema::*;
use crate::tree::{Kind, Node, Table};

const TOP_KEYS: &[&str] = &["description", "simulation", "links", "flows", "fidelity"];
const SIMULATION_KEYS: &[&str] = &["duration", "warmup", "seed", "probe_interval", "bottleneck", "host_latency", "hosts"];
const DIRECTION_KEYS: &[&str] = &[
    "rate",
    "delay",
    "buffer",
    "queue",
    "red_min",
    "red_max",
    "red_max_p",
    "red_weight",
    "red_gentle",
    "drop_slots",
    "drop_probability",
    "loss",
];
const LINK_ONLY_KEYS: &[&str] = &["from", "to", "count", "one_way", "reverse"];
const FLOW_KEYS: &[&str] = &[
    "name",
    "kind",
    "count",
    "route",
    "reverse_route",
    "start",
    "start_spacing",
    "stop",
    "traffic",
    "rate",
    "size",
    "cc",
    "recovery",
    "delayed_ack",
    "packet_size",
    "ack_size",
    "initial_window",
    "min_ssthresh",
    "min_rto",
    "rto",
    "lost_retransmit",
    "cubic_rules",
    "send_jitter",
    "send_buffer",
    "receive_lowat",
    "mean_on",
    "mean_off",
    "pareto_shape",
    "subflows",
    "scheduler",
    "receive_buffer",
    "sbd_feedback",
    "sbd_sample_spacing",
    "sbd_corr_min",
    "sbd_detector",
    "sbd_receiver",
    "sbd_verify",
    "sbd_verify_follow",
    "sbd_verify_start",
    "competitor",
    "log_delays",
];
const MPTCP_ONLY: &[&str] = &["subflows", "scheduler", "receive_buffer", "sbd_feedback", "sbd_sample_spacing", "sbd_corr_min", "sbd_detector", "sbd_receiver", "sbd_verify", "sbd_verify_follow", "sbd_verify_start"];
const TCP_ONLY: &[&str] = &["cc", "recovery", "delayed_ack", "ack_size", "initial_window", "min_ssthresh", "min_rto", "rto", "lost_retransmit", "cubic_rules", "send_jitter", "send_buffer", "receive_lowat", "size", "log_delays"];
const UDP_ONLY: &[&str] = &["mean_on", "mean_off", "pareto_shape"];

pub const QUEUES: &[&str] = &["droptail", "red", "random-tail-drop"];
pub const TCP_TRAFFIC: &[&str] = &["bulk", "rate-limited", "finite"];
pub const UDP_TRAFFIC: &[&str] = &["constant", "poisson", "on-off"];
pub const MAX_COUNT: i64 = 100_000;

pub fn decode(doc: &Table, src: &Source) -> Result<Scenario> {
    let root = Node { kind: Kind::Table(doc.clone()), origin: crate::error::Origin::File(0..0) };
    let top = Fields::new(&root, "", TOP_KEYS, src)?;
    top.string("description")?;
    let simulation = match top.get("simulation") {
        Some(node) => decode_simulation(node, src)?,
        None => return Err(top.missing("simulation", "a [simulation] table with at least duration = \"60s\"")),
    };
    let links = match top.get("links") {
        Some(node) => {
            let Kind::Table(t) = &node.kind else {
                return Err(top.error("links", format!("expected tables [links.NAME], got {}", node.kind.type_name())));
            };
            t.entries.iter().map(|e| decode_link(&e.key, e.key_origin.clone(), &e.value, src)).collect::<Result<Vec<_>>>()?
        }
        None => return Err(top.missing("links", "at least one [links.NAME] table")),
    };
    let flows = match top.get("flows") {
        Some(Node { kind: Kind::Array(items), .. }) => {
            items.iter().enumerate().map(|(i, n)| decode_flow(i, n, simulation.hosts, src)).collect::<Result<Vec<_>>>()?
        }
        Some(node) => return Err(top.error("flows", format!("expected [[flows]] tables, got {}", node.kind.type_name()))),
        None => Vec::new(),
    };
    let fidelity = top.get("fidelity").map(|node| crate::fidelity::decode(node, src)).transpose()?;
    Ok(Scenario { simulation, links, flows, fidelity })
}

fn decode_simulation(node: &Node, src: &Source) -> Result<SimulationSpec> {
    let f = Fields::new(node, "simulation", SIMULATION_KEYS, src)?;
    let duration = f.positive_time("duration")?.ok_or_else(|| f.missing("duration", crate::units::TIME_EXPECTED))?;
    let warmup = f.time("warmup")?.unwrap_or(0);
    if warmup >= duration {
        return Err(f.error("warmup", "must be shorter than simulation.duration"));
    }
    let seed = f.int("seed", 0, i64::MAX)?.unwrap_or(1) as u64;
    let probe_interval = f.positive_time("probe_interval")?.unwrap_or(100 * crate::units::PS_PER_SEC / 1000);
    if probe_interval > duration {
        return Err(f.error("probe_interval", "must not be longer than simulation.duration"));
    }
    let seed_given = f.get("seed").is_some();
    let probe_interval_at = f.located("probe_interval", probe_interval);
    let host_latency_given = f.time("host_latency")?;
    let hosts = HostModel::decode(&f)?;
    Ok(SimulationSpec {
        duration,
        warmup,
        seed,
        seed_given,
        probe_interval,
        probe_interval_at,
        bottleneck: f.string("bottleneck")?,
        host_latency: host_latency_given,
        hosts,
    })
}

/// Names of links, nodes and flows: letters, digits, '_' and '-' (and `{i}` in templates),
/// so that summary keys and `--set` paths stay unambiguous.
fn check_name(v: &Located<String>, src: &Source) -> Result<()> {
    let bare = v.value.replace("{i}", "");
    if v.value.is_empty() || !bare.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        return Err(v.error(src, format!("\"{}\" is not a valid name; use letters, digits, '_' and '-'", v.value)));
    }
    Ok(())
}

fn count(f: &Fields) -> Result<Option<u32>> {
    Ok(f.int("count", 1, MAX_COUNT)?.map(|c| c as u32))
}

fn decode_link(name: &str, key_origin: crate::error::Origin, node: &Node, src: &Source) -> Result<LinkSpec> {
    let path = format!("links.{name}");
    let known: Vec<&str> = DIRECTION_KEYS.iter().chain(LINK_ONLY_KEYS).copied().collect();
    let f = Fields::new(node, &path, &known, src)?;
    let name = Located { value: name.to_string(), origin: key_origin, path: path.clone() };
    check_name(&name, src)?;
    if name.value.contains("{i}") {
        return Err(name.error(src, "a link name must not contain {i}: copies are named NAME.0, NAME.1, ..."));
    }
    let count = count(&f)?;
    let from = f.string("from")?.ok_or_else(|| f.missing("from", "the name of the node the link starts at"))?;
    let to = f.string("to")?.ok_or_else(|| f.missing("to", "the name of the node the link ends at"))?;
    for node_name in [&from, &to] {
        check_name(node_name, src)?;
        if node_name.value.contains("{i}") && count.is_none() {
            return Err(node_name.error(src, "{i} stands for the copy index and needs count = N on the link"));
        }
    }
    if from.value == to.value {
        return Err(to.error(src, format!("a link must join two different nodes, but from = to = \"{}\"", to.value)));
    }
    let forward = decode_direction(&f, None)?;
    let one_way = f.bool("one_way")?.unwrap_or(false);
    let reverse = match f.get("reverse") {
        Some(_) if one_way => return Err(f.error("reverse", "a one-way link has no reverse direction; remove one_way or reverse")),
        Some(rev) => Some(decode_direction(&Fields::new(rev, &f.path("reverse"), DIRECTION_KEYS, src)?, Some(&forward))?),
        None if one_way => None,
        None => Some(forward.clone()),
    };
    Ok(LinkSpec { name, count, from, to, forward, reverse })
}

/// One direction's settings; the reverse direction inherits what it does not set.
fn decode_direction(f: &Fields, inherit: Option<&DirectionSpec>) -> Result<DirectionSpec> {
    let rate_bps = match (f.rate("rate")?, inherit) {
        (Some(r), _) => r,
        (None, Some(d)) => d.rate_bps,
        (None, None) => return Err(f.missing("rate", crate::units::RATE_EXPECTED)),
    };
    let delay = match (f.positive_time("delay")?, inherit) {
        (Some(d), _) => d,
        (None, Some(d)) => d.delay,
        (None, None) => return Err(f.missing("delay", crate::units::TIME_EXPECTED)),
    };
    let buffer = match (decode_buffer(f)?, inherit) {
        (Some(b), _) => b,
        (None, Some(d)) => d.buffer.clone(),
        (None, None) => return Err(f.missing("buffer", BUFFER_EXPECTED)),
    };
    let queue = decode_queue(f, inherit.map(|d| &d.queue))?;
    let loss = f.number("loss", 0.0, 1.0)?.or(inherit.map(|d| d.loss)).unwrap_or(0.0);
    if loss >= 1.0 {
        return Err(f.error("loss", "must be below 1 (a link that drops everything carries nothing)"));
    }
    Ok(DirectionSpec { rate_bps, delay, buffer, queue, loss })
}

const MAX_BUFFER_PACKETS: i64 = 1_000_000_000;
const BUFFER_EXPECTED: &str = "a packet count like 167 or \"167pkt\", or a size like \"250000B\"";

fn decode_buffer(f: &Fields) -> Result<Option<Located<Buffer>>> {
    let Some(node) = f.get("buffer") else { return Ok(None) };
    let buffer = match &node.kind {
        Kind::Int(n) if *n > MAX_BUFFER_PACKETS => return Err(f.error("buffer", format!("at most {MAX_BUFFER_PACKETS} packets, got {n}"))),
        Kind::Int(n) if *n >= 1 => Buffer::Packets(*n as u64),
        Kind::Int(n) => return Err(f.error("buffer", format!("must hold at least one packet; expected {BUFFER_EXPECTED}, got {n}"))),
        Kind::Str(s) => match parse_packets(s) {
            Some(0) => return Err(f.error("buffer", "must hold at least one packet, got 0 packets")),
            Some(n) if n > MAX_BUFFER_PACKETS as u64 => return Err(f.error("buffer", format!("at most {MAX_BUFFER_PACKETS} packets, got {n}"))),
            Some(n) => Buffer::Packets(n),
            None => Buffer::Bytes(f.size("buffer").map_err(|_| f.error("buffer", format!("expected {BUFFER_EXPECTED}, got \"{s}\"")))?.unwrap_or(0)),
        },
        _ => return Err(f.wrong("buffer", node, BUFFER_EXPECTED)),
    };
    Ok(Some(f.located("buffer", buffer)))
}

/// "167pkt", "167 packets".
fn parse_packets(text: &str) -> Option<u64> {
    let t = text.trim();
    let digits = t.trim_end_matches(|c: char| c.is_ascii_alphabetic()).trim();
    let unit = &t[digits.len()..].trim();
    ["pkt", "pkts", "packet", "packets"].contains(unit).then(|| digits.parse().ok()).flatten()
}

fn decode_queue(f: &Fields, inherit: Option<&QueueSpec>) -> Result<QueueSpec> {
    let kind = match f.choice("queue", QUEUES)? {
        Some(k) => k.value,
        None => match inherit {
            Some(QueueSpec::Red { .. }) => "red".into(),
            Some(QueueSpec::RandomTailDrop { .. }) => "random-tail-drop".into(),
            _ => "droptail".into(),
        },
    };
    let red_keys = ["red_min", "red_max", "red_max_p", "red_weight", "red_gentle"];
    let drop_keys = ["drop_slots", "drop_probability"];
    let (forbidden, condition): (&[&str], _) = match kind.as_str() {
        "red" => (&drop_keys, "queue = \"random-tail-drop\""),
        "random-tail-drop" => (&red_keys, "queue = \"red\""),
        _ => (&[], ""),
    };
    for key in forbidden {
        f.only_with(key, condition)?;
    }
    if kind == "droptail" {
        for key in red_keys {
            f.only_with(key, "queue = \"red\"")?;
        }
        for key in drop_keys {
            f.only_with(key, "queue = \"random-tail-drop\"")?;
        }
    }
    Ok(match kind.as_str() {
        "red" => {
            let (min0, max0, p0, w0, g0) = match inherit {
                Some(QueueSpec::Red { min_threshold, max_threshold, max_p, weight, gentle }) => {
                    (*min_threshold, *max_threshold, *max_p, *weight, *gentle)
                }
                _ => (f64::NAN, f64::NAN, 0.1, 0.002, true),
            };
            let min_threshold = f.number("red_min", 0.0, 1e9)?.unwrap_or(min0);
            let max_threshold = f.number("red_max", 0.0, 1e9)?.unwrap_or(max0);
            if min_threshold.is_nan() || max_threshold.is_nan() {
                let key = if min_threshold.is_nan() { "red_min" } else { "red_max" };
                return Err(f.missing(key, "the RED threshold on the average queue, in packets"));
            }
            if max_threshold <= min_threshold {
                return Err(f.error("red_max", format!("must be above red_min ({min_threshold})")));
            }
            let max_p = f.number("red_max_p", 0.0, 1.0)?.unwrap_or(p0);
            let weight = f.number("red_weight", 0.0, 1.0)?.unwrap_or(w0);
            for (key, v) in [("red_max_p", max_p), ("red_weight", weight)] {
                if v == 0.0 {
                    return Err(f.error(key, "must be greater than zero"));
                }
            }
            let gentle = f.bool("red_gentle")?.unwrap_or(g0);
            QueueSpec::Red { min_threshold, max_threshold, max_p, weight, gentle }
        }
        "random-tail-drop" => {
            let (s0, p0) = match inherit {
                Some(QueueSpec::RandomTailDrop { slots, probability }) => (*slots, *probability),
                _ => (3, 1.0 / 3.0),
            };
            let slots = f.int("drop_slots", 1, 1_000_000)?.map_or(s0, |s| s as u32);
            let probability = f.number("drop_probability", 0.0, 1.0)?.unwrap_or(p0);
            QueueSpec::RandomTailDrop { slots, probability }
        }
        _ => QueueSpec::DropTail,
    })
}

fn decode_flow(index: usize, node: &Node, hosts: HostModel, src: &Source) -> Result<FlowSpec> {
    // Messages name the flow as --set selects it: by its name when it has one.
    let label = match &node.kind {
        Kind::Table(t) => match t.get("name") {
            Some(Node { kind: Kind::Str(s), .. }) => format!("flows.{s}"),
            _ => format!("flows.{index}"),
        },
        _ => format!("flows.{index}"),
    };
    let f = Fields::new(node, &label, FLOW_KEYS, src)?;
    let name = f.string("name")?.unwrap_or_else(|| f.located("name", format!("flow{index}")));
    check_name(&name, src)?;
    if name.value.contains("{i}") {
        return Err(name.error(src, "a flow name must not contain {i}: copies are named NAME.0, NAME.1, ..."));
    }
    let count = count(&f)?;
    // The kind decides which keys the flow needs, so an unknown kind is reported before any
    // of them (a misspelt "mptcp" would otherwise read as a TCP flow missing its route).
    let kind = f.choice("kind", &["tcp", "udp", "mptcp"])?.map_or("tcp".to_string(), |k| k.value);
    let mptcp = kind == "mptcp";
    let route = match f.strings("route")? {
        Some(r) => r,
        None if mptcp => crate::mptcp::first_subflow(&f)?,
        None => return Err(f.missing("route", "the list of node names from sender to receiver")),
    };
    let reverse_route = f.strings("reverse_route")?;
    for r in std::iter::once(&route).chain(&reverse_route) {
        if r.value.len() < 2 {
            return Err(r.error(src, "a route needs at least two nodes, sender first and receiver last"));
        }
        if count.is_none() && r.value.iter().any(|n| n.contains("{i}")) {
            return Err(r.error(src, "{i} stands for the copy index and needs count = N on the flow"));
        }
    }
    let start = f.time("start")?.unwrap_or(0);
    let start_spacing = f.time("start_spacing")?.unwrap_or(0);
    let stop = f.time("stop")?;
    if stop.is_some_and(|s| s <= start) {
        return Err(f.error("stop", "must be later than start"));
    }
    if !mptcp {
        for key in MPTCP_ONLY {
            f.only_with(key, "kind = \"mptcp\"")?;
        }
    }
    let kind = match kind.as_str() {
        "tcp" => FlowKind::Tcp(decode_tcp(&f, false, hosts)?),
        "mptcp" => FlowKind::Mptcp(crate::mptcp::decode(&f, decode_tcp(&f, true, hosts)?, count.is_some())?),
        _ => FlowKind::Udp(decode_udp(&f)?),
    };
    Ok(FlowSpec { name, count, route, reverse_route, start, start_spacing, stop, kind })
}

/// A TCP flow or an MPTCP connection's subflows: the flow's own keys, and for each key it
/// leaves out what the host model (`simulation.hosts`) sets.
pub(crate) fn decode_tcp(f: &Fields, multipath: bool, hosts: HostModel) -> Result<TcpSpec> {
    for key in UDP_ONLY {
        f.only_with(key, "kind = \"udp\"")?;
    }
    let cc = match multipath {
        // A connection's cc names a multipath scheme, checked by crate::mptcp.
        true => pathpool_cc::Algorithm::Reno,
        false => crate::cc::parse(&f.string("cc")?.unwrap_or_else(|| f.located("cc", "reno".to_string())), f.src())?,
    };
    let recovery = match f.choice("recovery", &["newreno", "sack"])? {
        Some(r) if r.value == "sack" => Recovery::Sack,
        Some(_) => Recovery::NewReno,
        None if hosts.sack() => Recovery::Sack,
        None => Recovery::NewReno,
    };
    let traffic = f.choice("traffic", TCP_TRAFFIC)?.map_or("bulk".to_string(), |t| t.value);
    if traffic != "rate-limited" {
        f.only_with("rate", "traffic = \"rate-limited\"")?;
    }
    if traffic != "finite" {
        f.only_with("size", "traffic = \"finite\"")?;
    }
    let traffic = match traffic.as_str() {
        "rate-limited" => TcpTraffic::RateLimited { bps: f.rate("rate")?.ok_or_else(|| f.missing("rate", crate::units::RATE_EXPECTED))? },
        "finite" => TcpTraffic::Bytes(f.size("size")?.ok_or_else(|| f.missing("size", crate::units::SIZE_EXPECTED))?),
        _ => TcpTraffic::Bulk,
    };
    let packet_size = wire_size(f, "packet_size", 1500)?;
    let ack_size = wire_size(f, "ack_size", 40)?;
    // RACK finds lost retransmissions from SACKed segments (tcp/rack.rs).
    let rack_lost_retransmit = match f.choice("lost_retransmit", &["rto", "rack"])? {
        Some(c) => c.value == "rack",
        None => hosts.rack(recovery == Recovery::Sack),
    };
    let (linux_send_buffer, linux_6_18) = match f.choice("send_buffer", &["unlimited", "linux", "linux-6.18"])? {
        Some(c) => (c.value != "unlimited", c.value == "linux-6.18"),
        None => hosts.send_buffer(),
    };
    if rack_lost_retransmit && recovery != Recovery::Sack {
        return Err(f.error("lost_retransmit", "\"rack\" needs recovery = \"sack\" (it reads the SACK scoreboard)".to_string()));
    }
    // Linux's CUBIC rules where they differ from RFC 9438 (cubic.rs `CubicRules`).
    let cubic_rules = match f.choice("cubic_rules", &["rfc9438", "linux"])? {
        Some(_) if multipath || cc != pathpool_cc::Algorithm::Cubic => {
            return Err(f.error("cubic_rules", "only for a TCP flow with cc = \"cubic\"".to_string()));
        }
        Some(c) if c.value == "linux" => pathpool_cc::CubicRules::Linux,
        Some(_) => pathpool_cc::CubicRules::Rfc9438,
        None if !multipath && cc == pathpool_cc::Algorithm::Cubic => hosts.cubic_rules(),
        None => pathpool_cc::CubicRules::Rfc9438,
    };
    let (delayed_ack, linux_receiver, subflow_read_alone) = delayed_ack(f, hosts)?;
    let delack_max = f.get("delayed_ack").is_some_and(|n| matches!(&n.kind, Kind::Str(s) if s == "linux-delack-max"));
    if delack_max && !multipath {
        return Err(f.error("delayed_ack", "\"linux-delack-max\" caps the delayed-ACK timer of an MPTCP connection's subflows (pathpool kernel receiver on --mode delack-max); a TCP flow keeps Linux's receiver: use \"linux\""));
    }
    let receive_lowat = f.size("receive_lowat")?;
    if receive_lowat.is_some() && multipath {
        return Err(f.error("receive_lowat", "SO_RCVLOWAT is set on TCP receivers only (an MPTCP connection's reads are the connection's, not a subflow's)"));
    }
    Ok(TcpSpec {
        cc,
        cubic_rules,
        recovery,
        delayed_ack,
        linux_receiver,
        subflow_read_alone,
        delack_max,
        packet_size,
        ack_size,
        initial_window: f.number("initial_window", 1.0, 1e6)?.unwrap_or(10.0),
        min_ssthresh: f.number("min_ssthresh", 1.0, 1e6)?.or(hosts.min_ssthresh()),
        min_rto: f.positive_time("min_rto")?.unwrap_or(200 * crate::units::PS_PER_SEC / 1000),
        rto: match f.choice("rto", &["rfc6298", "linux"])?.map(|c| c.value) {
            Some(v) if v == "linux" => pathpool_cc::RtoRule::Linux,
            Some(_) => pathpool_cc::RtoRule::Rfc6298,
            None => hosts.rto(),
        },
        rack_lost_retransmit,
        send_jitter: f.time("send_jitter")?.unwrap_or(hosts.send_jitter()),
        linux_send_buffer,
        linux_6_18,
        receive_lowat,
        traffic,
        competitor: f.bool("competitor")?.unwrap_or(false),
        log_delays: f.bool("log_delays")?.unwrap_or(false),
    })
}

/// `delayed_ack`: true or false, "linux" (delayed ACKs as Linux's receiver sends them;
/// docs/fidelity.md), or "linux-proposed" (the same with the kernel change proposed in
/// docs/kernel.md), or "linux-delack-max" (Linux's receiver with its delayed-ACK timer at 2
/// jiffies, as the receiver fix's `delack-max` mode sets it on subflows): (delayed ACKs,
/// Linux's receiver, a subflow's read-time ACK alone).
fn delayed_ack(f: &Fields, hosts: HostModel) -> Result<(bool, bool, bool)> {
    match f.get("delayed_ack") {
        None => {
            let (delayed, linux) = hosts.delayed_ack();
            Ok((delayed, linux, false))
        }
        Some(Node { kind: Kind::Bool(b), .. }) => Ok((*b, false, false)),
        Some(Node { kind: Kind::Str(_), .. }) => {
            let v = f.choice("delayed_ack", &["linux", "linux-proposed", "linux-delack-max"])?.map(|c| c.value).unwrap_or_default();
            Ok((true, true, v == "linux-proposed"))
        }
        Some(n) => Err(f.wrong("delayed_ack", n, "true, false, \"linux\", \"linux-proposed\" or \"linux-delack-max\"")),
    }
}

fn decode_udp(f: &Fields) -> Result<UdpSpec> {
    for key in TCP_ONLY.iter().chain(&["competitor"]) {
        f.only_with(key, "kind = \"tcp\"")?;
    }
    let traffic = f.choice("traffic", UDP_TRAFFIC)?.map_or("constant".to_string(), |t| t.value);
    if traffic != "on-off" {
        for key in UDP_ONLY {
            f.only_with(key, "traffic = \"on-off\"")?;
        }
    }
    let rate_bps = f.rate("rate")?.ok_or_else(|| f.missing("rate", crate::units::RATE_EXPECTED))?;
    let pattern = match traffic.as_str() {
        "poisson" => UdpPattern::Poisson { rate_bps },
        "on-off" => UdpPattern::OnOff {
            rate_bps,
            mean_on: f.positive_time("mean_on")?.ok_or_else(|| f.missing("mean_on", crate::units::TIME_EXPECTED))?,
            mean_off: f.positive_time("mean_off")?.ok_or_else(|| f.missing("mean_off", crate::units::TIME_EXPECTED))?,
            pareto_shape: f.number("pareto_shape", 1.0 + 1e-9, 100.0)?.unwrap_or(1.5),
        },
        _ => UdpPattern::Constant { rate_bps },
    };
    Ok(UdpSpec { packet_size: wire_size(f, "packet_size", 1500)?, pattern })
}

const MAX_PACKET: u64 = 65536;

fn wire_size(f: &Fields, key: &str, default: u64) -> Result<u64> {
    let size = f.size(key)?.unwrap_or(default);
    if size > MAX_PACKET {
        return Err(f.error(key, format!("at most {MAX_PACKET} B, got {size} B")));
    }
    Ok(size)
}
