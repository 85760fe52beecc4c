//! Metrics of multipath runs (S0 §II, §IV-B/C; algorithms.md §10.1): throughput against the
//! competing TCP flows, and the accuracy of the shared-bottleneck detector against the
//! topology's ground truth.

use crate::schema::FlowKind;
use crate::topology::{Hop, Topology};
use crate::Loaded;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::Path;

#[derive(Clone, Debug, PartialEq)]
pub struct Connection {
    pub name: String,
    pub throughput_mbps: f64,
    pub subflow_mbps: Vec<f64>,
    /// Per subflow: mean throughput of the competing TCP flows on its bottleneck (None:
    /// no competitor there).
    pub competitor_mbps: Vec<Option<f64>>,
    /// Ground truth: subflows with equal ids share a bottleneck.
    pub truth: Vec<u32>,
    /// (time in s, group per subflow), measured window only.
    pub observations: Vec<(f64, Vec<u32>)>,
    pub decisions: Vec<(f64, Vec<u32>)>,
    /// The sender's own observations and decisions where it checks the receiver's
    /// (`sbd_verify`; docs/security.md), measured window only; empty otherwise.
    pub sender_observations: Vec<(f64, Vec<u32>)>,
    pub sender_decisions: Vec<(f64, Vec<u32>)>,
    /// The sender's check's delay comparison test over the measured window: pair-intervals
    /// with a verdict, and all pair-intervals (0, 0 without the check).
    pub sender_comparisons: (u64, u64),
    /// MPTCP-SBD in the simulator: the sender's coupling sets (bit j of subflow k's entry:
    /// coupled with subflow j), the one in force at the window's start and each change after.
    pub coupling: Records,
    /// The same against the receiver's own detector's decisions over the measured window
    /// (docs/security.md, "The coupling against the honest detector"): the share of the
    /// pair-time they coupled that the sender did not, and of the pair-time they kept apart
    /// that it coupled, and the share of the pair-time they coupled (None: no such time; the
    /// whole None where not audited).
    pub coupling_audit: Option<[Option<f64>; 3]>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Multipath {
    pub connections: Vec<Connection>,
    pub tcp_mbps: f64,
}

pub fn hop_rate(topo: &Topology, h: &Hop) -> u64 {
    let l = &topo.links[h.link];
    if h.reverse { l.reverse.as_ref().map_or(u64::MAX, |d| d.rate_bps) } else { l.forward.rate_bps }
}

/// The hops of `route` whose rate is the route's smallest: its bottleneck links.
pub fn bottleneck_hops(topo: &Topology, route: &[Hop]) -> Vec<Hop> {
    let min = route.iter().map(|h| hop_rate(topo, h)).min().unwrap_or(u64::MAX);
    route.iter().filter(|h| hop_rate(topo, h) == min).copied().collect()
}

/// Subflows share a bottleneck when one of their narrowest links is the same; groups are the
/// connected components, numbered 1, 2, ... by lowest subflow.
fn truth(bottlenecks: &[Vec<Hop>]) -> Vec<u32> {
    let n = bottlenecks.len();
    let mut group = vec![0u32; n];
    let mut next = 0;
    for i in 0..n {
        if group[i] == 0 {
            next += 1;
            group[i] = next;
            let mut stack = vec![i];
            while let Some(a) = stack.pop() {
                for b in 0..n {
                    if group[b] == 0 && bottlenecks[a].iter().any(|h| bottlenecks[b].contains(h)) {
                        group[b] = next;
                        stack.push(b);
                    }
                }
            }
        }
    }
    group
}

/// What was measured of one flow of the topology: its goodput and, for a multipath
/// connection, each subflow's throughput. Any backend (simulator, testbed) fills these.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Measured {
    pub throughput_mbps: f64,
    pub subflow_mbps: Vec<f64>,
}

/// A detector's groupings over time: (time in s, group per subflow).
pub type Records = Vec<(f64, Vec<u32>)>;

