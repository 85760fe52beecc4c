//! Detection on a packet trace (CSV): runs a shared-bottleneck detector over it and writes
//! its observations, decisions and a summary.

use crate::args::{DetectArgs, DetectorKind};
use crate::config::Config;
use crate::console::Console;
use crate::error::Error;
use crate::trace_csv::{self, TraceRows};
use pathpool_sbd::replay::{run_rfc8382, run_trend, Replay};
use pathpool_sbd::Observation;
use pathpool_trace::events::{owd_events, rtt_events};
use serde_json::{json, Map, Value};
use std::path::Path;

/// Runs the detector on `input`, the trace CSV of `args`.
pub fn run(args: &DetectArgs, input: &Path, console: &mut dyn Console) -> Result<(), Error> {
    let cfg = Config::build(args.detector, &args.params)?;
    let trace = trace_csv::read("--input", input)?;
    let truth = args.truth.as_deref().map(|p| crate::truth::read(p, &trace.flows)).transpose()?;
    let n = trace.flows.len();
    let name = input.display();
    if matches!(cfg, Config::Sbd(..)) {
        pathpool_sbd::replay::check_flows(n).map_err(|e| Error::usage(format!("--input '{name}': {e}")))?;
    }
    let (events, origin_us) = match (&trace.rows, &cfg) {
        (TraceRows::Owd(rows), Config::Sbd(..)) => owd_events(rows, n),
        (TraceRows::Rtt(rows), Config::Tr(_)) => rtt_events(rows),
        (TraceRows::Rtt(_), Config::Sbd(..)) => {
            return Err(Error::usage(format!(
                "--input '{name}': this detector needs one-way delays ('{}'), the file has round-trip times",
                trace_csv::OWD_HEADER
            )))
        }
        (TraceRows::Owd(_), Config::Tr(_)) => {
            return Err(Error::usage(format!(
                "--input '{name}': --detector tr needs round-trip times ('{}'), the file has one-way delays",
                trace_csv::RTT_HEADER
            )))
        }
    };
    let span_ns = events.last().map_or(0, |e| e.now_ns());
    // A wild timestamp would make the detector step through billions of empty intervals.
    const MAX_SPAN_NS: u64 = 30 * 86_400 * 1_000_000_000;
    if span_ns > MAX_SPAN_NS {
        return Err(Error::usage(format!(
            "--input '{name}': the timestamps span {:.0} s; at most 30 days (2592000 s) are accepted: check for a malformed time",
            span_ns as f64 / 1e9
        )));
    }
    if span_ns / cfg.step_ns() > 50_000_000 {
        return Err(Error::usage(format!(
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
        return Err(cfg.too_short(&format!("--input '{name}': the trace"), span_ns));
    }

    let inputs: Vec<&Path> = std::iter::once(input).chain(args.truth.as_deref()).collect();
    let out = crate::out_folder(&args.out, &inputs)?;
    write_groups(&out.path().join("observations.csv"), &replay.observations, &trace.flows)?;
    write_groups(&out.path().join("decisions.csv"), &replay.decisions, &trace.flows)?;
    let mut summary = summary(args, &cfg, &trace, &replay, origin_us, span_ns, events.len());
    if let (Some(truth), Some(file)) = (&truth, &args.truth) {
        summary["truth"] = crate::truth::report(out.path(), file, &replay.observations, &replay.decisions, truth, console)?;
    }
    crate::write(&out.path().join("summary.json"), &(serde_json::to_string_pretty(&summary).expect("json") + "\n"))?;
    if replay.decisions.is_empty() {
        console.note(&format!("{} observations but no decision yet (the filter needs a full window)", replay.observations.len()));
    }
    console.say(&format!(
        "{} flows, {} observations, {} decisions -> {}\n",
        n,
        replay.observations.len(),
        replay.decisions.len(),
        out.target().display()
    ));
    out.finish().map_err(Error::runtime)?;
    Ok(())
}

fn write_groups(path: &Path, rows: &[Observation], flows: &[String]) -> Result<(), Error> {
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
        "detector": args.detector.name(),
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
