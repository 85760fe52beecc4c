//! The plan's two ways of telling a flow's paths apart route each path along exactly the
//! links it names: MPTCP's subflows by source address (with a path-manager endpoint per
//! extra subflow), a QUIC connection's paths by destination address from one source (no
//! endpoints: noq sends every path from one socket).

use pathpool_netlab::plan::{self, FlowNeeds, Paths};

/// One two-path connection (s-a-r, s-b-r) and a TCP flow from a node of its own.
const SCENARIO: &str = include_str!("../../../scenarios/netlab/two-paths.toml");

struct Needs(Paths);

impl FlowNeeds for Needs {
    fn route_attributes(&self) -> String {
        String::new()
    }
    fn receiver_route_attributes(&self) -> &'static str {
        ""
    }
    fn sack(&self) -> Option<bool> {
        None
    }
    fn paths(&self) -> Paths {
        self.0
    }
}

fn plan(paths: Paths) -> plan::Plan<Needs> {
    let l = pathpool_experiment::load_str("two-paths.toml", SCENARIO, &[]).expect("the scenario loads");
    // The TCP flow has one path, so how paths are told apart does not touch it.
    plan::build(&l, vec![Needs(paths), Needs(Paths::BySource)])
}

/// The sender's `ip rule` lines: (from, to, table) of every rule.
fn rules(lines: &[String]) -> Vec<(String, String)> {
    lines.iter().filter(|l| l.starts_with("rule add")).map(|l| {
        let w: Vec<&str> = l.split_whitespace().collect();
        (w[3].to_string(), w[5].to_string())
    }).collect()
}

#[test]
fn mptcp_paths_differ_by_source_and_quic_paths_by_destination() {
    let by_source = plan(Paths::BySource);
    let f = &by_source.flows[0];
    assert_eq!((f.sources.len(), f.destinations.len()), (2, 1));
    let s = &by_source.ip_lines[f.sender];
    assert_eq!(s.iter().filter(|l| l.starts_with("mptcp endpoint add")).count(), 1, "{s:#?}");
    assert_eq!(rules(s), vec![(format!("{}/32", f.sources[0]), format!("{}/32", f.destination)), (format!("{}/32", f.sources[1]), format!("{}/32", f.destination))]);

    let by_destination = plan(Paths::ByDestination);
    let f = &by_destination.flows[0];
    assert_eq!((f.sources.len(), f.destinations.len()), (1, 2));
    assert_eq!(f.destination, f.destinations[0]);
    let s = &by_destination.ip_lines[f.sender];
    assert!(!s.iter().any(|l| l.starts_with("mptcp")), "no MPTCP endpoints or limits for QUIC: {s:#?}");
    assert_eq!(rules(s), vec![(format!("{}/32", f.sources[0]), format!("{}/32", f.destinations[0])), (format!("{}/32", f.sources[0]), format!("{}/32", f.destinations[1]))]);
    // Each path's route leaves through its own link's device, and the receiver holds both
    // destinations and routes each back over the same link.
    let devices: Vec<&str> = s.iter().filter(|l| l.starts_with("route add")).map(|l| l.split_whitespace().nth(4).unwrap()).collect();
    assert_eq!(devices, vec!["ppl0", "ppl2"]);
    let r = &by_destination.ip_lines[f.receiver];
    for d in &f.destinations {
        assert!(r.contains(&format!("address add {d}/32 dev lo")), "{r:#?}");
        assert!(r.iter().any(|l| l.starts_with(&format!("rule add from {d}/32 to {}/32", f.sources[0]))), "{r:#?}");
    }
}
