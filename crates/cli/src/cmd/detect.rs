//! `pathpool detect`: runs a shared-bottleneck detector over a packet trace (CSV) and writes
//! its observations, decisions and a summary.

use std::io::Write as _;
use super::trace_csv::{self, TraceRows};
use crate::error::CliError;
use crate::outdir::OutDir;
use pathpool_sbd::replay::{run_rfc8382, run_trend, Replay};
use pathpool_trace::events::{owd_events, rtt_events};
use pathpool_sbd::{FilterParams, Observation, SbdParams, TrendParams};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DetectorKind {
    /// RFC 8382 with its §2.2 parameters (needs the one-way-delay form).
    Rfc8382,
    /// MPTCP-SBD ([S0] Table I) with its decision filter (one-way-delay form).
    MptcpSbd,
    /// MPTCP-SBD with the delay-correlation split and the bottleneck-change detector
    /// (docs/sbd.md, "The pathpool preset"; one-way-delay form).
    Pathpool,
    /// Trend-line regression on RTT ([S2]; needs the round-trip form).
    Tr,
}

#[derive(clap::Args, Debug)]
pub struct DetectArgs {
    /// Trace CSV: `flow,send_time_us,recv_time_us[,lost]` or `flow,ack_time_us,rtt_us`.
    #[arg(long, required_unless_present = "files")]
    pub input: Option<PathBuf>,
    /// Packet captures instead of a trace CSV (docs/pcap.md).
    #[command(flatten)]
    pub pcap: super::detect_pcap::PcapArgs,
    #[arg(long, value_enum, default_value = "pathpool")]
    pub detector: DetectorKind,
    /// Override a parameter, NAME=VALUE (repeatable); run with a bad name to list them.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// The truth.json `tracegen` wrote for this trace: every decision and observation is
    /// scored against it (truth.csv, `truth` in summary.json, accuracies on stdout).
    #[arg(long, value_name = "FILE")]
    pub truth: Option<PathBuf>,
    /// Output folder (observations.csv, decisions.csv, summary.json).
    #[arg(long)]
    pub out: PathBuf,
}

pub(super) enum Config {
    Sbd(SbdParams, FilterParams),
    Tr(TrendParams),
}

impl Config {
    pub(super) fn build(kind: DetectorKind, overrides: &[String]) -> Result<Config, CliError> {
        let mut cfg = match kind {
            DetectorKind::Rfc8382 => Config::Sbd(SbdParams::rfc8382(), FilterParams::default()),
            DetectorKind::MptcpSbd => Config::Sbd(SbdParams::mptcp_sbd(), FilterParams::default()),
            DetectorKind::Pathpool => Config::Sbd(SbdParams::pathpool(), FilterParams::default()),
            DetectorKind::Tr => Config::Tr(TrendParams::default()),
        };
        for item in overrides {
            let Some((name, value)) = item.split_once('=') else {
                return Err(CliError::usage(format!("--param: expected NAME=VALUE, got '{item}'")));
            };
            let name = name.trim();
            let result = match &mut cfg {
                Config::Sbd(p, _) if SbdParams::NAMES.contains(&name) => p.set(name, value),
                Config::Sbd(_, f) if FilterParams::NAMES.contains(&name) => f.set(name, value),
                Config::Sbd(..) => Err(format!(
                    "unknown parameter '{name}'; valid: {}, {}",
                    SbdParams::NAMES.join(", "),
                    FilterParams::NAMES.join(", ")
                )),
                Config::Tr(p) => p.set(name, value),
            };
            result.map_err(|e| CliError::usage(format!("--param: {e}")))?;
        }
        if let Config::Sbd(p, f) = &cfg {
            p.validate().and_then(|_| f.validate()).map_err(|e| CliError::usage(format!("--param: {e}")))?;
        }
        Ok(cfg)
    }

    fn entries(&self) -> Vec<(&'static str, f64)> {
        match self {
            Config::Sbd(p, f) => p.entries().into_iter().chain(f.entries()).collect(),
            Config::Tr(p) => p.entries(),
        }
    }

    /// Time between evaluations, ns.
    pub(super) fn step_ns(&self) -> u64 {
        match self {
            Config::Sbd(p, _) => p.t_ns,
            Config::Tr(p) => p.period_ns,
        }
        .max(1)
    }

    /// Trace time needed before the first observation, ns.
    pub(super) fn warmup_ns(&self) -> u64 {
        match self {
            Config::Sbd(p, _) => p.min_intervals.max(1) as u64 * p.t_ns,
            Config::Tr(p) => p.period_ns,
        }
    }
}

