//! Every scenario file shipped with the project loads, and the benchmark files say what the
//! benchmark specification says.

use pathpool_scenario::schema::{Buffer, FlowKind, QueueSpec, Recovery, TcpTraffic};
use pathpool_scenario::{load, Loaded};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn scenario(rel: &str) -> Loaded {
    load(&root().join(rel), &[]).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_shipped_scenario_loads() {
    let mut n = 0;
    for dir in ["scenarios/examples", "scenarios/bench", "scenarios/validation", "scenarios/fidelity", "scenarios/sbd-eval", "scenarios/overlap"] {
        let mut files: Vec<_> = std::fs::read_dir(root().join(dir)).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        for f in files.iter().filter(|f| f.extension().is_some_and(|e| e == "toml")) {
            load(f, &[]).unwrap_or_else(|e| panic!("{e}"));
            n += 1;
        }
    }
    assert!(n >= 9, "only {n} scenario files found");
}

const PS_PER_MS: u64 = 1_000_000_000;

/// The per-flow settings benchmarks.md fixes for B1, B2 and S.
fn assert_bench_flows(l: &Loaded, n: usize, rtt_ms: u64, rate_bps: u64, buffer_packets: u64) {
    let s = &l.scenario;
    assert_eq!(s.simulation.duration, 600_000 * PS_PER_MS);
    assert_eq!(l.topology.flows.len(), n);
    let FlowKind::Tcp(t) = &s.flows[0].kind else { panic!("not TCP") };
    assert_eq!(t.cc, pathpool_cc::Algorithm::Reno);
    assert_eq!(t.recovery, Recovery::NewReno);
    assert!(!t.delayed_ack);
    assert_eq!(t.initial_window, 10.0);
    assert_eq!(t.min_rto, 200 * PS_PER_MS);
    assert_eq!((t.packet_size, t.ack_size), (1500, 40));
    assert_eq!(t.traffic, TcpTraffic::Bulk);
    let bn = &l.topology.links[l.topology.bottleneck.unwrap()];
    assert_eq!(bn.forward.rate_bps, rate_bps);
    assert_eq!(bn.forward.queue, QueueSpec::DropTail);
    assert_eq!(bn.forward.buffer.value, Buffer::Packets(buffer_packets));
    // 1 BDP, rounded to whole packets.
    assert_eq!(buffer_packets, ((rate_bps * rtt_ms) as f64 / 1000.0 / (1500.0 * 8.0)).round() as u64);
    for f in &l.topology.flows {
        let one_way: u64 = f.route.iter().map(|h| l.topology.links[h.link].forward.delay).sum();
        let back: u64 = f.reverse_route.iter().map(|h| l.topology.links[h.link].reverse.as_ref().unwrap().delay).sum();
        assert_eq!(one_way + back, rtt_ms * PS_PER_MS, "base RTT of {}", f.name);
    }
}

#[test]
fn benchmark_files_match_the_specification() {
    for n in [10, 100] {
        let b1 = scenario(&format!("scenarios/bench/b1-n{n}.toml"));
        assert_bench_flows(&b1, n, 20, 100_000_000, 167);
        assert!(b1.topology.flows.iter().all(|f| f.route.len() == 1));
        let b2 = scenario(&format!("scenarios/bench/b2-n{n}.toml"));
        assert_bench_flows(&b2, n, 20, 100_000_000, 167);
        let mut access: Vec<usize> = Vec::new();
        for f in &b2.topology.flows {
            assert_eq!(f.route.len(), 3, "three queue/link pairs each way");
            assert_eq!(f.reverse_route.len(), 3);
            for hop in [f.route[0], f.route[2]] {
                assert_eq!(b2.topology.links[hop.link].forward.rate_bps, 1_000_000_000);
                access.push(hop.link);
            }
        }
        access.sort();
        access.dedup();
        assert_eq!(access.len(), 2 * n, "every flow has its own access links");
    }
    let s = scenario("scenarios/bench/s-n1000.toml");
    assert_bench_flows(&s, 1000, 20, 1_000_000_000, 1667);
}
