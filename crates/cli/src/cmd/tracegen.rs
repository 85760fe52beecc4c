//! `pathpool tracegen`: writes a synthetic packet trace with a known answer (model:
//! docs/tracegen.md): `owd.csv` (receiver log), `rtt.csv` (sender log) and `truth.json`.

use std::io::Write as _;
use crate::error::CliError;
use crate::outdir::OutDir;
use pathpool_trace::csv::RowWriter;
use pathpool_trace::gen::{generate_into, RowSink, TraceConfig};
use pathpool_trace::{OwdRow, RttRow};
use std::fs::File;
use std::io::BufWriter;
use serde_json::json;
use std::path::PathBuf;

const MAX_CLOCK_OFFSET_US: u64 = 1_000_000_000_000_000;

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bottleneck {
    /// Every flow crosses one queue.
    Shared,
    /// Every flow crosses its own queue.
    Separate,
}

#[derive(clap::Args, Debug)]
pub struct TracegenArgs {
    /// Number of flows (1-64).
    #[arg(long, default_value_t = 2)]
    pub flows: usize,
    #[arg(long, value_enum, default_value_t = Bottleneck::Shared)]
    pub bottleneck: Bottleneck,
    /// Trace length, with a unit as in scenario files (e.g. 120s).
    #[arg(long, default_value = "120s", value_name = "TIME")]
    pub duration: String,
    /// Probe packets per flow per second (Poisson).
    #[arg(long, default_value_t = 500.0)]
    pub rate: f64,
    /// Master seed: the same seed and options give a byte-identical trace.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = crate::seed_arg::parse)]
    pub seed: u64,
    /// Mean per-packet path noise, ms (exponential; each path scales it by 0.5-1.5).
    #[arg(long, default_value_t = 0.5)]
    pub noise_ms: f64,
    /// Receiver clock offset, µs (-10^15 to 10^15).
    #[arg(long, default_value_t = 0, allow_hyphen_values = true)]
    pub clock_offset_us: i64,
    /// Receiver clock skew relative to the sender, parts per million.
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    pub clock_skew_ppm: f64,
    /// With separate bottlenecks: give every queue the first queue's shape (capacity, buffer,
    /// cross traffic); only their random dynamics differ.
    #[arg(long)]
    pub alike_queues: bool,
    /// Output folder: the receiver log (owd.csv), the sender log (rtt.csv) and the answer
    /// with what drew it (truth.json).
    #[arg(long)]
    pub out: PathBuf,
}

/// A trace file that cannot be written: worded as detect's outputs are.
fn cannot_write(path: &std::path::Path, e: impl std::fmt::Display) -> CliError {
    pathpool_detect::trace_csv::cannot_write(path, e).into()
}

