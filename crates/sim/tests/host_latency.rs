//! `add_host_latency` (docs/fidelity-notes.md, "Phase"): a receiving host's latency is one constant
//! per run, drawn from the seed and the host alone, and every ACK of that host carries it.

mod common;

use common::*;
use pathpool_sim::time::{micros, millis};
use pathpool_sim::*;

/// Smoothed RTT of one flow over a fast, idle path after 300 ms, with `latency` (max, host)
/// before the receiver's ACKs if given.
fn srtt(seed: u64, latency: Option<(Time, u64)>) -> Time {
    let mut sim = Simulation::new(seed);
    let q = sim.add_queue(QueueConfig::drop_tail(1_000 * MBPS, Buffer::Packets(1_000))).unwrap();
    let fwd = sim.add_pipe(millis(10));
    let back = sim.add_pipe(millis(10));
    let mut rev = vec![back];
    if let Some((max, host)) = latency {
        rev.insert(0, sim.add_host_latency(max, host));
    }
    let mut cfg = TcpFlowConfig::new(vec![q, fwd], rev);
    cfg.delayed_ack = None;
    let f = sim.add_tcp_flow(cfg).unwrap();
    sim.run_until(millis(300), &mut |_| {});
    sim.flow_stats(f).srtt.expect("RTT samples")
}

#[test]
fn a_hosts_latency_is_one_constant_per_run_added_to_every_rtt() {
    let max = micros(600);
    for seed in 1..=5 {
        let l = host_latency(seed, max, 3);
        assert!(l < max);
        // Every ACK waits l, so every RTT sample, and the smoothed RTT, is l longer.
        let shift = srtt(seed, Some((max, 3))) as i64 - srtt(seed, None) as i64;
        assert!((shift - l as i64).abs() < micros(1) as i64, "seed {seed}: srtt shifted by {shift} ps, latency {l} ps");
    }
    // The same host in the same run has one latency; other hosts and other seeds draw their own.
    assert_eq!(host_latency(7, max, 2), host_latency(7, max, 2));
    let draws: Vec<Time> = (1..=20).map(|seed| host_latency(seed, max, 2)).collect();
    assert!(draws.iter().any(|&l| l < max / 4) && draws.iter().any(|&l| l > 3 * max / 4), "{draws:?}");
    assert_ne!(host_latency(7, max, 2), host_latency(7, max, 3));
}
