//! Cost of one controller event per algorithm: a deterministic mix of ACKs with RTT samples
//! (each subflow: a loss every 300 of its events, a round end every 20) over `n` subflows,
//! every subflow coupled with all (the default coupling).
//!
//! cargo run --release -p pathpool-cc --example event_cost [-- <subflows> <events>]

use pathpool_cc::{AckInfo, Algorithm, CcConfig, Controller, Signal};
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let parse = |i: usize, default: usize, what: &str| match args.get(i) {
        None => default,
        Some(s) => s.parse().unwrap_or_else(|_| {
            eprintln!("error: argument {i} ({what}): expected a positive integer, got '{s}'");
            std::process::exit(2)
        }),
    };
    let n = parse(1, 4, "subflows").clamp(1, pathpool_cc::MAX_SUBFLOWS);
    let events = parse(2, 10_000_000, "events").max(1);
    println!("algorithm,subflows,events,ns_per_event,final_cwnd_sum");
    for algo in Algorithm::all() {
        let mut c = Controller::new(algo, CcConfig::default(), n);
        let start = Instant::now();
        for i in 0..events {
            let sf = i % n;
            let now = i as u64 * 10_000;
            let rtt = 20_000_000 + (sf as u64) * 15_000_000 + (i as u64 % 7) * 1_000_000;
            if (i / n) % 300 == 299 {
                c.on_congestion(sf, now, Signal::Loss, c.cwnd(sf));
                c.on_recovery_exit(sf, now);
            } else {
                let ack = AckInfo {
                    newly_acked: 1.0,
                    rtt_sample: Some(rtt),
                    cwnd_limited: true,
                };
                c.on_ack(sf, now, black_box(ack));
                if (i / n) % 20 == 19 {
                    c.on_round_end(sf, now);
                }
            }
        }
        let ns = start.elapsed().as_nanos() as f64 / events as f64;
        let sum: f64 = (0..n).map(|sf| c.cwnd(sf)).sum();
        println!("{algo},{n},{events},{ns:.1},{sum:.3}");
    }
}