pub fn run(a: TracegenArgs) -> Result<(), CliError> {
    if !(1..=64).contains(&a.flows) {
        return Err(CliError::usage(format!("--flows: expected 1 to 64, got {}", a.flows)));
    }
    let duration = crate::time_arg::parse("--duration", &a.duration)?.as_secs_f64();
    if !(duration > 0.0 && duration <= 3_600.0) {
        return Err(CliError::usage(format!("--duration: expected a time in (0, 3600s], got \"{}\"", a.duration)));
    }
    if !(a.rate > 0.0 && a.rate <= 100_000.0) {
        return Err(CliError::usage(format!("--rate: expected packets per second in (0, 100000], got {}", a.rate)));
    }
    if !(a.noise_ms >= 0.0 && a.noise_ms.is_finite()) {
        return Err(CliError::usage(format!("--noise-ms: expected a non-negative number, got {}", a.noise_ms)));
    }
    if !a.clock_skew_ppm.is_finite() || a.clock_skew_ppm.abs() > 100_000.0 {
        return Err(CliError::usage(format!("--clock-skew-ppm: expected -100000 to 100000, got {}", a.clock_skew_ppm)));
    }
    // Receive times are microseconds in an i64: an offset beyond this (about 31 years) could
    // wrap them around in the release build.
    if a.clock_offset_us.unsigned_abs() > MAX_CLOCK_OFFSET_US {
        return Err(CliError::usage(format!("--clock-offset-us: expected -{MAX_CLOCK_OFFSET_US} to {MAX_CLOCK_OFFSET_US} (about 31 years), got {}", a.clock_offset_us)));
    }
    if a.alike_queues && a.bottleneck == Bottleneck::Shared {
        return Err(CliError::usage("--alike-queues: applies to --bottleneck separate only (a shared bottleneck is one queue)"));
    }
    let rows = a.flows as f64 * a.rate * duration;
    if rows > 50e6 {
        return Err(CliError::usage(format!(
            "--flows × --rate × --duration: {rows:.0} packets; at most 50000000 (use fewer flows, a lower rate or a shorter trace)"
        )));
    }
    let cfg = TraceConfig {
        flows: a.flows,
        shared: a.bottleneck == Bottleneck::Shared,
        duration_s: duration,
        rate_pps: a.rate,
        seed: a.seed,
        noise_ms: a.noise_ms,
        clock_offset_us: a.clock_offset_us,
        clock_skew_ppm: a.clock_skew_ppm,
        alike_queues: a.alike_queues,
        ..TraceConfig::default()
    };
    let out = OutDir::create("--out", &a.out)?;
    let names: Vec<String> = (1..=a.flows).map(|i| format!("f{i}")).collect();
    // Rows go to the files as they are made: memory does not grow with the trace.
    let (owd_path, rtt_path) = (out.join("owd.csv"), out.join("rtt.csv"));
    let open = |p: &std::path::Path| File::create(p).map(BufWriter::new).map_err(|e| cannot_write(p, e));
    let mut files = Files {
        owd: RowWriter::new_owd(open(&owd_path)?, &names).map_err(|e| cannot_write(&owd_path, e))?,
        rtt: RowWriter::new_rtt(open(&rtt_path)?, &names).map_err(|e| cannot_write(&rtt_path, e))?,
        failed: None,
    };
    let trace = generate_into(&cfg, &mut files);
    if let Some((owd, e)) = files.failed.take() {
        return Err(cannot_write(if owd { &owd_path } else { &rtt_path }, e));
    }
    files.owd.flush().map_err(|e| cannot_write(&owd_path, e))?;
    files.rtt.flush().map_err(|e| cannot_write(&rtt_path, e))?;
    let (owd_rows, rtt_rows) = (files.owd.rows, files.rtt.rows);
    let expected: Vec<u32> = trace.flows.iter().map(|f| f.bottleneck as u32 + 1).collect();
    let flows: Vec<_> = trace
        .flows
        .iter()
        .enumerate()
        .map(|(i, f)| {
            json!({
                "flow": names[i],
                "group": expected[i],
                "bottleneck": f.bottleneck,
                "base_owd_ms": f.base_owd_ms,
                "base_reverse_ms": f.base_reverse_ms,
                "noise_ms": f.noise_ms,
            })
        })
        .collect();
    let queues: Vec<_> = trace
        .queues
        .iter()
        .enumerate()
        .map(|(i, q)| {
            json!({
                "queue": i,
                "capacity_mbps": q.spec.capacity_mbps,
                "buffer_ms": q.spec.buffer_ms,
                "tcp_flows": q.spec.tcp_flows,
                "udp_sources": q.spec.udp_sources,
                "mean_queue_delay_ms": q.mean_delay_ms,
                "loss_rate": q.loss_rate,
            })
        })
        .collect();
    let truth = json!({
        "bottleneck": if cfg.shared { "shared" } else { "separate" },
        "flows": flows,
        "queues": queues,
        "config": {
            "flows": cfg.flows, "duration_s": cfg.duration_s, "rate_pps": cfg.rate_pps, "seed": cfg.seed,
            "noise_ms": cfg.noise_ms, "clock_offset_us": cfg.clock_offset_us,
            "clock_skew_ppm": cfg.clock_skew_ppm, "settle_s": cfg.settle_s,
            "alike_queues": cfg.alike_queues,
        },
        "owd_rows": owd_rows,
        "rtt_rows": rtt_rows,
    });
    let path = out.join("truth.json");
    std::fs::write(&path, serde_json::to_string_pretty(&truth).expect("json") + "\n")
        .map_err(|e| CliError::runtime(format!("cannot write '{}': {e}", path.display())))?;
    let _ = writeln!(std::io::stdout().lock(), "{owd_rows} OWD rows, {rtt_rows} RTT rows -> {}", out.target().display());
    out.finish()?;
    Ok(())
}

/// The two trace files being written; the first write error stops further writes.
struct Files<'a> {
    owd: RowWriter<'a, BufWriter<File>, String>,
    rtt: RowWriter<'a, BufWriter<File>, String>,
    /// (in the OWD file, the error)
    failed: Option<(bool, std::io::Error)>,
}

impl RowSink for Files<'_> {
    fn owd(&mut self, row: OwdRow) {
        if self.failed.is_none() {
            if let Err(e) = self.owd.owd(&row) {
                self.failed = Some((true, e));
            }
        }
    }
    fn rtt(&mut self, row: RttRow) {
        if self.failed.is_none() {
            if let Err(e) = self.rtt.rtt(&row) {
                self.failed = Some((false, e));
            }
        }
    }
}
