//! MPTCP-SBD with pairwise sharing (`SbdPolicy::pairwise`): the receiver's pair relation on
//! overlapping paths, which no partition can express.

use pathpool_sim::time::{millis, secs};
use pathpool_sim::*;

const MBPS: u64 = 1_000_000;

fn queue(sim: &mut Simulation, rate: u64, buffer: u32) -> ElementId {
    let discipline = Discipline::RandomTailDrop(RandomTailParams { slots: 3, prob: 1.0 / 3.0 });
    sim.add_queue(QueueConfig { rate_bps: rate, buffer: Buffer::Packets(buffer), discipline }).unwrap()
}

/// A chain: subflow 0 crosses bottleneck A, subflow 2 bottleneck B, subflow 1 both; each
/// bottleneck also carries one TCP flow. True relation: 0~1, 1~2, and 0, 2 apart.
fn chain(seed: u64) -> (Simulation, MptcpId) {
    let mut sim = Simulation::new(seed);
    let (a, b) = (queue(&mut sim, 20 * MBPS, 40), queue(&mut sim, 30 * MBPS, 50));
    let pipe = |sim: &mut Simulation, ms| sim.add_pipe(millis(ms));
    let (pa, pb, p1) = (pipe(&mut sim, 10), pipe(&mut sim, 12), pipe(&mut sim, 8));
    let back: Vec<ElementId> = (0..5).map(|k| pipe(&mut sim, 10 + k)).collect();
    let route = |fwd: Vec<ElementId>, k: usize| SubflowRoute { fwd, rev: vec![back[k]] };
    let subflows = vec![route(vec![a, pa], 0), route(vec![a, b, p1], 1), route(vec![b, pb], 2)];
    for (q, p, k) in [(a, pa, 3), (b, pb, 4)] {
        sim.add_tcp_flow(TcpFlowConfig::new(vec![q, p], vec![back[k]])).unwrap();
    }
    // The `pathpool` detector (split and change test), the harder case for the relation: its
    // memory restarts shorten the correlation windows (the scheme's default is [S0]'s).
    let policy = SbdPolicy { pairwise: true, corr_min: Some(pathpool_sbd::CORR_MIN), change_detect: true, ..SbdPolicy::default() };
    let c = sim.add_mptcp_connection(MptcpConfig::new(subflows, MultipathCc::MptcpSbd(policy))).unwrap();
    (sim, c)
}

#[test]
fn the_pair_relation_of_a_chain_is_not_transitive() {
    let (mut right, mut all) = (0, 0);
    for seed in 1..=4 {
        let (mut sim, c) = chain(seed);
        sim.run_until(secs(45), &mut |_| {});
        for d in sim.mptcp_pair_decisions(c).iter().filter(|d| d.time >= secs(20)) {
            all += 1;
            right += (d.groups == [0b011, 0b111, 0b110]) as usize;
        }
        // Partitions stay as they were: a decision is recorded for every pair decision.
        assert_eq!(sim.mptcp_pair_decisions(c).len(), sim.mptcp_decisions(c).len());
    }
    assert!(all >= 10, "{all} decisions");
    let share = right as f64 / all as f64;
    assert!(share >= 0.8, "exactly right in {right} of {all}");
}
