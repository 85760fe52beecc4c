//! `pathpool bench sbd`: speed of the detectors' per-sample paths (median of several runs).

use crate::error::CliError;
use pathpool_trace::gen::rng::Rng;
use pathpool_sbd::{Rfc8382Detector, SbdParams, TrendLineDetector, TrendParams};
use std::hint::black_box;
use std::time::Instant;

#[derive(clap::Subcommand, Debug)]
pub enum BenchWhat {
    /// Shared bottleneck detection: RFC 8382 statistics (mptcp-sbd preset) and trend lines.
    Sbd(SbdBenchArgs),
}

#[derive(clap::Args, Debug)]
pub struct SbdBenchArgs {
    /// Repetitions per case; the median is reported.
    #[arg(long, default_value_t = 5)]
    pub reps: usize,
    /// Samples fed per repetition.
    #[arg(long, default_value_t = 10_000_000)]
    pub samples: usize,
}

/// Samples arrive every 10 µs in total (100 k/s, a saturated 1 Gb/s receiver), on flows drawn
/// at random, with delays of 20-60 ms.
const SPACING_NS: u64 = 10_000;

struct Workload {
    flow: Vec<u16>,
    delay_ns: Vec<i32>,
}

impl Workload {
    fn new(n_flows: usize, len: usize) -> Self {
        let mut rng = Rng::for_component(42, n_flows as u64);
        let flow = (0..len).map(|_| rng.int(0, n_flows as u64 - 1) as u16).collect();
        let delay_ns = (0..len).map(|_| rng.int(20_000_000, 60_000_000) as i32).collect();
        Workload { flow, delay_ns }
    }
}

pub fn run(what: BenchWhat) -> Result<(), CliError> {
    let BenchWhat::Sbd(a) = what;
    if a.reps == 0 || a.samples < 1000 {
        return Err(CliError::usage("--reps must be at least 1 and --samples at least 1000"));
    }
    let clock = if thread_cpu_ns().is_some() { "CPU time of the benchmark thread" } else { "wall clock" };
    println!(
        "shared bottleneck detection, {} samples per run, median of {} runs, per second of {clock}",
        a.samples, a.reps
    );
    println!("| flows | RFC 8382 statistics + grouping (mptcp-sbd) | the same + delay-correlation split | trend lines (TR) |");
    println!("|---|---|---|---|");
    let corr = SbdParams { corr_split: true, ..SbdParams::mptcp_sbd() };
    for n in [2usize, 5, 50] {
        let w = Workload::new(n, a.samples.min(2_000_000));
        let rfc = median((0..a.reps).map(|_| rate(a.samples, || rfc_pass(&w, n, a.samples, SbdParams::mptcp_sbd()))).collect());
        let split = median((0..a.reps).map(|_| rate(a.samples, || rfc_pass(&w, n, a.samples, corr.clone()))).collect());
        let tr = median((0..a.reps).map(|_| rate(a.samples, || tr_pass(&w, n, a.samples))).collect());
        println!("| {n} | {:.1} M samples/s | {:.1} M samples/s | {:.1} M samples/s |", rfc / 1e6, split / 1e6, tr / 1e6);
    }
    Ok(())
}

/// Samples per second of CPU time when the OS reports it (so other load on a shared machine
/// does not count), else per second of wall-clock time.
fn rate(samples: usize, f: impl FnOnce() -> u64) -> f64 {
    let (cpu0, start) = (thread_cpu_ns(), Instant::now());
    black_box(f());
    let secs = match (cpu0, thread_cpu_ns()) {
        (Some(a), Some(b)) if b > a => (b - a) as f64 / 1e9,
        _ => start.elapsed().as_secs_f64(),
    };
    samples as f64 / secs
}

/// Linux: time this thread has run on a CPU, ns (first field of /proc/thread-self/schedstat).
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The loop a receiver runs: poll for due intervals, then feed the sample.
fn rfc_pass(w: &Workload, n: usize, samples: usize, params: SbdParams) -> u64 {
    let mut det = Rfc8382Detector::new(params, n);
    let mut groups = 0u64;
    for i in 0..samples {
        let k = i % w.flow.len();
        let now = i as u64 * SPACING_NS;
        while let Some(o) = det.poll(now) {
            groups += o.groups[0] as u64;
        }
        det.on_owd_sample(w.flow[k] as usize, now, w.delay_ns[k] as i64);
    }
    groups + det.intervals_closed()
}

fn tr_pass(w: &Workload, n: usize, samples: usize) -> u64 {
    let mut det = TrendLineDetector::new(TrendParams::default(), n);
    let mut groups = 0u64;
    for i in 0..samples {
        let k = i % w.flow.len();
        let now = i as u64 * SPACING_NS;
        while let Some(o) = det.poll(now) {
            groups += o.groups[0] as u64;
        }
        det.on_rtt_sample(w.flow[k] as usize, now, w.delay_ns[k] as u64);
    }
    groups + det.evaluations()
}