pub fn run(args: DetectArgs) -> Result<(), CliError> {
    let Some(input) = args.input.clone().filter(|_| args.pcap.files.is_empty()) else {
        if args.truth.is_some() {
            return Err(CliError::usage("--truth: scores a trace CSV against the truth.json tracegen wrote beside it; captures have no truth file"));
        }
        return super::detect_pcap::run(&args);
    };
    let cfg = Config::build(args.detector, &args.params)?;
    let trace = trace_csv::read("--input", &input)?;
    let truth = args.truth.as_deref().map(|p| super::detect_truth::read(p, &trace.flows)).transpose()?;
    let n = trace.flows.len();
    let name = input.display();
    if matches!(cfg, Config::Sbd(..)) {
        pathpool_sbd::replay::check_flows(n).map_err(|e| CliError::usage(format!("--input '{name}': {e}")))?;
    }
    let (events, origin_us) = match (&trace.rows, &cfg) {
        (TraceRows::Owd(rows), Config::Sbd(..)) => owd_events(rows, n),
        (TraceRows::Rtt(rows), Config::Tr(_)) => rtt_events(rows),
        (TraceRows::Rtt(_), Config::Sbd(..)) => {
            return Err(CliError::usage(format!(
                "--input '{name}': this detector needs one-way delays ('{}'), the file has round-trip times",
                trace_csv::OWD_HEADER
            )))
        }
        (TraceRows::Owd(_), Config::Tr(_)) => {
            return Err(CliError::usage(format!(
                "--input '{name}': --detector tr needs round-trip times ('{}'), the file has one-way delays",
                trace_csv::RTT_HEADER
            )))
        }
    };
    let span_ns = events.last().map_or(0, |e| e.now_ns());
    // A wild timestamp would make the detector step through billions of empty intervals.
    const MAX_SPAN_NS: u64 = 30 * 86_400 * 1_000_000_000;
    if span_ns > MAX_SPAN_NS {
        return Err(CliError::usage(format!(
            "--input '{name}': the timestamps span {:.0} s; at most 30 days (2592000 s) are accepted: check for a malformed time",
            span_ns as f64 / 1e9
        )));
    }
    if span_ns / cfg.step_ns() > 50_000_000 {
        return Err(CliError::usage(format!(
            "--param: {:.0} s of trace in steps of {} ns would be {} evaluations; at most 50000000",
            span_ns as f64 / 1e9,
            cfg.step_ns(),
            span_ns / cfg.step_ns()
        )));
    }
    let replay = match &cfg {
        Config::Sbd(p, f) => run_rfc8382(&events, p.clone(), *f, n),
        Config::Tr(p) => run_trend(&events, *p, n),
    };
    if replay.observations.is_empty() {
        return Err(too_short(&format!("--input '{name}': the trace"), span_ns, &cfg));
    }

    let inputs: Vec<&std::path::Path> = std::iter::once(input.as_path()).chain(args.truth.as_deref()).collect();
    let out = OutDir::create_reading("--out", &args.out, &inputs)?;
    write_groups(&out.join("observations.csv"), &replay.observations, &trace.flows)?;
    write_groups(&out.join("decisions.csv"), &replay.decisions, &trace.flows)?;
    let mut summary = summary(&args, &cfg, &trace, &replay, origin_us, span_ns, events.len());
    if let (Some(truth), Some(file)) = (&truth, &args.truth) {
        summary["truth"] = super::detect_truth::report(out.path(), file, &replay.observations, &replay.decisions, truth)?;
    }
    std::fs::write(out.join("summary.json"), serde_json::to_string_pretty(&summary).expect("json") + "\n")
        .map_err(|e| CliError::runtime(format!("cannot write '{}': {e}", out.join("summary.json").display())))?;
    if replay.decisions.is_empty() {
        eprintln!(
            "pathpool: note: {} observations but no decision yet (the filter needs a full window)",
            replay.observations.len()
        );
    }
    let _ = writeln!(
        std::io::stdout().lock(),
        "{} flows, {} observations, {} decisions -> {}",
        n,
        replay.observations.len(),
        replay.decisions.len(),
        out.target().display()
    );
    out.finish()?;
    Ok(())
}

/// The input ends before the detector's first observation.
pub(super) fn too_short(what: &str, span_ns: u64, cfg: &Config) -> CliError {
    CliError::usage(format!(
        "{what} spans {:.3} s of usable samples, but the detector makes its first observation only after {:.3} s (warm-up); nothing to report",
        span_ns as f64 / 1e9,
        cfg.warmup_ns() as f64 / 1e9
    ))
}

