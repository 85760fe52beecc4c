//! The scenario laid out on Linux: which namespace each node is, which TUN device each link
//! end is, the addresses of every flow, and the policy routes that send each flow's packets
//! (and its ACKs) along exactly the links its route names.
//!
//! Routing is by (source, destination) address pair: every route of a flow (one per MPTCP
//! subflow) has a source address of its own on the sender, every flow a destination address
//! of its own on the receiver, so two flows between the same nodes over different links
//! never compete for one routing entry. Each node on a route gets an `ip rule from SRC to
//! DST` that selects a table whose only route leaves through the next link's TUN device.
//!
//! A multipath QUIC connection sends all its paths from one socket, so its paths differ by
//! destination instead: one source address and a destination address per path
//! ([`Paths::ByDestination`]); the pairs are as distinct and the routes the same.

use crate::{fail, Result};
use pathpool_experiment::schema::{Buffer, DirectionSpec, FlowKind, QueueSpec};
use pathpool_experiment::topology::Hop;
use pathpool_experiment::Loaded;
use std::collections::BTreeMap;
use std::net::Ipv4Addr;

/// The network samples real queues (and the backends real sockets) no more often than this.
const MIN_PROBE_INTERVAL_PS: u64 = 10_000_000_000;

/// Checks what the network can build of the scenario (the probe interval, the links and
/// their queues), naming the file, line and key of what it cannot.
pub fn check_network(l: &Loaded) -> Result<()> {
    let file = &l.source.name;
    let src = &l.source;
    if l.scenario.simulation.probe_interval < MIN_PROBE_INTERVAL_PS {
        return fail(format!("{file}: simulation.probe_interval: a real network (backends linux and quic) has its queues and sockets read at most every 10ms"));
    }
    for link in &l.scenario.links {
        if link.from.value == link.to.value {
            return Err(crate::NetlabError(link.name.error(src, "a real network (backends linux and quic) cannot build a link from a node to itself: a link is a TUN device in each of two nodes' namespaces").to_string()));
        }
        for (dir, what) in [(Some(&link.forward), ""), (link.reverse.as_ref(), ".reverse")] {
            let Some(d) = dir else { continue };
            let why = match d.queue {
                QueueSpec::DropTail => continue,
                QueueSpec::Red { .. } => "\"red\": this kernel has no RED queueing discipline (sch_red); use \"droptail\" on a real network (backends linux and quic)",
                QueueSpec::RandomTailDrop { .. } => "\"random-tail-drop\" exists only in the simulator; use \"droptail\" on a real network (backends linux and quic)",
            };
            return Err(crate::NetlabError(src.error(&d.buffer.origin, &format!("links.{}{what}.queue", link.name.value), why).to_string()));
        }
    }
    Ok(())
}

/// The port every receiver listens on (each flow has its own destination address).
pub const PORT: u16 = 5001;

