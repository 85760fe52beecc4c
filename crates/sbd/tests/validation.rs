//! Accuracy of the detectors on generated traces with a known answer (docs/validation.md).
//! The full table is `#[ignore]`d (run by `make validate`); the default suite runs one short
//! case per bottleneck kind.

use pathpool_sbd::replay::{accuracy, owd_events, rtt_events, run_rfc8382, run_trend};
use pathpool_sbd::tracegen::{generate, TraceConfig};
use pathpool_sbd::{FilterParams, SbdParams, TrendParams};

/// Decisions before N·T (full statistics) are not judged.
const WARMUP_NS: u64 = 50 * 350_000_000;

struct Score {
    sbd: (usize, usize),
    tr: (usize, usize),
}

fn score(cfg: &TraceConfig) -> Score {
    let trace = generate(cfg);
    let (ev, _) = owd_events(&trace.owd, cfg.flows);
    let r = run_rfc8382(&ev, SbdParams::mptcp_sbd(), FilterParams::default(), cfg.flows);
    let (ev, _) = rtt_events(&trace.rtt);
    let t = run_trend(&ev, TrendParams::default(), cfg.flows);
    Score { sbd: accuracy(&r.decisions, cfg.shared, WARMUP_NS), tr: accuracy(&t.decisions, cfg.shared, WARMUP_NS) }
}

fn pct((c, n): (usize, usize)) -> f64 {
    100.0 * c as f64 / n.max(1) as f64
}

#[test]
fn short_shared_and_non_shared_traces_are_told_apart() {
    for shared in [true, false] {
        let cfg = TraceConfig { flows: 3, shared, duration_s: 40.0, seed: 11, ..TraceConfig::default() };
        let s = score(&cfg);
        assert!(s.sbd.1 >= 5, "decisions after warm-up: {}", s.sbd.1);
        assert!(pct(s.sbd) >= 80.0, "shared={shared}: {:?}", s.sbd);
    }
}

#[test]
#[ignore]
fn accuracy_table() {
    let seeds = 1..=10u64;
    println!("| flows | bottleneck | traces | MPTCP-SBD decisions correct | TR decisions correct |");
    println!("|---|---|---|---|---|");
    let mut worst = [100.0f64, 100.0];
    for flows in 2..=5 {
        for shared in [true, false] {
            let (mut sbd, mut tr) = ((0, 0), (0, 0));
            for seed in seeds.clone() {
                let s = score(&TraceConfig { flows, shared, seed, ..TraceConfig::default() });
                sbd = (sbd.0 + s.sbd.0, sbd.1 + s.sbd.1);
                tr = (tr.0 + s.tr.0, tr.1 + s.tr.1);
            }
            let kind = if shared { "shared" } else { "non-shared" };
            println!(
                "| {flows} | {kind} | {} | {:.1} % ({}/{}) | {:.1} % ({}/{}) |",
                seeds.clone().count(),
                pct(sbd),
                sbd.0,
                sbd.1,
                pct(tr),
                tr.0,
                tr.1
            );
            let w = &mut worst[usize::from(!shared)];
            *w = w.min(pct(sbd));
        }
    }
    assert!(worst[0] >= 95.0, "shared accuracy below 95 %: {}", worst[0]);
    assert!(worst[1] >= 90.0, "non-shared accuracy below 90 %: {}", worst[1]);
}
