//! The scenario made concrete: link and flow templates expanded into their copies, routes
//! resolved into link directions, and the cross-references checked (nodes exist, every TCP
//! receiver has a way back, buffers hold a packet, the bottleneck is a link).

use crate::error::{Result, Source};
use crate::fields::Located;
use crate::schema::*;
use crate::suggest::did_you_mean;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Debug)]
pub struct Topology {
    pub links: Vec<Link>,
    pub flows: Vec<Flow>,
    /// Index into `links` of the designated bottleneck (its forward direction).
    pub bottleneck: Option<usize>,
}

#[derive(Clone, Debug)]
pub struct Link {
    /// `NAME`, or `NAME.i` for copy i of a template with `count`.
    pub name: String,
    pub from: String,
    pub to: String,
    pub forward: DirectionSpec,
    pub reverse: Option<DirectionSpec>,
}

/// One direction of one link.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Hop {
    pub link: usize,
    pub reverse: bool,
}

#[derive(Clone, Debug)]
pub struct Flow {
    /// `NAME`, or `NAME.i` for copy i of a template with `count`.
    pub name: String,
    /// Index of the template in `Scenario::flows`.
    pub template: usize,
    pub route: Vec<Hop>,
    /// Empty for UDP (nothing comes back).
    pub reverse_route: Vec<Hop>,
    pub start: u64,
    pub stop: Option<u64>,
    /// Multipath connections: (route, reverse route) of each subflow; `route` and
    /// `reverse_route` above are the first subflow's.
    pub subflows: Vec<(Vec<Hop>, Vec<Hop>)>,
}

fn copies(count: Option<u32>) -> impl Iterator<Item = Option<u32>> {
    let n = count.unwrap_or(1);
    (0..n).map(move |i| count.map(|_| i))
}

fn instance(name: &str, copy: Option<u32>) -> String {
    copy.map_or_else(|| name.to_string(), |i| format!("{name}.{i}"))
}

fn substitute(text: &str, copy: Option<u32>) -> String {
    copy.map_or_else(|| text.to_string(), |i| text.replace("{i}", &i.to_string()))
}

pub fn build(s: &Scenario, src: &Source) -> Result<Topology> {
    let mut links = Vec::new();
    for spec in &s.links {
        for copy in copies(spec.count) {
            links.push(Link {
                name: instance(&spec.name.value, copy),
                from: substitute(&spec.from.value, copy),
                to: substitute(&spec.to.value, copy),
                forward: spec.forward.clone(),
                reverse: spec.reverse.clone(),
            });
        }
    }
    let graph = Graph::new(&links);
    let mut flows = Vec::new();
    let mut names = BTreeSet::new();
    for (template, spec) in s.flows.iter().enumerate() {
        if !names.insert(spec.name.value.clone()) {
            return Err(spec.name.error(src, format!("another flow is already named \"{}\"", spec.name.value)));
        }
        for copy in copies(spec.count) {
            let nodes: Vec<String> = spec.route.value.iter().map(|n| substitute(n, copy)).collect();
            let route = graph.resolve(&nodes, &spec.route, copy, src)?;
            let reverse_route = match (&spec.kind, &spec.reverse_route) {
                (FlowKind::Udp(_), _) => Vec::new(),
                (FlowKind::Tcp(_) | FlowKind::Mptcp(_), Some(rev)) => {
                    let back: Vec<String> = rev.value.iter().map(|n| substitute(n, copy)).collect();
                    if back.first() != nodes.last() || back.last() != nodes.first() {
                        return Err(rev.error(src, format!("must lead from the receiver \"{}\" back to the sender \"{}\"", nodes[nodes.len() - 1], nodes[0])));
                    }
                    graph.resolve(&back, rev, copy, src)?
                }
                (FlowKind::Tcp(_) | FlowKind::Mptcp(_), None) => {
                    let back: Vec<String> = nodes.iter().rev().cloned().collect();
                    graph.resolve(&back, &spec.route, copy, src).map_err(|e| {
                        let msg = format!(
                            "no route back from the receiver \"{}\" to the sender \"{}\" for the ACKs ({}); make the links two-way or give reverse_route",
                            back[0],
                            nodes[0],
                            e.message
                        );
                        spec.route.error(src, msg)
                    })?
                }
            };
            let start = spec.start.saturating_add(u64::from(copy.unwrap_or(0)).saturating_mul(spec.start_spacing));
            if start >= s.simulation.duration {
                let what = copy.map_or(String::new(), |i| format!(" (copy {i} with start_spacing)"));
                return Err(spec.name.error(src, format!("starts at or after the end of the simulation{what}")));
            }
            if spec.stop.is_some_and(|stop| stop <= start) {
                return Err(spec.name.error(src, format!("copy {} starts after its stop time", copy.unwrap_or(0))));
            }
            let mut subflows = Vec::new();
            if let FlowKind::Mptcp(m) = &spec.kind {
                for sf in &m.subflows {
                    let nodes: Vec<String> = sf.value.iter().map(|n| substitute(n, copy)).collect();
                    let fwd = graph.resolve(&nodes, sf, copy, src)?;
                    let back: Vec<String> = nodes.iter().rev().cloned().collect();
                    let rev = graph.resolve(&back, sf, copy, src).map_err(|e| sf.error(src, format!("no route back for this subflow's ACKs ({}); make its links two-way", e.message)))?;
                    subflows.push((fwd, rev));
                }
            }
            flows.push(Flow { name: instance(&spec.name.value, copy), template, route, reverse_route, start, stop: spec.stop, subflows });
        }
    }
    check_buffers(s, &links, &flows, src)?;
    let bottleneck = match &s.simulation.bottleneck {
        Some(b) => Some(links.iter().position(|l| l.name == b.value).ok_or_else(|| {
            let hint = did_you_mean(&b.value, links.iter().map(|l| l.name.as_str()));
            b.error(src, format!("no link is named \"{}\"{hint}", b.value))
        })?),
        None if links.len() == 1 => Some(0),
        None => None,
    };
    Ok(Topology { links, flows, bottleneck })
}

