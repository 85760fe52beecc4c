//! Accuracy of the detectors on generated traces with a known answer (docs/validation.md).
//! The tables are `#[ignore]`d (run by `make validate`):
//! `cargo test --release -p pathpool-sbd --test validation -- --ignored --nocapture`.
//! The default suite runs two short cases.

use pathpool_sbd::replay::{accuracy, run_rfc8382, run_trend};
use pathpool_trace::events::{owd_events, rtt_events};
use pathpool_trace::gen::{generate, Trace, TraceConfig};
use pathpool_sbd::{FilterParams, MergeRule, SbdParams, TrendParams};

/// Decisions before N·T = 17.5 s (statistics over a full buffer) are not judged.
const WARMUP_NS: u64 = 50 * 350_000_000;
const SEEDS: std::ops::RangeInclusive<u64> = 1..=10;

#[derive(Clone, Copy, Default)]
struct Tally(usize, usize);

impl Tally {
    fn add(&mut self, (c, n): (usize, usize)) {
        self.0 += c;
        self.1 += n;
    }
    fn pct(self) -> f64 {
        100.0 * self.0 as f64 / self.1.max(1) as f64
    }
    fn cell(self) -> String {
        format!("{:.1} % ({}/{})", self.pct(), self.0, self.1)
    }
}

fn sbd(trace: &Trace, cfg: &TraceConfig, p: SbdParams, f: FilterParams) -> ((usize, usize), (usize, usize)) {
    let (ev, _) = owd_events(&trace.owd, cfg.flows);
    let r = run_rfc8382(&ev, p, f, cfg.flows);
    (accuracy(&r.decisions, cfg.shared, WARMUP_NS), accuracy(&r.observations, cfg.shared, WARMUP_NS))
}

fn tr(trace: &Trace, cfg: &TraceConfig) -> (usize, usize) {
    let (ev, _) = rtt_events(&trace.rtt);
    accuracy(&run_trend(&ev, TrendParams::default(), cfg.flows).decisions, cfg.shared, WARMUP_NS)
}

#[test]
fn short_shared_and_separate_traces_are_told_apart() {
    for shared in [true, false] {
        let cfg = TraceConfig { flows: 2, shared, duration_s: 60.0, seed: 1, ..TraceConfig::default() };
        let (d, _) = sbd(&generate(&cfg), &cfg, SbdParams::mptcp_sbd(), FilterParams::default());
        assert!(d.1 >= 10, "decisions after warm-up: {}", d.1);
        assert!(d.0 * 10 >= d.1 * 8, "shared={shared}: {d:?}");
    }
}

#[test]
fn correlation_split_separates_alike_queues_and_keeps_a_shared_one() {
    // Alike separate queues are RFC 8382's blind spot (their statistics coincide); the split
    // tells them apart by their delays not moving together, and leaves one queue's flows be.
    let corr = SbdParams { corr_split: true, ..SbdParams::mptcp_sbd() };
    let (mut plain, mut split, mut shared) = (Tally::default(), Tally::default(), Tally::default());
    for seed in 1..=3 {
        let alike = TraceConfig { flows: 3, shared: false, alike_queues: true, duration_s: 60.0, seed, ..TraceConfig::default() };
        let trace = generate(&alike);
        plain.add(sbd(&trace, &alike, SbdParams::mptcp_sbd(), FilterParams::default()).0);
        split.add(sbd(&trace, &alike, corr.clone(), FilterParams::default()).0);
        let one = TraceConfig { shared: true, alike_queues: false, ..alike };
        shared.add(sbd(&generate(&one), &one, corr.clone(), FilterParams::default()).0);
    }
    eprintln!("alike separate: mptcp-sbd {}, + corr split {}; shared + corr split {}", plain.cell(), split.cell(), shared.cell());
    assert!(split.pct() >= 80.0 && split.pct() >= plain.pct() + 30.0, "alike separate: {} vs {}", split.cell(), plain.cell());
    assert!(shared.pct() >= 90.0, "shared with the split: {}", shared.cell());
}

#[test]
#[ignore]
fn accuracy_table() {
    let star = FilterParams { merge: MergeRule::Star, ..FilterParams::default() };
    println!("| flows | bottleneck | mptcp-sbd decisions | mptcp-sbd observations | mptcp-sbd, star merge | rfc8382 decisions | TR decisions |");
    println!("|---|---|---|---|---|---|---|");
    let mut sb_worst = 100.0f64;
    let mut nsb = Vec::new();
    for flows in 2..=5 {
        for shared in [true, false] {
            let mut t = [Tally::default(); 5];
            for seed in SEEDS {
                let cfg = TraceConfig { flows, shared, seed, ..TraceConfig::default() };
                let trace = generate(&cfg);
                let (d, o) = sbd(&trace, &cfg, SbdParams::mptcp_sbd(), FilterParams::default());
                t[0].add(d);
                t[1].add(o);
                t[2].add(sbd(&trace, &cfg, SbdParams::mptcp_sbd(), star).0);
                t[3].add(sbd(&trace, &cfg, SbdParams::rfc8382(), FilterParams::default()).0);
                t[4].add(tr(&trace, &cfg));
            }
            let kind = if shared { "shared" } else { "separate" };
            let cells: Vec<String> = t.iter().map(|x| x.cell()).collect();
            println!("| {flows} | {kind} | {} |", cells.join(" | "));
            if shared {
                sb_worst = sb_worst.min(t[0].pct());
            } else {
                nsb.push(t[0].pct());
            }
        }
    }
    // What the documentation claims (docs/validation.md): shared >= 95 % for 2-5 flows;
    // separate >= 90 % for 2 flows, falling with more flows (more pairs that can look alike).
    assert!(sb_worst >= 95.0, "shared accuracy {sb_worst}");
    assert!(nsb[0] >= 90.0, "2 separate flows: {}", nsb[0]);
    assert!(nsb.iter().all(|&x| x >= 55.0), "separate: {nsb:?}");
}

