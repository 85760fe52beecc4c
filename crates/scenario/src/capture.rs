//! `pathpool run --pcap DIR`: which simulator flows are captured and how they look on the
//! wire. One pcap per host that sends or receives TCP (`DIR/NODE.pcap`), as tcpdump on that
//! host would write it; every node gets an IPv4 address (10.0.x.y in order of its name), every
//! TCP flow and subflow a port of its own. MPTCP connections get keys from the seed and the
//! connection's index, their first subflow MP_CAPABLE and the others MP_JOIN
//! (`pathpool_sim::capture`).

use crate::schema::FlowKind;
use crate::hosts::Hosts;
use crate::Loaded;
use pathpool_sim as sim;
use std::collections::BTreeMap;
use std::io::BufWriter;
use std::path::Path;

/// Top 32 bits of SHA-256 of the key would be RFC 8684's token; the reader computes it from
/// the keys, so the join must carry exactly that: computed by the reader's own function.
fn token(key: u64) -> u32 {
    pathpool_pcap::options::token_of_key(key)
}

/// The address of node number `i` (in sorted name order).
pub fn address(i: usize) -> [u8; 4] {
    [10, 0, (i / 250) as u8, (i % 250 + 1) as u8]
}

pub(crate) fn attach(s: &mut sim::Simulation, l: &Loaded, connections: &[(usize, sim::MptcpId, usize)], dir: &Path) -> Result<(), String> {
    let topo = &l.topology;
    let hosts = Hosts::of(topo);
    // (sim flow, sender node, receiver node, topology flow, subflow index, packet size,
    // whether the sender sets PSH itself)
    let mut captured = Vec::new();
    let mut next = 0u32;
    for (ti, flow) in topo.flows.iter().enumerate() {
        match &l.scenario.flows[flow.template].kind {
            FlowKind::Tcp(t) => {
                let (a, b) = hosts.ends(&flow.route);
                captured.push((next, a, b, ti, None, t.packet_size, t.linux_send_buffer));
                next += 1;
            }
            FlowKind::Udp(_) => next += 1,
            FlowKind::Mptcp(m) => {
                for (k, (route, _)) in flow.subflows.iter().enumerate() {
                    let (a, b) = hosts.ends(route);
                    captured.push((next, a, b, ti, Some(k), m.tcp.packet_size, m.tcp.linux_send_buffer));
                    next += 1;
                }
            }
        }
    }
    let mut nodes: BTreeMap<&str, usize> = BTreeMap::new();
    for &(_, a, b, ..) in &captured {
        nodes.insert(a, 0);
        nodes.insert(b, 0);
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("--pcap: cannot create the folder '{}': {e}", dir.display()))?;
    let mut writers: Vec<Box<dyn std::io::Write>> = Vec::new();
    for (i, (name, slot)) in nodes.iter_mut().enumerate() {
        *slot = i;
        let path = dir.join(format!("{name}.pcap"));
        let f = std::fs::File::create(&path).map_err(|e| format!("--pcap: cannot create '{}': {e}", path.display()))?;
        writers.push(Box::new(BufWriter::with_capacity(1 << 16, f)));
    }
    s.enable_capture(writers).map_err(|e| format!("--pcap: writing into '{}': {e}", dir.display()))?;
    let seed = l.scenario.simulation.seed;
    for (flow, a, b, ti, sub, size, sender_pushes) in captured {
        let addr = |n: &str| address(hosts.number(n));
        let mptcp = sub.map(|k| {
            let c = connections.iter().position(|c| c.0 == ti).unwrap_or(ti) as u64;
            let (client_key, server_key) = sim::capture::mptcp_keys(seed, c);
            if k == 0 {
                sim::CaptureMptcp::Capable { client_key, server_key }
            } else {
                sim::CaptureMptcp::Join { server_token: token(server_key), address_id: k as u8 }
            }
        });
        let f = sim::CaptureFlow {
            src_host: nodes[a],
            dst_host: nodes[b],
            src: addr(a),
            dst: addr(b),
            sport: 32768u16.wrapping_add(flow as u16),
            dport: 5201,
            // Payload per segment: the packet minus IPv4, TCP and timestamp headers (52 B), as
            // the testbed sets TCP_MAXSEG.
            seg_bytes: (size as u32).saturating_sub(52).max(1),
            start: topo.flows[ti].start,
            mptcp,
            sender_pushes,
        };
        s.capture_flow(sim::FlowId(flow), f);
    }
    Ok(())
}