/// Every packet must fit into an empty buffer of every queue it crosses.
fn check_buffers(s: &Scenario, links: &[Link], flows: &[Flow], src: &Source) -> Result<()> {
    for flow in flows {
        let (data, ack) = match &s.flows[flow.template].kind {
            FlowKind::Tcp(t) => (t.packet_size, t.ack_size),
            FlowKind::Mptcp(m) => (m.tcp.packet_size, m.tcp.ack_size),
            FlowKind::Udp(u) => (u.packet_size, 0),
        };
        let hops = flow.route.iter().map(|h| (h, data)).chain(flow.reverse_route.iter().map(|h| (h, ack)));
        for (hop, size) in hops {
            let link = &links[hop.link];
            let dir = if hop.reverse { link.reverse.as_ref() } else { Some(&link.forward) };
            if let Some(DirectionSpec { buffer: Located { value: Buffer::Bytes(b), .. }, .. }) = dir {
                if *b < size {
                    let buffer = &dir.expect("matched above").buffer;
                    let what = if hop.reverse { "reverse direction" } else { "buffer" };
                    return Err(buffer.error(src, format!("the {what} of {b} B is smaller than one packet of flow \"{}\" ({size} B)", flow.name)));
                }
            }
        }
    }
    Ok(())
}

/// Which link directions join which pairs of nodes.
struct Graph {
    edges: BTreeMap<(String, String), Vec<Hop>>,
    nodes: BTreeSet<String>,
    names: Vec<String>,
}

impl Graph {
    fn new(links: &[Link]) -> Self {
        let mut edges: BTreeMap<(String, String), Vec<Hop>> = BTreeMap::new();
        let mut nodes = BTreeSet::new();
        for (i, l) in links.iter().enumerate() {
            edges.entry((l.from.clone(), l.to.clone())).or_default().push(Hop { link: i, reverse: false });
            if l.reverse.is_some() {
                edges.entry((l.to.clone(), l.from.clone())).or_default().push(Hop { link: i, reverse: true });
            }
            nodes.insert(l.from.clone());
            nodes.insert(l.to.clone());
        }
        Graph { edges, nodes, names: links.iter().map(|l| l.name.clone()).collect() }
    }

    fn resolve(&self, nodes: &[String], field: &Located<Vec<String>>, copy: Option<u32>, src: &Source) -> Result<Vec<Hop>> {
        let which = copy.map_or(String::new(), |i| format!(" (copy {i})"));
        for (k, n) in nodes.iter().enumerate() {
            if self.nodes.contains(n) {
                continue;
            }
            let template = field.value.get(k).filter(|t| t.contains("{i}"));
            let message = match (template, copy) {
                (Some(t), Some(i)) => format!(
                    "node \"{t}\" is \"{n}\" for copy {i}, but no link has that end; a link template with count = N and \"{t}\" in from or to makes the copies 0 to N-1"
                ),
                _ => format!("node \"{n}\"{which} is not an end of any link{}", did_you_mean(n, self.nodes.iter().map(String::as_str))),
            };
            return Err(field.error(src, message));
        }
        // A loop sends each packet through the same links twice: never what a path is.
        if let Some((k, n)) = nodes.iter().enumerate().find(|(k, n)| nodes[..*k].contains(n)) {
            let first = nodes.iter().position(|m| m == n).unwrap_or(0);
            return Err(field.error(src, format!("node \"{n}\"{which} comes twice (positions {} and {}): a route visits each node at most once", first + 1, k + 1)));
        }
        let mut hops = Vec::with_capacity(nodes.len() - 1);
        for pair in nodes.windows(2) {
            let key = (pair[0].clone(), pair[1].clone());
            match self.edges.get(&key).map(Vec::as_slice) {
                Some([hop]) => hops.push(*hop),
                Some(several) => {
                    let names: Vec<&str> = several.iter().map(|h| self.names[h.link].as_str()).collect();
                    return Err(field.error(src, format!("\"{}\" -> \"{}\"{which} is ambiguous: links {} all join them", pair[0], pair[1], names.join(", "))));
                }
                None => {
                    let one_way = self.edges.get(&(pair[1].clone(), pair[0].clone())).map(|h| self.names[h[0].link].clone());
                    let note = one_way.map_or(String::new(), |n| format!("; link \"{n}\" is one-way, from \"{}\" to \"{}\"", pair[1], pair[0]));
                    return Err(field.error(src, format!("no link goes from \"{}\" to \"{}\"{which}{note}", pair[0], pair[1])));
                }
            }
        }
        Ok(hops)
    }
}