/// What the layout needs to know of a flow beyond its route: the backend's own settings.
pub trait FlowNeeds {
    /// Attributes of the sender's first route (Linux takes TCP's initial window per route).
    fn route_attributes(&self) -> String;
    /// Attributes of the receiver's route back to the sender.
    fn receiver_route_attributes(&self) -> &'static str;
    /// SACK on or off at the sender (a per-namespace sysctl), for TCP-based flows.
    fn sack(&self) -> Option<bool>;
    /// Whether the sender asks for ECN (`net.ipv4.tcp_ecn = 1` in its namespace; Linux's
    /// default only accepts it).
    fn ecn(&self) -> bool {
        false
    }
    /// How the routes of a flow with several (sub)paths are told apart.
    fn paths(&self) -> Paths;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paths {
    /// A source address per path and Linux MPTCP endpoints for all but the first (MPTCP).
    BySource,
    /// One source address, a destination address per path (multipath QUIC: one socket).
    ByDestination,
}

pub struct Plan<S> {
    /// Node names; the index is the namespace number.
    pub nodes: Vec<String>,
    pub links: Vec<LinkPlan>,
    pub flows: Vec<FlowPlan<S>>,
    /// Per node: `ip -batch` lines (addresses, routes, rules, MPTCP endpoints and limits).
    pub ip_lines: Vec<Vec<String>>,
    /// Per node: `tc -batch` lines (the queues of the directions leaving the node).
    pub tc_lines: Vec<Vec<String>>,
    /// Per node: sysctls (key under /proc/sys/net, value).
    pub sysctls: Vec<Vec<(String, String)>>,
}

pub struct LinkPlan {
    pub name: String,
    pub from: usize,
    pub to: usize,
    /// The TUN device's name at both ends (they are in different namespaces).
    pub device: String,
    pub mtu: u64,
    pub forward: DirectionSpec,
    pub reverse: Option<DirectionSpec>,
}

pub struct FlowPlan<S> {
    pub name: String,
    /// Index into `Loaded::topology.flows`.
    pub topo_index: usize,
    pub sender: usize,
    pub receiver: usize,
    /// One per subflow (one for TCP and UDP, and for `Paths::ByDestination`).
    pub sources: Vec<Ipv4Addr>,
    /// The first (the only one but for `Paths::ByDestination`).
    pub destination: Ipv4Addr,
    /// Every path's destination, in path order (one entry but for `Paths::ByDestination`).
    pub destinations: Vec<Ipv4Addr>,
    pub start_s: f64,
    pub stop_s: Option<f64>,
    pub spec: S,
}

struct Addresses(u32);

impl Addresses {
    fn next(&mut self) -> Ipv4Addr {
        loop {
            self.0 += 1;
            let a = Ipv4Addr::from(0x0a00_0000 | self.0);
            if !matches!(a.octets()[3], 0 | 255) {
                return a;
            }
        }
    }
}

fn seconds(ps: u64) -> f64 {
    ps as f64 / 1e12
}

fn sender_of(links: &[LinkPlan], hop: &Hop) -> usize {
    let l = &links[hop.link];
    if hop.reverse { l.to } else { l.from }
}

pub fn build<S: FlowNeeds>(l: &Loaded, checked: Vec<S>) -> Plan<S> {
    let topo = &l.topology;
    let mut names: Vec<String> = topo.links.iter().flat_map(|k| [k.from.clone(), k.to.clone()]).collect();
    names.sort();
    names.dedup();
    let index: BTreeMap<&str, usize> = names.iter().enumerate().map(|(i, n)| (n.as_str(), i)).collect();
    let mut links: Vec<LinkPlan> = topo
        .links
        .iter()
        .enumerate()
        .map(|(i, k)| LinkPlan {
            name: k.name.clone(),
            from: index[k.from.as_str()],
            to: index[k.to.as_str()],
            device: format!("ppl{i}"),
            mtu: 0,
            forward: k.forward.clone(),
            reverse: k.reverse.clone(),
        })
        .collect();
    let n = names.len();
    let mut ip_lines: Vec<Vec<String>> = vec![vec!["link set lo up".to_string()]; n];
    let mut sysctls: Vec<Vec<(String, String)>> = vec![
        vec![
            ("ipv4/ip_forward".into(), "1".into()),
            ("ipv4/conf/all/rp_filter".into(), "0".into()),
            ("ipv4/conf/default/rp_filter".into(), "0".into()),
        ];
        n
    ];
    let mut addresses = Addresses(0);
    let mut table = 1000u32;
    let mut route = |ip: &mut Vec<Vec<String>>, links: &[LinkPlan], hops: &[Hop], from: Ipv4Addr, to: Ipv4Addr, extra: &str| {
        for (k, hop) in hops.iter().enumerate() {
            table += 1;
            let node = sender_of(links, hop);
            let dev = &links[hop.link].device;
            // Only the first hop's node, the sender (or on the way back the receiver), carries
            // the TCP attributes (initcwnd and rto_min; quickack).
            let attrs = if k == 0 { extra } else { "" };
            ip[node].push(format!("route add default dev {dev} table {table}{attrs}"));
            ip[node].push(format!("rule add from {from}/32 to {to}/32 table {table} pref 100"));
        }
    };
    let mut flows = Vec::new();
    let mut mptcp_endpoints = vec![0u32; n];
    for (fi, (flow, spec)) in topo.flows.iter().zip(checked).enumerate() {
        let template = &l.scenario.flows[flow.template];
        let sender = sender_of(&links, &flow.route[0]);
        let receiver = {
            let last = flow.route.last().expect("routes are not empty");
            let lk = &links[last.link];
            if last.reverse { lk.from } else { lk.to }
        };
        let by_destination = spec.paths() == Paths::ByDestination;
        let destination = addresses.next();
        ip_lines[receiver].push(format!("address add {destination}/32 dev lo"));
        let mut destinations = vec![destination];
        let routes: Vec<(&[Hop], &[Hop])> = if flow.subflows.is_empty() {
            vec![(&flow.route, &flow.reverse_route)]
        } else {
            flow.subflows.iter().map(|(f, r)| (f.as_slice(), r.as_slice())).collect()
        };
        let packet = match &template.kind {
            FlowKind::Tcp(t) => t.packet_size,
            FlowKind::Mptcp(m) => m.tcp.packet_size,
            FlowKind::Udp(u) => u.packet_size,
        };
        let mut sources = Vec::new();
        for (k, (fwd, rev)) in routes.iter().enumerate() {
            for hop in fwd.iter() {
                links[hop.link].mtu = links[hop.link].mtu.max(packet);
            }
            let (src, dst) = if by_destination && k > 0 {
                let dst = addresses.next();
                ip_lines[receiver].push(format!("address add {dst}/32 dev lo"));
                destinations.push(dst);
                (sources[0], dst)
            } else {
                let src = addresses.next();
                ip_lines[sender].push(format!("address add {src}/32 dev lo"));
                sources.push(src);
                (src, destination)
            };
            route(&mut ip_lines, &links, fwd, src, dst, &spec.route_attributes());
            route(&mut ip_lines, &links, rev, dst, src, spec.receiver_route_attributes());
            if k > 0 && !by_destination {
                mptcp_endpoints[sender] += 1;
                ip_lines[sender].push(format!("mptcp endpoint add {src} id {} subflow", mptcp_endpoints[sender]));
            }
        }
        if routes.len() > 1 && !by_destination {
            for node in [sender, receiver] {
                ip_lines[node].push("mptcp limits set subflow 8 add_addr_accepted 8".into());
            }
        }
        if let Some(sack) = spec.sack() {
            sysctls[sender].push(("ipv4/tcp_sack".into(), if sack { "1" } else { "0" }.into()));
        }
        if spec.ecn() {
            sysctls[sender].push(("ipv4/tcp_ecn".into(), "1".into()));
        }
        flows.push(FlowPlan {
            name: flow.name.clone(),
            topo_index: fi,
            sender,
            receiver,
            sources,
            destination,
            destinations,
            start_s: seconds(flow.start),
            stop_s: flow.stop.map(seconds),
            spec,
        });
    }
    for ip in &mut ip_lines {
        ip.dedup();
    }
    let mut tc_lines: Vec<Vec<String>> = vec![Vec::new(); n];
    for link in &mut links {
        link.mtu = if link.mtu == 0 { 1500 } else { link.mtu };
        for (node, dir) in [(link.from, Some(&link.forward)), (link.to, link.reverse.as_ref())] {
            if let Some(d) = dir {
                tc_lines[node].extend(crate::shape::tbf_lines(&link.device, d, link.mtu));
            }
        }
    }
    Plan { nodes: names, links, flows, ip_lines, tc_lines, sysctls }
}

/// The queue's capacity in bytes, for `Buffer::Bytes`, or in packets.
pub fn describe_buffer(b: &Buffer) -> String {
    match b {
        Buffer::Packets(p) => format!("{p} packets"),
        Buffer::Bytes(b) => format!("{b} B"),
    }
}

impl<S> Plan<S> {
    /// Per (namespace, device) of each link direction, in `links` order: forward, reverse.
    pub fn queue_keys(&self, names: &[String]) -> Vec<(String, String)> {
        self.links.iter().flat_map(|l| [(names[l.from].clone(), l.device.clone()), (names[l.to].clone(), l.device.clone())]).collect()
    }
}
