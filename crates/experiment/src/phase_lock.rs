//! The phase-lock warning: flows that nothing tells apart (the same congestion control, the
//! same bottleneck, about the same base RTT, active over the whole measurement) see the same
//! loss rate at their shared queue and so should hold about the same mean window
//! (throughput x base RTT; for equal RTTs, the same throughput). Where two of them differ by
//! more than `RATIO`, the run's answer depends on where their packets fell in the
//! bottleneck's departures (drop-tail phase effects, Floyd and Jacobson 1992), not on their
//! congestion control; hosts without timing noise (`simulation.hosts = "ideal"`) lock into
//! such phases. The warning names the flows and the remedies (docs/scenarios.md,
//! "Phase-lock warning").

use crate::mptcp_outcome::bottleneck_hops;
use crate::outcome::FlowOutcome;
use crate::schema::{FlowKind, TcpTraffic};
use crate::topology::{Hop, Topology};
use crate::Loaded;

/// Throughputs of look-alike flows further apart than this are reported.
pub const RATIO: f64 = 1.5;

/// Base RTTs within this factor of each other are compared (by mean window, which equal
/// loss rates make equal whatever the RTT under AIMD: w = sqrt(2/p)); further apart, RTT
/// unfairness beyond 1/RTT (Lakshman and Madhow 1997) could explain the difference.
const RTT_FACTOR: f64 = 1.25;

/// One flow or subflow that could be compared.
struct Unit {
    name: String,
    /// The congestion control its window follows: a TCP flow's, "reno"/"cubic" for the
    /// subflows of an uncoupled connection.
    cc: String,
    rtt_ps: u64,
    /// Its route's narrowest links.
    bottleneck: Vec<Hop>,
}

fn one_way(topo: &Topology, route: &[Hop]) -> u64 {
    route
        .iter()
        .map(|h| {
            let l = &topo.links[h.link];
            if h.reverse { l.reverse.as_ref().map_or(0, |d| d.delay) } else { l.forward.delay }
        })
        .sum()
}

fn units(l: &Loaded) -> Vec<Unit> {
    let s = &l.scenario.simulation;
    let topo = &l.topology;
    let whole_window = |start: u64, stop: Option<u64>| start <= s.warmup && stop.is_none_or(|t| t >= s.duration);
    let mut out = Vec::new();
    for flow in &topo.flows {
        if !whole_window(flow.start, flow.stop) {
            continue;
        }
        let unit = |name: String, cc: String, fwd: &[Hop], rev: &[Hop]| Unit { name, cc, rtt_ps: one_way(topo, fwd) + one_way(topo, rev), bottleneck: bottleneck_hops(topo, fwd) };
        match &l.scenario.flows[flow.template].kind {
            FlowKind::Tcp(t) if t.traffic == TcpTraffic::Bulk => {
                out.push(unit(flow.name.clone(), format!("{:?}", t.cc).to_lowercase(), &flow.route, &flow.reverse_route));
            }
            FlowKind::Mptcp(m) if m.tcp.traffic == TcpTraffic::Bulk => {
                // Coupled subflows are not compared: OLIA, BALIA and MPTCP-SBD (OLIA within
                // a group) move the window to the paths they rate best on purpose, the fully
                // coupled controller flaps between paths (S1 §3), and LIA's subflows, whose
                // increase is proportional to their own window, drift apart between losses:
                // on identical paths under the Linux hosts they differ by up to 3.15x over
                // 50 s (docs/scenarios.md, "Phase-lock warning").
                let cc = match m.cc.value.as_str() {
                    "uncoupled" => "reno".to_string(),
                    "uncoupled-cubic" => "cubic".to_string(),
                    _ => continue,
                };
                for (k, (fwd, rev)) in flow.subflows.iter().enumerate() {
                    out.push(unit(format!("{}.sf{k}", flow.name), cc.clone(), fwd, rev));
                }
            }
            _ => {}
        }
    }
    out
}

