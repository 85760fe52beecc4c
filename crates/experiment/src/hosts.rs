//! The nodes of a topology numbered in the order of their names, so that a node's number
//! depends on the scenario alone: it names a node's address in captures (`capture.rs`) and
//! its random stream for `simulation.host_latency`.

use crate::topology::{Hop, Topology};

pub struct Hosts<'a> {
    topo: &'a Topology,
    /// Every node that ends a link, sorted and without repeats.
    names: Vec<String>,
}

impl<'a> Hosts<'a> {
    pub fn of(topo: &'a Topology) -> Self {
        let mut names: Vec<String> = topo.links.iter().flat_map(|k| [k.from.clone(), k.to.clone()]).collect();
        names.sort();
        names.dedup();
        Hosts { topo, names }
    }

    /// The number of node `name`, which ends a link of the topology.
    pub fn number(&self, name: &str) -> usize {
        self.names.binary_search_by(|x| x.as_str().cmp(name)).expect("node of a link")
    }

    /// Where a route starts and where it ends.
    pub fn ends(&self, route: &[Hop]) -> (&'a str, &'a str) {
        let link = |h: &Hop| &self.topo.links[h.link];
        let first = &route[0];
        let last = &route[route.len() - 1];
        let from = if first.reverse { &link(first).to } else { &link(first).from };
        let to = if last.reverse { &link(last).from } else { &link(last).to };
        (from, to)
    }

    /// The number of the node a route ends at (a flow's receiving host).
    pub fn receiver(&self, route: &[Hop]) -> u64 {
        self.number(self.ends(route).1) as u64
    }
}
