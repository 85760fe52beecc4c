//! `--truth truth.json`: scores each decision and observation of the
//! detector against the grouping that `tracegen` wrote beside the trace (docs/tracegen.md).
//! A grouping is correct as [S0] counts it (`pathpool_scenario::mptcp_outcome::correct`):
//! flows share a group exactly when they share a bottleneck, a flow judged not bottlenecked
//! counting as alone.

use crate::console::Console;
use crate::error::Error;
use pathpool_sbd::Observation;
use serde_json::{json, Value};
use std::io::Write as _;
use std::path::Path;

/// The expected group of each trace flow (in the trace's flow order), from `truth.json`'s
/// `flows: [{"flow": "f1", "group": 1}, ...]`.
pub fn read(path: &Path, flows: &[String]) -> Result<Vec<u32>, Error> {
    let name = path.display();
    let text = pathpool_scenario::bounded_read::read_bounded(path, pathpool_scenario::bounded_read::TEXT_LIMIT)
        .map_err(|e| Error::usage(format!("--truth '{name}': cannot read: {e}")))?;
    let doc: Value = serde_json::from_str(&text).map_err(|e| Error::usage(format!("--truth '{name}': not JSON: {e}")))?;
    let expected = "expected \"flows\": [{\"flow\": ID, \"group\": N}, ...] as tracegen writes it";
    let entries = doc.get("flows").and_then(Value::as_array).ok_or_else(|| Error::usage(format!("--truth '{name}': no \"flows\" list; {expected}")))?;
    let mut truth = Vec::with_capacity(entries.len());
    for (i, e) in entries.iter().enumerate() {
        let flow = e.get("flow").and_then(Value::as_str);
        let group = e.get("group").and_then(Value::as_u64).and_then(|g| u32::try_from(g).ok()).filter(|&g| g > 0);
        match (flow, group) {
            (Some(f), Some(g)) => truth.push((f, g)),
            _ => return Err(Error::usage(format!("--truth '{name}': flows[{i}] has no flow id or no group of 1 or more; {expected}"))),
        }
    }
    flows
        .iter()
        .map(|f| {
            truth.iter().find(|(id, _)| id == f).map(|&(_, g)| g).ok_or_else(|| {
                let known: Vec<&str> = truth.iter().map(|t| t.0).collect();
                Error::usage(format!("--truth '{name}': flow '{f}' of the trace is not in it (it has {}): is it the truth of another trace?", known.join(", ")))
            })
        })
        .collect()
}

/// Whether each grouping is correct.
pub fn score(rows: &[Observation], truth: &[u32]) -> Vec<bool> {
    rows.iter().map(|o| pathpool_scenario::mptcp_outcome::correct(&o.groups, truth)).collect()
}

fn accuracy(correct: &[bool]) -> Option<f64> {
    (!correct.is_empty()).then(|| correct.iter().filter(|&&c| c).count() as f64 / correct.len() as f64)
}

/// Writes `truth.csv` (`time_s,kind,correct`: one row per observation and per decision),
/// prints the accuracies and returns them for summary.json.
pub fn report(out: &Path, truth_file: &Path, observations: &[Observation], decisions: &[Observation], truth: &[u32], console: &mut dyn Console) -> Result<Value, Error> {
    let (obs, dec) = (score(observations, truth), score(decisions, truth));
    let path = out.join("truth.csv");
    let fail = |e: std::io::Error| Error::runtime(format!("cannot write '{}': {e}", path.display()));
    let mut w = std::io::BufWriter::new(std::fs::File::create(&path).map_err(fail)?);
    writeln!(w, "time_s,kind,correct").map_err(fail)?;
    for (kind, rows, marks) in [("observation", observations, &obs), ("decision", decisions, &dec)] {
        for (o, &c) in rows.iter().zip(marks) {
            writeln!(w, "{:.6},{kind},{}", o.time_ns as f64 / 1e9, u8::from(c)).map_err(fail)?;
        }
    }
    w.flush().map_err(fail)?;
    let show = |a: Option<f64>, marks: &[bool]| match a {
        Some(a) => format!("{a:.3} ({} of {})", marks.iter().filter(|&&c| c).count(), marks.len()),
        None => "none to score".to_string(),
    };
    console.say(&format!(
        "against {}: decision accuracy {}, observation accuracy {}\n",
        truth_file.display(),
        show(accuracy(&dec), &dec),
        show(accuracy(&obs), &obs)
    ));
    Ok(json!({
        "file": truth_file.display().to_string(),
        "groups": truth,
        "decision_accuracy": accuracy(&dec),
        "decisions_scored": dec.len(),
        "observation_accuracy": accuracy(&obs),
        "observations_scored": obs.len(),
    }))
}
