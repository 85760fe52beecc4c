//! One case of the suite: the simulator over seeds and the testbed over repeats, each run's
//! output folder kept under DIR/CASE/{sim,real}/ for a closer look.

use super::suite::Case;
use crate::{Result, TestbedError};
use pathpool_scenario::progress::Progress;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug)]
pub struct Settings {
    /// Folder holding the suite's scenario files.
    pub scenarios: PathBuf,
    pub quick: bool,
    pub seeds: u32,
    pub repeats: u32,
    /// Extra `--set` overrides applied to every case (after quick mode's).
    pub overrides: Vec<String>,
    /// Take the real runs from this earlier report's folder (CASE/real/repeat-K/summary.json)
    /// instead of running the testbed: the simulator side measured again against them.
    pub real_from: Option<PathBuf>,
}

fn io(dir: &Path) -> impl Fn(std::io::Error) -> TestbedError + '_ {
    move |e| TestbedError(format!("writing into '{}': {e}", dir.display()))
}

/// The scenario file of `case` and the overrides every run of it gets.
fn case_file(case: &Case, settings: &Settings) -> (PathBuf, Vec<String>) {
    let file = settings.scenarios.join(format!("{}.toml", case.name));
    let mut overrides = Vec::new();
    if settings.quick {
        overrides.push(format!("simulation.duration={}", case.quick.0));
        overrides.push(format!("simulation.warmup={}", case.quick.1));
    }
    overrides.extend(settings.overrides.iter().cloned());
    (file, overrides)
}

fn quantity_of(case: &Case, summary: &std::collections::BTreeMap<String, serde_json::Value>, dir: &Path) -> Result<f64> {
    case.quantity.of(summary).ok_or_else(|| TestbedError(format!("{}: summary.json has no {}", dir.display(), case.quantity.describe())))
}

/// The simulator's side of a case: its quantity per seed, and the keys its summary.json has
/// (every real run must have them too).
pub fn simulate_case(case: &Case, settings: &Settings, out: &Path, log: &dyn Fn(&str)) -> Result<(Vec<f64>, Vec<String>)> {
    let (file, overrides) = case_file(case, settings);
    let mut sim = Vec::new();
    let mut sim_keys: Vec<String> = Vec::new();
    for seed in 1..=settings.seeds {
        let mut o = overrides.clone();
        o.push(format!("simulation.seed={seed}"));
        let loaded = pathpool_scenario::load(&file, &o).map_err(|e| TestbedError(e.to_string()))?;
        let outcome = pathpool_scenario::simulate(&loaded, &Progress::hidden()).map_err(|e| TestbedError(e.to_string()))?;
        let dir = out.join(case.name).join("sim").join(format!("seed-{seed}"));
        std::fs::create_dir_all(&dir).map_err(io(&dir))?;
        let summary = pathpool_scenario::output::write_all(&dir, &outcome).map_err(io(&dir))?;
        sim.push(quantity_of(case, &summary, &dir)?);
        sim_keys = summary.keys().cloned().collect();
    }
    log(&format!("{}: simulator {:?}", case.name, sim));
    Ok((sim, sim_keys))
}

/// One real run of a case on the testbed (repeat K runs with seed K), kept under
/// CASE/real/repeat-K; its quantity.
pub fn real_repeat(case: &Case, settings: &Settings, out: &Path, repeat: u32, sim_keys: &[String], log: &dyn Fn(&str)) -> Result<f64> {
    let (file, mut o) = case_file(case, settings);
    o.push(format!("simulation.seed={repeat}"));
    let loaded = pathpool_scenario::load(&file, &o).map_err(|e| TestbedError(e.to_string()))?;
    let outcome = crate::run(&loaded, &crate::RunOptions { progress: false, capture: None })?;
    let dir = out.join(case.name).join("real").join(format!("repeat-{repeat}"));
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let summary = crate::write_outputs(&dir, &outcome).map_err(io(&dir))?;
    has_sim_keys(&summary, sim_keys, &dir.join("summary.json"))?;
    let v = quantity_of(case, &summary, &dir)?;
    log(&format!("{}: real repeat {repeat}/{}: {v:.4}", case.name, settings.repeats));
    Ok(v)
}

/// The case's real runs kept from an earlier report (`--real-from`): every repeat-K folder
/// there, K from 1, at least `settings.repeats` of them.
pub fn earlier_real_runs(case: &Case, settings: &Settings, earlier: &Path, sim_keys: &[String]) -> Result<Vec<f64>> {
    let want = settings.repeats;
    let mut real = Vec::new();
    for repeat in 1.. {
        let dir = earlier.join(case.name).join("real").join(format!("repeat-{repeat}"));
        let file = dir.join("summary.json");
        if !file.is_file() {
            break;
        }
        let text = std::fs::read_to_string(&file).map_err(|e| TestbedError(format!("--real-from: reading '{}': {e}", file.display())))?;
        let summary: std::collections::BTreeMap<String, serde_json::Value> =
            serde_json::from_str(&text).map_err(|e| TestbedError(format!("--real-from: '{}' is not a summary.json: {e}", file.display())))?;
        has_sim_keys(&summary, sim_keys, &file).map_err(|e| TestbedError(format!("--real-from: {}", e.0)))?;
        real.push(quantity_of(case, &summary, &dir)?);
    }
    if real.len() < want as usize {
        let dir = earlier.join(case.name).join("real");
        return Err(TestbedError(format!("--real-from: expected at least {want} runs in '{}' (repeat-1 ... repeat-{want}), found {}", dir.display(), real.len())));
    }
    Ok(real)
}

/// The testbed promises the simulator's keys (and more): a comparison that lost one would
/// compare less than it says.
fn has_sim_keys(summary: &std::collections::BTreeMap<String, serde_json::Value>, sim_keys: &[String], file: &Path) -> Result<()> {
    let missing: Vec<&String> = sim_keys.iter().filter(|k| !summary.contains_key(*k)).collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(TestbedError(format!("'{}' lacks keys the simulator writes: {missing:?}", file.display())))
}