#[test]
#[ignore]
fn clock_skew_table() {
    let flows = 3;
    println!("| receiver clock skew | bottleneck | mptcp-sbd | mptcp-sbd + skew removal |");
    println!("|---|---|---|---|");
    let mut worst_gain = f64::INFINITY;
    for ppm in [0.0, 100.0, -100.0, -300.0, -1000.0, 1000.0] {
        for shared in [true, false] {
            let mut t = [Tally::default(); 2];
            for seed in SEEDS {
                let cfg = TraceConfig { flows, shared, seed, clock_skew_ppm: ppm, ..TraceConfig::default() };
                let trace = generate(&cfg);
                t[0].add(sbd(&trace, &cfg, SbdParams::mptcp_sbd(), FilterParams::default()).0);
                let removal = SbdParams { skew_removal: true, ..SbdParams::mptcp_sbd() };
                t[1].add(sbd(&trace, &cfg, removal, FilterParams::default()).0);
            }
            let kind = if shared { "shared" } else { "separate" };
            println!("| {ppm:+} ppm | {kind} | {} | {} |", t[0].cell(), t[1].cell());
            if ppm == -1000.0 {
                worst_gain = worst_gain.min(t[1].pct() - t[0].pct());
            }
        }
    }
    assert!(worst_gain >= 30.0, "skew removal should rescue the -1000 ppm traces: gain {worst_gain}");
}

#[test]
#[ignore]
fn trend_line_noise_table() {
    println!("| flows | bottleneck | TR, path noise 0 | TR, 0.05 ms | TR, 0.5 ms (default) |");
    println!("|---|---|---|---|---|");
    let mut clean = Vec::new();
    for flows in [2, 3] {
        for shared in [true, false] {
            let mut t = [Tally::default(); 3];
            for (i, noise_ms) in [0.0, 0.05, 0.5].into_iter().enumerate() {
                for seed in SEEDS {
                    let cfg = TraceConfig { flows, shared, seed, noise_ms, ..TraceConfig::default() };
                    t[i].add(tr(&generate(&cfg), &cfg));
                }
            }
            let kind = if shared { "shared" } else { "separate" };
            let cells: Vec<String> = t.iter().map(|x| x.cell()).collect();
            println!("| {flows} | {kind} | {} |", cells.join(" | "));
            if shared {
                clean.push(t[0].pct());
            }
        }
    }
    // Without per-packet noise the rising runs are the queue-building phases S2 relies on, and
    // flows through one queue get one slope.
    assert!(clean.iter().all(|&x| x >= 85.0), "noise-free shared TR accuracy: {clean:?}");
}

/// The delay-correlation split (an extension, off in both presets; `corr_split`): accuracy of
/// `mptcp-sbd` decisions with it, at the default `corr_min` and either side, on the queue
/// model's own shapes and on alike queues (every separate queue shaped like the first).
#[test]
#[ignore]
fn correlation_split_table() {
    let with = |corr_min: f64| SbdParams { corr_split: true, corr_min, ..SbdParams::mptcp_sbd() };
    println!("| flows | bottleneck | queues | mptcp-sbd | + corr split, corr_min 0.3 | 0.5 (default) | 0.7 |");
    println!("|---|---|---|---|---|---|---|");
    let mut worst = [100.0f64; 2];
    for flows in 2..=5 {
        for (shared, alike) in [(true, false), (false, false), (false, true)] {
            let mut t = [Tally::default(); 4];
            for seed in SEEDS {
                let cfg = TraceConfig { flows, shared, seed, alike_queues: alike, ..TraceConfig::default() };
                let trace = generate(&cfg);
                t[0].add(sbd(&trace, &cfg, SbdParams::mptcp_sbd(), FilterParams::default()).0);
                for (i, c) in [0.3, pathpool_sbd::CORR_MIN, 0.7].into_iter().enumerate() {
                    t[i + 1].add(sbd(&trace, &cfg, with(c), FilterParams::default()).0);
                }
            }
            let kind = if shared { "shared" } else { "separate" };
            let queues = if shared { "one" } else if alike { "alike" } else { "own shapes" };
            let cells: Vec<String> = t.iter().map(|x| x.cell()).collect();
            println!("| {flows} | {kind} | {queues} | {} |", cells.join(" | "));
            if !alike {
                let w = &mut worst[!shared as usize];
                *w = w.min(t[2].pct());
            }
        }
    }
    // docs/validation.md: with the split at its default, shared stays >= 95 % and separate
    // queues of the model's own shapes reach >= 90 % for 2-5 flows.
    println!("worst with the default corr_min: shared {:.1} %, separate (own shapes) {:.1} %", worst[0], worst[1]);
    assert!(worst[0] >= 95.0 && worst[1] >= 90.0, "{worst:?}");
}
