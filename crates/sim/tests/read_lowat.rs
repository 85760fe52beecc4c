//! `read_lowat_segments` (scenario `receive_lowat`, Linux's SO_RCVLOWAT): the application
//! reads only once that many in-order segments wait, so Linux's read-time ACK of a lone
//! pushed segment goes unless that segment completes a read (docs/fidelity-notes.md, "Reads").

mod common;

use common::*;
use pathpool_sim::time::{millis, secs};
use pathpool_sim::*;

/// ACKs per delivered segment of one Reno flow (SACK) with Linux's hosts on a 20 Mb/s, 40 ms
/// path, its application reading at `lowat` segments (0: at once).
fn acks_per_segment(seed: u64, lowat: u32) -> f64 {
    let mut d = dumbbell(seed, 20 * MBPS, Discipline::DropTail, 67, &[millis(40)], |c, _| {
        c.recovery = Recovery::Sack;
        c.delayed_ack = Some(TcpFlowConfig::LINUX_DELAYED_ACK);
        c.linux_receiver = true;
        c.linux_send_buffer = true;
        c.read_lowat_segments = lowat;
    });
    run_measured(&mut d.sim, secs(5), secs(20));
    let s = d.sim.flow_stats(d.flows[0]);
    s.acks_sent as f64 / s.delivered_packets as f64
}

#[test]
fn reading_at_a_low_water_mark_takes_the_read_time_acks_away() {
    for seed in 1..=3 {
        let at_once = acks_per_segment(seed, 0);
        let lowat = acks_per_segment(seed, 23);
        // Every second segment is ACKed either way (RFC 5681 §4.2): at least half.
        assert!(lowat >= 0.5, "seed {seed}: {lowat}");
        // Read at once, the lone pushed segments that end an odd skb (Linux's three-segment
        // skbs) are ACKed at their read; at a 23-segment mark only one read in 23 can do it,
        // so most of those ACKs go.
        let read_time_acks = at_once - 0.5;
        assert!(read_time_acks > 0.02, "seed {seed}: {at_once}");
        assert!(lowat - 0.5 < read_time_acks * 0.7, "seed {seed}: {lowat} against {at_once}");
    }
}