/// One of the narrowest links of one route is one of the other's (mptcp_outcome's truth).
fn shares_bottleneck(a: &[Hop], b: &[Hop]) -> bool {
    a.iter().any(|h| b.contains(h))
}

fn close_rtt(a: u64, b: u64) -> bool {
    a.max(b) as f64 <= RTT_FACTOR * a.min(b) as f64
}

/// One line per group of look-alike flows whose mean windows differ by more than `RATIO`:
/// the largest and the smallest, their throughputs and RTTs, and what to do.
pub fn warnings(l: &Loaded, flows: &[FlowOutcome]) -> Vec<String> {
    let mbps = |name: &str| flows.iter().find(|f| f.name == name).map(|f| f.throughput_mbps);
    let units = units(l);
    let mut done = vec![false; units.len()];
    let mut out = Vec::new();
    for i in 0..units.len() {
        if done[i] {
            continue;
        }
        let a = &units[i];
        let members: Vec<usize> = (i..units.len())
            .filter(|&j| !done[j] && units[j].cc == a.cc && shares_bottleneck(&units[j].bottleneck, &a.bottleneck) && close_rtt(units[j].rtt_ps, a.rtt_ps))
            .collect();
        for &j in &members {
            done[j] = true;
        }
        let group: Vec<&Unit> = members.iter().map(|&j| &units[j]).collect();
        // (unit, throughput, mean window in Mb/s x ms = kbit), by window.
        let mut measured: Vec<(&Unit, f64, f64)> = group.iter().filter_map(|u| Some((*u, mbps(&u.name)?, mbps(&u.name)? * u.rtt_ps as f64 / 1e9))).collect();
        measured.sort_by(|x, y| x.2.total_cmp(&y.2));
        // The mean window of the upper half against the lower half's: for two flows, the
        // larger over the smaller; for more, the spread between winners and losers that
        // phase lock makes, where the largest over the smallest of many flows grows with
        // their number by chance alone.
        let half = measured.len() / 2;
        if half == 0 {
            continue;
        }
        let mean = |xs: &[(&Unit, f64, f64)]| xs.iter().map(|x| x.2).sum::<f64>() / xs.len() as f64;
        let (lower, upper) = (mean(&measured[..half]), mean(&measured[measured.len() - half..]));
        if upper > RATIO * lower {
            let (lo, lo_mbps, _) = measured[0];
            let (hi, hi_mbps, _) = measured[measured.len() - 1];
            let ratio = if lower > 0.0 { format!("{:.2}x", upper / lower) } else { "all of it".to_string() };
            let ms = |u: &Unit| u.rtt_ps as f64 / 1e9;
            let what = match (measured.len(), hi.rtt_ps == lo.rtt_ps) {
                (2, true) => "throughput".to_string(),
                (2, false) => format!("mean window (throughput x base RTT: {:.2} and {:.2} ms)", ms(hi), ms(lo)),
                (n, _) => format!("mean window between the upper and the lower half of {n} such flows"),
            };
            out.push(format!(
                "phase lock: {} took {hi_mbps:.2} Mb/s and {} {lo_mbps:.2} Mb/s, {ratio} in {what}, though they run the same congestion control ({}) through the same bottleneck: \
                 their packets locked into the bottleneck's departures, so their shares in this run reflect where packets fell, not the congestion control. {}",
                hi.name,
                lo.name,
                a.cc,
                remedy(l)
            ));
        }
    }
    out
}

fn remedy(l: &Loaded) -> &'static str {
    match l.scenario.simulation.hosts {
        crate::host_model::HostModel::Ideal => {
            "Remedies: realistic hosts (simulation.hosts = \"linux-6.18\", the default), a host's send jitter (send_jitter = \"350us\"), or a RED bottleneck (docs/scenarios.md, \"Phase-lock warning\")."
        }
        crate::host_model::HostModel::Linux618 => {
            "Real Linux hosts show such phases too on drop-tail queues (docs/fidelity.md, reno-phase); average over seeds, or use a RED bottleneck (docs/scenarios.md, \"Phase-lock warning\")."
        }
    }
}
