//! LIA (RFC 6356) over two paths driven by hand, with no transport: what a QUIC stack or a
//! kernel port does with this crate. Path 0 has a 20 ms RTT, path 1 a 60 ms RTT; both ACK a
//! window's worth per round, and path 1 loses a segment in round 6.
//!
//! cargo run --release -p pathpool-cc --example lia_two_paths

use pathpool_cc::{AckInfo, Connection, Lia, Nanos, Signal, WindowConfig};

const MS: Nanos = 1_000_000;

fn main() {
    // Start in congestion avoidance at 10 segments (no slow start), as after a first loss.
    let window = WindowConfig { initial_ssthresh: 10.0, ..WindowConfig::default() };
    let mut lia = Connection::new(Lia, window, 2);
    let rtt = [20 * MS, 60 * MS];
    let mut now: Nanos = 0;
    println!("round,cwnd0,cwnd1,alpha");
    for round in 1..=10 {
        for path in 0..2 {
            if path == 1 && round == 6 {
                // Fast retransmit: the transport reports the loss with its flight size, then
                // the full ACK that ends recovery one RTT later.
                let flight = lia.cwnd(1);
                lia.on_congestion(1, now, Signal::Loss, flight);
                lia.on_recovery_exit(1, now + rtt[1]);
                continue;
            }
            // One ACK per segment of the window, each with the RTT sample the transport took.
            let before = lia.cwnd(path);
            for _ in 0..before as usize {
                now += rtt[path] / 10;
                let ack = AckInfo { newly_acked: 1.0, rtt_sample: Some(rtt[path]), cwnd_limited: true };
                lia.on_ack(path, now, ack);
            }
            // RFC 6356 §3 ("do no harm"): no faster than one TCP flow, +1 segment per window.
            assert!(lia.cwnd(path) - before <= 1.0, "round {round} path {path}");
        }
        println!("{round},{:.3},{:.3},{:.4}", lia.cwnd(0), lia.cwnd(1), lia.alpha());
    }
    // The loss moved traffic to the path without loss (RFC 6356 §2 goal 3).
    assert!(lia.cwnd(1) < lia.cwnd(0) / 2.0);
}
