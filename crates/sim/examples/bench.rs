//! The speed benchmarks of BENCHMARKS.md, built in code (no scenario file), for profiling.
//!
//! cargo run --release -p pathpool-sim --example bench -- b1 10 600
//!   scenario: b1 (100 Mb/s dumbbell), b2 (b1 + 1 Gb/s access links), s (1 Gb/s, N flows)
//!   then N flows and simulated seconds. NewReno without SACK, one ACK per segment, IW 10,
//!   min RTO 200 ms, 1500 B data, 40 B ACKs, drop-tail buffer of 1 BDP, base RTT 20 ms.

use std::time::Instant;

use pathpool_sim::time::{millis, secs};
use pathpool_sim::*;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: bench <b1|b2|s> <flows> <seconds>";
    let kind = args.first().map(String::as_str).unwrap_or("b1");
    let n: usize = args.get(1).map_or(Ok(10), |s| s.parse()).unwrap_or_else(|_| panic!("{usage}"));
    let seconds: u64 = args.get(2).map_or(Ok(600), |s| s.parse()).unwrap_or_else(|_| panic!("{usage}"));
    let rate: u64 = match kind {
        "b1" | "b2" => 100_000_000,
        "s" => 1_000_000_000,
        _ => panic!("{usage}"),
    };
    let rtt = millis(20);
    // One BDP, rounded up: 167 packets at 100 Mb/s, 1667 at 1 Gb/s.
    let bdp_packets = (rate as u128 * rtt as u128).div_ceil(PS_PER_SEC as u128 * 8 * 1500) as u32;

    let wall = Instant::now();
    let mut sim = Simulation::new(1);
    let bottleneck = sim.add_queue(QueueConfig::drop_tail(rate, Buffer::Packets(bdp_packets))).unwrap();
    let reverse = sim.add_queue(QueueConfig::drop_tail(rate, Buffer::Packets(10_000))).unwrap();
    let access = kind == "b2";
    // b2: 1 ms per access link, so the base RTT stays 20 ms.
    let core_delay = if access { rtt / 2 - millis(2) } else { rtt / 2 };
    let fwd_pipe = sim.add_pipe(core_delay);
    let rev_pipe = sim.add_pipe(core_delay);
    for _ in 0..n {
        let (fwd, rev) = if access {
            let link = |sim: &mut Simulation| {
                let q = sim.add_queue(QueueConfig::drop_tail(1_000_000_000, Buffer::Packets(10_000))).unwrap();
                (q, sim.add_pipe(millis(1)))
            };
            let (a1, p1) = link(&mut sim);
            let (a2, p2) = link(&mut sim);
            let (b1, r1) = link(&mut sim);
            let (b2, r2) = link(&mut sim);
            (vec![a1, p1, bottleneck, fwd_pipe, a2, p2], vec![b1, r1, reverse, rev_pipe, b2, r2])
        } else {
            (vec![bottleneck, fwd_pipe], vec![reverse, rev_pipe])
        };
        let mut cfg = TcpFlowConfig::new(fwd, rev);
        cfg.min_rto = millis(200);
        sim.add_tcp_flow(cfg).unwrap();
    }
    sim.run_until(secs(seconds), &mut |_| {});
    let elapsed = wall.elapsed().as_secs_f64();
    let q = sim.queue_stats(bottleneck);
    println!(
        "scenario={kind} flows={n} sim_seconds={seconds} bottleneck_packets={} utilisation={:.5} drops={} events={} \
         wall_seconds={elapsed:.3} packets_per_wall_second={:.0} events_per_wall_second={:.0} pool_high_water={}",
        q.departed_packets,
        q.utilisation,
        q.drops,
        sim.events_processed(),
        q.departed_packets as f64 / elapsed,
        sim.events_processed() as f64 / elapsed,
        sim.packet_pool_high_water(),
    );
}