/// The multipath metrics from per-flow measurements (`measured[i]` is topology flow i);
/// `records(i)` gives connection i's detector observations and decisions (measured window).
pub fn assemble(l: &Loaded, measured: &[Measured], records: &dyn Fn(usize) -> (Records, Records)) -> Option<Multipath> {
    let topo = &l.topology;
    // Competing TCP flows: (route, throughput).
    let competitors: Vec<(&Vec<Hop>, f64)> = topo
        .flows
        .iter()
        .zip(measured)
        .filter(|(f, _)| matches!(&l.scenario.flows[f.template].kind, FlowKind::Tcp(t) if t.competitor))
        .map(|(f, m)| (&f.route, m.throughput_mbps))
        .collect();
    // A float sum of nothing is -0.0; a scenario without competitors reports 0.
    let tcp_mbps = competitors.iter().map(|c| c.1).sum::<f64>() + 0.0;
    let conns: Vec<Connection> = topo
        .flows
        .iter()
        .enumerate()
        .filter(|(_, f)| matches!(l.scenario.flows[f.template].kind, FlowKind::Mptcp(_)))
        .map(|(ti, f)| {
            let bn: Vec<Vec<Hop>> = f.subflows.iter().map(|(r, _)| bottleneck_hops(topo, r)).collect();
            let competitor_mbps = bn
                .iter()
                .map(|hops| {
                    let on: Vec<f64> = competitors.iter().filter(|c| c.0.iter().any(|h| hops.contains(h))).map(|c| c.1).collect();
                    (!on.is_empty()).then(|| on.iter().sum::<f64>() / on.len() as f64)
                })
                .collect();
            let (observations, decisions) = records(ti);
            Connection {
                name: f.name.clone(),
                throughput_mbps: measured[ti].throughput_mbps,
                subflow_mbps: measured[ti].subflow_mbps.clone(),
                competitor_mbps,
                truth: truth(&bn),
                observations,
                decisions,
                sender_observations: Vec::new(),
                sender_decisions: Vec::new(),
                sender_comparisons: (0, 0),
                coupling: Vec::new(),
                coupling_audit: None,
            }
        })
        .collect();
    (!conns.is_empty()).then_some(Multipath { connections: conns, tcp_mbps })
}

/// S0 §IV-B: correct when the grouping equals the truth (SB: all in one group; NSB: every
/// subflow in a group of its own). A non-congested subflow (0) is in no group, so it can
/// only be right where the truth has it alone.
pub fn correct(groups: &[u32], truth: &[u32]) -> bool {
    let n = groups.len();
    (0..n).all(|i| (0..n).all(|j| i == j || (groups[i] != 0 && groups[i] == groups[j]) == (truth[i] == truth[j])))
}

/// Two subflows found congested in different groups: the only grouping that lets the
/// sender's check (docs/security.md) run a pair apart.
pub fn split_congested(groups: &[u32]) -> bool {
    groups.iter().enumerate().any(|(i, &a)| a != 0 && groups[..i].iter().any(|&b| b != 0 && b != a))
}

/// Groups in a grouping, each non-congested subflow counting as one of its own.
pub fn group_count(groups: &[u32]) -> usize {
    let mut ids: Vec<u32> = groups.iter().copied().filter(|&g| g != 0).collect();
    ids.sort_unstable();
    ids.dedup();
    ids.len() + groups.iter().filter(|&&g| g == 0).count()
}

pub(crate) fn summary(m: &Multipath, put: &mut dyn FnMut(String, Value)) {
    let mptcp: f64 = m.connections.iter().map(|c| c.throughput_mbps).sum();
    put("mptcp_mbps".into(), json!(mptcp));
    put("tcp_mbps".into(), json!(m.tcp_mbps));
    if m.tcp_mbps > 0.0 {
        put("sum_ratio".into(), json!(mptcp / m.tcp_mbps));
    }
    let (mut obs, mut obs_ok, mut dec, mut dec_ok) = (0usize, 0usize, 0usize, 0usize);
    let mut counts: BTreeMap<usize, usize> = BTreeMap::new();
    for c in &m.connections {
        put(format!("mptcp.{}.throughput_mbps", c.name), json!(c.throughput_mbps));
        for (k, (&sf, comp)) in c.subflow_mbps.iter().zip(&c.competitor_mbps).enumerate() {
            put(format!("mptcp.{}.sf{k}.throughput_mbps", c.name), json!(sf));
            if let Some(t) = comp.filter(|&t| t > 0.0) {
                put(format!("mptcp.{}.sf{k}.ratio", c.name), json!(sf / t));
            }
        }
        obs += c.observations.len();
        obs_ok += c.observations.iter().filter(|o| correct(&o.1, &c.truth)).count();
        dec += c.decisions.len();
        dec_ok += c.decisions.iter().filter(|d| correct(&d.1, &c.truth)).count();
        for d in &c.decisions {
            *counts.entry(group_count(&d.1)).or_default() += 1;
        }
    }
    let own = |pick: fn(&Connection) -> &Records| {
        let all: Vec<&(f64, Vec<u32>)> = m.connections.iter().flat_map(|c| pick(c).iter()).collect();
        let ok = m.connections.iter().map(|c| pick(c).iter().filter(|d| correct(&d.1, &c.truth)).count()).sum::<usize>();
        (all.len(), ok)
    };
    let (sdec, sdec_ok) = own(|c| &c.sender_decisions);
    if sdec > 0 {
        // The check's own view (docs/security.md): its accuracy against the truth, and how
        // often it had positive evidence of a subflow on a bottleneck apart from another.
        put("sender_decisions".into(), json!(sdec));
        put("sender_decision_accuracy".into(), json!(sdec_ok as f64 / sdec as f64));
        let apart = m.connections.iter().flat_map(|c| c.sender_decisions.iter()).filter(|d| split_congested(&d.1)).count();
        put("sender_apart".into(), json!(apart as f64 / sdec as f64));
    }
    let (with_verdict, pairs) = m.connections.iter().fold((0, 0), |(v, n), c| (v + c.sender_comparisons.0, n + c.sender_comparisons.1));
    if pairs > 0 {
        // How often the check's own delay test had anything to say (check_blind.rs).
        put("sender_comparison_share".into(), json!(with_verdict as f64 / pairs as f64));
    }
    // The worst connection's: whether the sender coupled wherever the receiver's own
    // detector did (a liar gains only where it did not), what it coupled beyond, and how much
    // the detector coupled (the largest of each).
    let audits: Vec<[Option<f64>; 3]> = m.connections.iter().filter_map(|c| c.coupling_audit).collect();
    if !audits.is_empty() {
        let worst = |k: usize| audits.iter().filter_map(|a| a[k]).reduce(f64::max);
        put("coupling_missed".into(), json!(worst(0)));
        put("coupling_added".into(), json!(worst(1)));
        put("coupling_by_detector".into(), json!(worst(2)));
    }
    if obs > 0 {
        put("observations".into(), json!(obs));
        put("observation_accuracy".into(), json!(obs_ok as f64 / obs as f64));
    }
    if dec > 0 {
        put("decisions".into(), json!(dec));
        put("decision_accuracy".into(), json!(dec_ok as f64 / dec as f64));
        let n = m.connections.iter().map(|c| c.truth.len()).max().unwrap_or(0);
        for k in 1..=n {
            put(format!("groups_{k}"), json!(*counts.get(&k).unwrap_or(&0) as f64 / dec as f64));
        }
    }
}

