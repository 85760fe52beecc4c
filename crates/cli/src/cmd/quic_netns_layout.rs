//! The network of `pathpool quic netns` as a scenario, planned by pathpool-netlab as the quic
//! backend plans any scenario: the sending node `c`, the receiving node `s`, and each
//! topology's bottleneck links in front of `c`'s devices (a tbf of `--rate` with a one-BDP
//! byte buffer, `--delay` each way in the delay element).
//!
//! - disjoint: links `b1` (c -> m1) and `b2` (c -> m2), each joined to `s` by a 1 Gb/s link
//!   of 1 us (`j1`, `j2`; a scenario's routes name nodes, so two links between the same two
//!   nodes could not be told apart); path K and link K's competitors cross `bK`.
//! - shared: one link `bottleneck` (c -> s); both paths (two destination addresses) and the
//!   competitors cross it.
//!
//! The way back runs at 1 Gb/s: ACKs queue nowhere, as when only the sender's device had a
//! queue.

use crate::error::CliError;
use pathpool_netlab::plan::{self, Plan};
use pathpool_quic::{QuicCc, QuicFlow};

/// The flow names and what each crosses, in the plan's flow order.
pub struct Layout {
    pub plan: Plan<QuicFlow>,
    /// Index into `plan.links` of each bottleneck (`b1`, `b2` or `bottleneck`).
    pub bottlenecks: Vec<usize>,
    /// Per flow, per path: the index into `bottlenecks` of the one it crosses.
    pub path_links: Vec<Vec<usize>>,
}

/// What the layout takes from the command line.
pub struct Shape {
    pub shared: bool,
    pub cc: QuicCc,
    pub rate_bps: u64,
    pub delay_ns: u64,
    pub buffer_bytes: u64,
    pub competitors: usize,
}

/// The competitor's name: `spK` alone on link K, `spK_J` for several.
fn competitor(k: usize, j: usize, n: usize) -> String {
    if n == 1 {
        format!("sp{k}")
    } else {
        format!("sp{k}_{j}")
    }
}

fn bottleneck(name: &str, from: &str, to: &str, s: &Shape) -> String {
    format!(
        "[links.{name}]\nfrom = \"{from}\"\nto = \"{to}\"\nrate = \"{}bps\"\ndelay = \"{}ns\"\nbuffer = \"{}B\"\n\n[links.{name}.reverse]\nrate = \"1Gbps\"\n\n",
        s.rate_bps, s.delay_ns, s.buffer_bytes
    )
}

fn join(name: &str, from: &str) -> String {
    format!("[links.{name}]\nfrom = \"{from}\"\nto = \"s\"\nrate = \"1Gbps\"\ndelay = \"1us\"\nbuffer = 1000\n\n")
}

/// The scenario file's text and each flow's paths as bottleneck indices.
fn scenario(s: &Shape) -> (String, Vec<Vec<usize>>) {
    let mut text = String::from("description = \"pathpool quic netns\"\n\n[simulation]\nduration = \"1s\"\nprobe_interval = \"100ms\"\n\n");
    let (routes, links): (Vec<String>, usize) = if s.shared {
        text.push_str(&bottleneck("bottleneck", "c", "s", s));
        (vec!["[\"c\", \"s\"]".into()], 1)
    } else {
        for k in 1..=2 {
            text.push_str(&bottleneck(&format!("b{k}"), "c", &format!("m{k}"), s));
            text.push_str(&join(&format!("j{k}"), &format!("m{k}")));
        }
        ((1..=2).map(|k| format!("[\"c\", \"m{k}\", \"s\"]")).collect(), 2)
    };
    let mp_paths: Vec<usize> = (0..2).map(|k| k.min(links - 1)).collect();
    let subflows: Vec<&str> = mp_paths.iter().map(|&k| routes[k].as_str()).collect();
    text.push_str(&format!("[[flows]]\nname = \"mpquic\"\nkind = \"mptcp\"\nsubflows = [{}]\ncc = \"{}\"\n\n", subflows.join(", "), s.cc.name()));
    let mut path_links = vec![mp_paths];
    for k in 0..links {
        for j in 0..s.competitors {
            text.push_str(&format!("[[flows]]\nname = \"{}\"\nroute = {}\ncc = \"reno\"\n\n", competitor(k + 1, j, s.competitors), routes[k]));
            path_links.push(vec![k]);
        }
    }
    (text, path_links)
}

