//! Jobs that run a scenario file (with `--set` overrides, a seed and optionally `--cc`).

use crate::job::{digest, Job};
use pathpool_scenario::outcome::Outcome;
use pathpool_scenario::progress::Progress;
use serde_json::Value;
use std::path::Path;

/// What a job keeps of a run, under a name that enters the job's spec (so a stored result
/// kept by another extractor is not reused).
#[derive(Clone, Copy)]
pub struct Extract {
    pub name: &'static str,
    pub keep: fn(&Outcome) -> Value,
}

/// The run's summary.json as `pathpool run` writes it, without the `wall_` keys.
pub const SUMMARY: Extract = Extract { name: "summary", keep: summary };

/// One scenario run.
#[derive(Clone, Debug)]
pub struct ScenarioRun {
    /// `KEY=VALUE` overrides, as `pathpool run --set`.
    pub sets: Vec<String>,
    /// As `pathpool run --cc`.
    pub cc: Option<String>,
    pub seed: u64,
}

impl ScenarioRun {
    pub fn new(seed: u64) -> Self {
        ScenarioRun { sets: Vec::new(), cc: None, seed }
    }

    pub fn cc(mut self, cc: &str) -> Self {
        self.cc = Some(cc.to_string());
        self
    }

    pub fn set(mut self, key_value: impl Into<String>) -> Self {
        self.sets.push(key_value.into());
        self
    }
}

/// A job running `file` as `run` says, keeping what `extract` returns. The file is read
/// and checked now, so a missing or invalid scenario fails before anything runs.
pub fn scenario_job(id: impl Into<String>, file: &Path, run: ScenarioRun, extract: Extract) -> Result<Job, String> {
    let name = file.display().to_string();
    let text = crate::scenario_files::read(file)?;
    let mut overrides = run.sets.clone();
    overrides.push(format!("simulation.seed={}", run.seed));
    load(&name, &text, &overrides, run.cc.as_deref())?;
    let spec = format!(
        "scenario {name} text {} overrides {overrides:?} cc {:?} keep {}",
        digest(text.as_bytes()),
        run.cc,
        extract.name
    );
    let cc = run.cc;
    Ok(Job::new(id, spec, move || {
        let loaded = load(&name, &text, &overrides, cc.as_deref())?;
        let outcome = pathpool_scenario::simulate(&loaded, &Progress::hidden()).map_err(|e| e.to_string())?;
        Ok((extract.keep)(&outcome))
    }))
}

fn load(name: &str, text: &str, overrides: &[String], cc: Option<&str>) -> Result<pathpool_scenario::Loaded, String> {
    let mut loaded = pathpool_scenario::load_str(name, text, overrides).map_err(|e| e.to_string())?;
    if let Some(cc) = cc {
        pathpool_scenario::mptcp::override_cc(&mut loaded, cc).map_err(|e| e.to_string())?;
    }
    // The papers' detector unless a run names another (docs/sbd.md, "The pathpool preset").
    pathpool_scenario::mptcp::pin_published_detector(&mut loaded);
    Ok(loaded)
}

/// The run's summary.json as `pathpool run` writes it, without the `wall_` keys (so stored
/// results are deterministic).
fn summary(o: &Outcome) -> Value {
    let mut s = pathpool_scenario::summary::summary(o);
    s.retain(|k, _| !k.starts_with("wall_"));
    Value::Object(s.into_iter().collect())
}
