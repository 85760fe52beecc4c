//! `pathpool detect --truth truth.json`: scores each decision and observation of the
//! detector against the grouping that `tracegen` wrote beside the trace (docs/tracegen.md).
//! A grouping is correct as [S0] counts it (`pathpool_scenario::mptcp_outcome::correct`):
//! flows share a group exactly when they share a bottleneck, a flow judged not bottlenecked
//! counting as alone.

use crate::error::CliError;
use pathpool_sbd::Observation;
use serde_json::{json, Value};
use std::io::Write as _;
use std::path::Path;

/// The expected group of each trace flow (in the trace's flow order), from `truth.json`'s
/// `flows: [{"flow": "f1", "group": 1}, ...]`.
pub fn read(path: &Path, flows: &[String]) -> Result<Vec<u32>, CliError> {
    let name = path.display();
    let text = pathpool_scenario::bounded_read::read_bounded(path, pathpool_scenario::bounded_read::TEXT_LIMIT)
        .map_err(|e| CliError::usage(format!("--truth '{name}': cannot read: {e}")))?;
    let doc: Value = serde_json::from_str(&text).map_err(|e| CliError::usage(format!("--truth '{name}': not JSON: {e}")))?;
    let expected = "expected \"flows\": [{\"flow\": ID, \"group\": N}, ...] as tracegen writes it";
    let entries = doc.get("flows").and_then(Value::as_array).ok_or_else(|| CliError::usage(format!("--truth '{name}': no \"flows\" list; {expected}")))?;
    let mut truth = Vec::with_capacity(entries.len());
    for (i, e) in entries.iter().enumerate() {
        let flow = e.get("flow").and_then(Value::as_str);
        let group = e.get("group").and_then(Value::as_u64).and_then(|g| u32::try_from(g).ok()).filter(|&g| g > 0);
        match (flow, group) {
            (Some(f), Some(g)) => truth.push((f, g)),
            _ => return Err(CliError::usage(format!("--truth '{name}': flows[{i}] has no flow id or no group of 1 or more; {expected}"))),
        }
    }
    flows
        .iter()
        .map(|f| {
            truth.iter().find(|(id, _)| id == f).map(|&(_, g)| g).ok_or_else(|| {
                let known: Vec<&str> = truth.iter().map(|t| t.0).collect();
                CliError::usage(format!("--truth '{name}': flow '{f}' of the trace is not in it (it has {}): is it the truth of another trace?", known.join(", ")))
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
pub fn report(out: &Path, truth_file: &Path, observations: &[Observation], decisions: &[Observation], truth: &[u32]) -> Result<Value, CliError> {
    let (obs, dec) = (score(observations, truth), score(decisions, truth));
    let path = out.join("truth.csv");
    let fail = |e: std::io::Error| CliError::runtime(format!("cannot write '{}': {e}", path.display()));
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
    let _ = writeln!(
        std::io::stdout().lock(),
        "against {}: decision accuracy {}, observation accuracy {}",
        truth_file.display(),
        show(accuracy(&dec), &dec),
        show(accuracy(&obs), &obs)
    );
    Ok(json!({
        "file": truth_file.display().to_string(),
        "groups": truth,
        "decision_accuracy": accuracy(&dec),
        "decisions_scored": dec.len(),
        "observation_accuracy": accuracy(&obs),
        "observations_scored": obs.len(),
    }))
}

#[cfg(test)]
mod tests {
    use crate::cmd::detect::{run, DetectArgs, DetectorKind};
    use crate::cmd::tracegen::{self, Bottleneck, TracegenArgs};
    use serde_json::Value;
    use std::path::{Path, PathBuf};

    fn trace(dir: &Path, flows: usize, bottleneck: Bottleneck) -> PathBuf {
        let out = dir.join(format!("{flows}-{bottleneck:?}"));
        let args = TracegenArgs { flows, bottleneck, duration: "60s".into(), rate: 200.0, seed: 1, noise_ms: 0.5, clock_offset_us: 0, clock_skew_ppm: 0.0, alike_queues: false, out: out.clone() };
        tracegen::run(args).unwrap();
        out
    }

    fn detect(input: PathBuf, truth: PathBuf, out: PathBuf) -> Result<Value, String> {
        // What is tested is the scoring. The change test's discord rule false-alarms on
        // tracegen's shared queue (docs/sbd.md, "The `pathpool` preset": 2 of 18 decisions of
        // this trace), so the default preset runs here without it.
        let params = vec!["change_discord=0".to_string()];
        run(DetectArgs { input: Some(input), pcap: Default::default(), detector: DetectorKind::Pathpool, params, truth: Some(truth), out: out.clone() }).map_err(|e| e.to_string())?;
        Ok(serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap())
    }

    /// tracegen's shared and separate traces scored against their own truth and against the
    /// other's: the score tells a right grouping from a wrong one, per interval and in all.
    #[test]
    fn decisions_are_scored_against_tracegen_truth() {
        let dir = std::env::temp_dir().join(format!("pathpool-detect-truth-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (shared, separate) = (trace(&dir, 3, Bottleneck::Shared), trace(&dir, 3, Bottleneck::Separate));
        for (t, own) in [(&shared, true), (&separate, true), (&shared, false)] {
            let truth = if own { t.join("truth.json") } else { separate.join("truth.json") };
            let out = dir.join(format!("out-{}-{own}", t.file_name().unwrap().to_string_lossy()));
            let s = detect(t.join("owd.csv"), truth, out.clone()).unwrap();
            let (acc, n) = (s["truth"]["decision_accuracy"].as_f64().unwrap(), s["truth"]["decisions_scored"].as_u64().unwrap());
            assert_eq!(n, s["decisions"].as_u64().unwrap());
            if own {
                assert!(acc >= 0.9, "{t:?} against its own truth: {acc}");
            } else {
                assert!(acc <= 0.1, "a shared trace against a separate truth: {acc}");
            }
            // One row per observation and per decision, each 0 or 1, agreeing with the total.
            let csv = std::fs::read_to_string(out.join("truth.csv")).unwrap();
            let rows: Vec<&str> = csv.lines().skip(1).collect();
            assert_eq!(rows.len() as u64, n + s["observations"].as_u64().unwrap());
            let right = rows.iter().filter(|r| r.ends_with(",decision,1")).count();
            assert!((right as f64 / n as f64 - acc).abs() < 1e-12);
        }
        // A truth that does not name the trace's flows is refused before anything is written.
        let two = trace(&dir, 2, Bottleneck::Shared);
        let e = detect(shared.join("owd.csv"), two.join("truth.json"), dir.join("refused")).unwrap_err();
        assert!(e.contains("--truth") && e.contains("flow 'f3'") && e.contains("f1, f2"), "{e}");
        assert!(!dir.join("refused").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
