//! The bound of each receiving host's latency (`simulation.host_latency`), from the file or
//! from the host model (`HostModel::host_latency`) and the routes into each host.

use crate::hosts::Hosts;
use crate::schema::FlowKind;
use crate::topology::{Hop, Topology};
use std::collections::BTreeMap;

/// The bound of each receiving host's latency (`simulation.host_latency`), by host number
/// (`Hosts`): the file's value for every host if it gives one; otherwise the
/// host model's, one packet time at the narrowest link of the routes into that host (the
/// largest over them), so that a host behind a fast link is not given a slow link's
/// latency (which would make its flows' RTTs differ by more than the phase it models).
pub fn receiving_host_latencies(l: &crate::Loaded) -> BTreeMap<u64, u64> {
    let spec = &l.scenario.simulation;
    let topo = &l.topology;
    let hosts = Hosts::of(topo);
    let mut out = BTreeMap::new();
    let mut note = |route: &[Hop], packet: u64| {
        let bound = spec.host_latency.unwrap_or_else(|| spec.hosts.host_latency(packet, narrowest(topo, route)));
        let e = out.entry(hosts.receiver(route)).or_insert(0);
        *e = (*e).max(bound);
    };
    for flow in &topo.flows {
        match &l.scenario.flows[flow.template].kind {
            FlowKind::Tcp(t) => note(&flow.route, t.packet_size),
            FlowKind::Mptcp(m) => flow.subflows.iter().for_each(|(fwd, _)| note(fwd, m.tcp.packet_size)),
            FlowKind::Udp(_) => {}
        }
    }
    out
}

fn narrowest(topo: &Topology, route: &[Hop]) -> u64 {
    route.iter().map(|h| crate::mptcp_outcome::hop_rate(topo, h)).min().unwrap_or(0)
}