/// The layout of `s`, checked by the quic backend and planned by pathpool-netlab.
pub fn layout(s: &Shape) -> Result<Layout, CliError> {
    let (text, path_links) = scenario(s);
    // The text is this file's own: a refusal is a fault here, not the user's.
    let loaded = pathpool_experiment::load_str("quic netns", &text, &[]).map_err(|e| CliError::runtime(format!("the quic netns network: {e}")))?;
    let flows = pathpool_quic::check_scenario(&loaded).map_err(|e| CliError::runtime(format!("the quic netns network: {e}")))?;
    let plan = plan::build(&loaded, flows);
    let names: &[&str] = if s.shared { &["bottleneck"] } else { &["b1", "b2"] };
    let bottlenecks = names.iter().map(|n| plan.links.iter().position(|l| l.name == *n).expect("the scenario names its bottlenecks")).collect();
    Ok(Layout { plan, bottlenecks, path_links })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(shared: bool, competitors: usize) -> Shape {
        Shape { shared, cc: QuicCc::Lia, rate_bps: 10_000_000, delay_ns: 10_000_000, buffer_bytes: 25_000, competitors }
    }

    /// The devices a flow's paths leave its sender by: the first hop's route of each path.
    fn first_devices(l: &Layout, flow: usize) -> Vec<String> {
        let f = &l.plan.flows[flow];
        let lines = &l.plan.ip_lines[f.sender];
        f.destinations
            .iter()
            .map(|d| {
                // "rule add from A/32 to B/32 table T pref 100", "route add default dev D table T".
                let rule = lines.iter().find(|x| x.starts_with(&format!("rule add from {}/32 to {d}/32 ", f.sources[0]))).expect("a rule per path");
                let table = rule.split_whitespace().nth(7).unwrap();
                let route = lines.iter().map(|x| x.split_whitespace().collect::<Vec<_>>()).find(|w| w[..2] == ["route", "add"] && w.get(6) == Some(&table)).expect("the rule's route");
                route[4].to_string()
            })
            .collect()
    }

    #[test]
    fn disjoint_paths_leave_by_their_own_bottleneck_and_competitors_by_their_links() {
        let l = layout(&shape(false, 1)).unwrap();
        let names: Vec<&str> = l.plan.flows.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["mpquic", "sp1", "sp2"]);
        let dev = |k: usize| l.plan.links[l.bottlenecks[k]].device.clone();
        assert_eq!(first_devices(&l, 0), [dev(0), dev(1)]);
        assert_eq!(first_devices(&l, 1), [dev(0)]);
        assert_eq!(first_devices(&l, 2), [dev(1)]);
        assert_eq!(l.path_links, [vec![0, 1], vec![0], vec![1]]);
        // Every flow from one node to one other: the command's two ends.
        assert!(l.plan.flows.iter().all(|f| l.plan.nodes[f.sender] == "c" && l.plan.nodes[f.receiver] == "s"));
        // The bottleneck's queue: the rate and the byte buffer, on the sender's side only.
        let b1 = &l.plan.links[l.bottlenecks[0]];
        let tc = l.plan.tc_lines[b1.from].join("\n");
        assert!(tc.contains(&format!("dev {} root handle 1: tbf rate 10000000bit burst 3000 limit 25000", b1.device)), "{tc}");
    }

    #[test]
    fn a_shared_link_carries_both_paths_to_two_destinations() {
        let l = layout(&shape(true, 2)).unwrap();
        let names: Vec<&str> = l.plan.flows.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["mpquic", "sp1_0", "sp1_1"]);
        let dev = l.plan.links[l.bottlenecks[0]].device.clone();
        assert_eq!(first_devices(&l, 0), [dev.clone(), dev]);
        assert_eq!(l.plan.flows[0].destinations.len(), 2, "the paths differ by destination");
        assert_eq!(l.plan.nodes.len(), 2);
    }
}