fn write_groups(path: &Path, rows: &[Observation], flows: &[String]) -> Result<(), CliError> {
    let mut w = trace_csv::writer(path)?;
    trace_csv::write(&mut w, path, &["time_s", "flow", "group"])?;
    for o in rows {
        let t = format!("{:.6}", o.time_ns as f64 / 1e9);
        for (flow, g) in flows.iter().zip(&o.groups) {
            trace_csv::write(&mut w, path, &[&t, flow, &g.to_string()])?;
        }
    }
    trace_csv::flush(w, path)
}

fn summary(
    args: &DetectArgs,
    cfg: &Config,
    trace: &trace_csv::TraceFile,
    replay: &Replay,
    origin_us: i64,
    span_ns: u64,
    events: usize,
) -> Value {
    // Whole numbers (counts, flags) are written as integers.
    let number = |v: f64| {
        if v.fract() == 0.0 && v.abs() < 1e15 {
            json!(v as i64)
        } else {
            json!(v)
        }
    };
    let params: Map<String, Value> = cfg.entries().into_iter().map(|(k, v)| (k.to_string(), number(v))).collect();
    let detector = match args.detector {
        DetectorKind::Rfc8382 => "rfc8382",
        DetectorKind::MptcpSbd => "mptcp-sbd",
        DetectorKind::Pathpool => "pathpool",
        DetectorKind::Tr => "tr",
    };
    let mut samples = vec![0u64; trace.flows.len()];
    let mut lost = vec![0u64; trace.flows.len()];
    match &trace.rows {
        TraceRows::Owd(rows) => rows.iter().for_each(|r| if r.lost { lost[r.flow] += 1 } else { samples[r.flow] += 1 }),
        TraceRows::Rtt(rows) => rows.iter().for_each(|r| samples[r.flow] += 1),
    }
    let flows: Vec<Value> = trace
        .flows
        .iter()
        .enumerate()
        .map(|(i, f)| json!({ "flow": f, "samples": samples[i], "lost": lost[i] }))
        .collect();
    json!({
        "detector": detector,
        "input": args.input.as_ref().map(|p| p.display().to_string()),
        "params": params,
        "flows": flows,
        "flows_seen": trace.flows.len(),
        "events": events,
        "time_origin_us": origin_us,
        "span_s": span_ns as f64 / 1e9,
        "evaluations": replay.evaluations,
        "observations": replay.observations.len(),
        "decisions": replay.decisions.len(),
        "decisions_are_observations": matches!(args.detector, DetectorKind::Tr),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd::tracegen::{self, Bottleneck, TracegenArgs};

    fn detect(input: PathBuf, detector: DetectorKind, out: PathBuf) -> Result<(), CliError> {
        run(DetectArgs { input: Some(input), pcap: Default::default(), detector, params: vec![], truth: None, out })
    }

    #[test]
    fn rows_in_any_order_give_identical_output() {
        let dir = std::env::temp_dir().join(format!("pathpool-detect-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        tracegen::run(TracegenArgs {
            flows: 2,
            bottleneck: Bottleneck::Separate,
            duration: "30s".into(),
            rate: 200.0,
            seed: 3,
            noise_ms: 0.5,
            clock_offset_us: 5_000_000,
            clock_skew_ppm: 0.0,
            alike_queues: false,
            out: dir.join("trace"),
        })
        .unwrap();
        for (file, kind) in [("owd.csv", DetectorKind::MptcpSbd), ("owd.csv", DetectorKind::Pathpool), ("rtt.csv", DetectorKind::Tr)] {
            let text = std::fs::read_to_string(dir.join("trace").join(file)).unwrap();
            let mut lines: Vec<&str> = text.lines().collect();
            lines[1..].reverse();
            let reversed = dir.join(format!("reversed-{file}"));
            std::fs::write(&reversed, lines.join("\n") + "\n").unwrap();
            detect(dir.join("trace").join(file), kind, dir.join("a")).unwrap();
            detect(reversed, kind, dir.join("b")).unwrap();
            for out in ["observations.csv", "decisions.csv"] {
                let a = std::fs::read_to_string(dir.join("a").join(out)).unwrap();
                let b = std::fs::read_to_string(dir.join("b").join(out)).unwrap();
                assert!(a.starts_with("time_s,flow,group\n") && a.lines().count() > 10, "{file}: {out}");
                assert_eq!(a, b, "{file}: {out}");
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_too_short_trace_is_refused_without_output() {
        let dir = std::env::temp_dir().join(format!("pathpool-detect-short-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let input = dir.join("short.csv");
        std::fs::write(&input, "flow,send_time_us,recv_time_us\na,0,100\na,1000,1100\n").unwrap();
        let e = detect(input, DetectorKind::Rfc8382, dir.join("out")).unwrap_err().to_string();
        assert!(e.contains("warm-up") && e.contains("21.000 s"), "{e}");
        assert!(!dir.join("out").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