/// observations.csv and decisions.csv (the receiver's detector; what it really found, whatever
/// `sbd_receiver` reports), and sender_observations.csv and sender_decisions.csv (the sender's
/// own check, `sbd_verify`): `time_s,connection,subflow,group,truth`. A file is
/// written only when some connection recorded a row for it: controllers without a detector
/// (OLIA, LIA, ...) would leave only a header, which reads like a detector that saw nothing.
pub(crate) fn write_csv(dir: &Path, m: &Multipath) -> io::Result<()> {
    let files: [(&str, fn(&Connection) -> &Records); 4] = [
        ("observations.csv", |c| &c.observations),
        ("decisions.csv", |c| &c.decisions),
        ("sender_observations.csv", |c| &c.sender_observations),
        ("sender_decisions.csv", |c| &c.sender_decisions),
    ];
    for (file, pick) in files {
        if m.connections.iter().all(|c| pick(c).is_empty()) {
            continue;
        }
        let mut w = io::BufWriter::new(std::fs::File::create(dir.join(file))?);
        writeln!(w, "time_s,connection,subflow,group,truth")?;
        for c in &m.connections {
            let rows = pick(c);
            for (t, groups) in rows {
                for (k, g) in groups.iter().enumerate() {
                    writeln!(w, "{t:.3},{},{k},{g},{}", c.name, c.truth[k])?;
                }
            }
        }
        w.flush()?;
    }
    if m.connections.iter().any(|c| !c.coupling.is_empty()) {
        let mut w = io::BufWriter::new(std::fs::File::create(dir.join("coupling.csv"))?);
        writeln!(w, "time_s,connection,subflow,coupled_with")?;
        for c in &m.connections {
            for (t, sets) in &c.coupling {
                for (k, set) in sets.iter().enumerate() {
                    let with: Vec<String> = (0..32).filter(|j| set & (1 << j) != 0).map(|j| j.to_string()).collect();
                    writeln!(w, "{t:.3},{},{k},{}", c.name, with.join(" "))?;
                }
            }
        }
        w.flush()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn correctness_follows_s0() {
        // SB truth: all together.
        assert!(correct(&[1, 1, 1], &[1, 1, 1]));
        assert!(!correct(&[1, 1, 2], &[1, 1, 1]));
        assert!(!correct(&[0, 0, 0], &[1, 1, 1]));
        // NSB truth: each alone; non-congested subflows are alone too.
        assert!(correct(&[1, 2, 0], &[1, 2, 3]));
        assert!(!correct(&[1, 1, 2], &[1, 2, 3]));
        assert_eq!(group_count(&[1, 1, 0, 2]), 3);
    }

    #[test]
    fn truth_joins_subflows_through_a_shared_narrowest_link() {
        let h = |l| Hop { link: l, reverse: false };
        assert_eq!(truth(&[vec![h(0)], vec![h(1)], vec![h(0)]]), vec![1, 2, 1]);
    }
}
