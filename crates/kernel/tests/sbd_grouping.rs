//! The SBD daemon's grouping on RTT samples with a known answer (pathpool-trace's generator: one
//! shared bottleneck, or one per flow), fed as the BPF ring buffer delivers them: per
//! connection token and subflow id, two connections interleaved.

use pathpool_kernel::grouping::{ConnGroups, GroupDecision, Outcome};
use pathpool_trace::gen::{generate, TraceConfig};

/// Share of a connection's decisions that equal the expected grouping (after the first 20 s).
fn accuracy(decisions: &[GroupDecision], token: u32, shared: bool) -> (f64, usize) {
    let mine: Vec<&GroupDecision> = decisions.iter().filter(|d| d.token == token).collect();
    let right = mine
        .iter()
        .filter(|d| {
            let g: Vec<u32> = d.groups.iter().map(|x| x.1).collect();
            g.len() == 2 && g.iter().all(|&x| x != 0) && (g[0] == g[1]) == shared
        })
        .count();
    (right as f64 / mine.len().max(1) as f64, mine.len())
}

#[test]
fn the_daemon_groups_shared_rtts_together_and_disjoint_ones_apart_per_connection() {
    let trace = |shared: bool, seed: u64| {
        let t = generate(&TraceConfig { flows: 2, shared, duration_s: 90.0, rate_pps: 200.0, seed, alike_queues: true, ..TraceConfig::default() });
        t.rtt
    };
    // Two connections at once: token 1 shares one bottleneck, token 2 has one per subflow.
    let mut samples: Vec<(u64, u32, u32, u32)> = Vec::new();
    for (token, shared) in [(1u32, true), (2u32, false)] {
        for r in trace(shared, u64::from(token)) {
            samples.push((r.ack_us as u64 * 1000, token, 10 + r.flow as u32, r.rtt_us as u32));
        }
    }
    samples.sort();
    let mut g = ConnGroups::default();
    let mut outcomes = Vec::new();
    for (ts, token, sf, rtt) in samples {
        g.on_sample(token, sf, ts, rtt, &mut outcomes);
    }
    let not_yet = outcomes.iter().filter(|o| matches!(o, Outcome::NotYet { .. })).count();
    let out: Vec<GroupDecision> = outcomes.into_iter().filter_map(|o| if let Outcome::Decision(d) = o { Some(d) } else { None }).collect();
    let (shared_ok, n1) = accuracy(&out, 1, true);
    let (apart_ok, n2) = accuracy(&out, 2, false);
    println!("shared: {n1} decisions, {shared_ok:.2} together; disjoint: {n2} decisions, {apart_ok:.2} apart");
    assert!(n1 >= 10 && n2 >= 10, "decisions: {n1}, {n2}");
    // Issue 38's target for the daemon: right in 95 % of its decisions, and deciding (90 s of
    // traffic, one decision per 3.5 s: about 25 each), not abstaining.
    assert!(shared_ok >= 0.95, "shared bottleneck grouped together in {shared_ok:.2} of the decisions");
    assert!(apart_ok >= 0.95, "disjoint bottlenecks separated in {apart_ok:.2} of the decisions");
    assert!(n1 >= 20 && n2 >= 20 && not_yet <= 2, "decisions {n1} and {n2}, {not_yet} decision windows without evidence");
    assert!(out.iter().all(|d| d.groups.iter().all(|x| x.0 == 10 || x.0 == 11)), "subflow ids are kept");
    // Ended connections are forgotten.
    assert_eq!(g.forget(|t, _| t == 1), vec![1]);
    assert_eq!(g.len(), 1);
}
