//! The runs of a plan: every case on the backends that build no real network (the simulator)
//! first, then the real ones in rounds, run K of every case and real backend in round K. A
//! real testbed's outcome on a phase-sensitive case drifts with the host's state over tens of
//! minutes (docs/fidelity-notes.md, "Drift"), so a case's repeats are spread over the whole
//! comparison's time, and real backends alternate so that a drift touches all alike. A
//! failure ends the runs; those finished before it are kept and returned with it.

use super::kept::{earlier_real_runs, reusable, Summary};
use super::plan::{Case, Kept, Plan};
use super::{digest, one_run, sim_keys};
use crate::error::CliError;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub struct Run {
    /// Its output folder (for a kept run, where it was kept).
    pub dir: PathBuf,
    pub summary: Summary,
    /// Kept from before (`--reuse`, `--real-from`), not run now.
    pub reused: bool,
}

/// One case's runs: per backend, run 1 first.
pub type CaseRuns = BTreeMap<String, Vec<Run>>;

/// Each case's runs, in the plan's order, and the error that ended them early, if one did.
pub fn execute(plan: &Plan, root: &Path) -> (Vec<CaseRuns>, Option<CliError>) {
    let mut runs: Vec<CaseRuns> = plan.cases.iter().map(|_| CaseRuns::new()).collect();
    let error = execute_into(plan, root, &mut runs).err();
    (runs, error)
}

fn real_from(plan: &Plan) -> Option<&Path> {
    match &plan.kept {
        Kept::RealFrom(dir) => Some(dir),
        _ => None,
    }
}

fn execute_into(plan: &Plan, root: &Path, runs: &mut [CaseRuns]) -> Result<(), CliError> {
    let cheap: Vec<&String> = plan.backends.iter().filter(|b| !crate::backends::real(b)).collect();
    let real: Vec<&String> = plan.backends.iter().filter(|b| crate::backends::real(b) && !(real_from(plan).is_some() && *b == "linux")).collect();
    for (i, case) in plan.cases.iter().enumerate() {
        for b in &cheap {
            eprintln!("{}: {} on {b} ({} runs)", plan.command, case.name, plan.repeats[*b]);
            for k in 1..=plan.repeats[*b] {
                one(plan, root, case, b, k, &mut runs[i]).map_err(|e| in_case(case, e))?;
            }
        }
    }
    if let Some(earlier) = real_from(plan) {
        for (i, case) in plan.cases.iter().enumerate() {
            for (dir, summary) in earlier_real_runs(earlier, case, plan.repeats["linux"]).map_err(|e| in_case(case, e))? {
                accept(case, "linux", &summary, &dir, &runs[i]).map_err(|e| in_case(case, relabel(e, "--real-from: ")))?;
                runs[i].entry("linux".to_string()).or_default().push(Run { dir, summary, reused: true });
            }
        }
    }
    let rounds = real.iter().map(|b| plan.repeats[*b]).max().unwrap_or(0);
    for k in 1..=rounds {
        eprintln!("{}: real runs, round {k}/{rounds}", plan.command);
        for (i, case) in plan.cases.iter().enumerate() {
            for b in real.iter().filter(|b| plan.repeats[**b] >= k) {
                one(plan, root, case, b, k, &mut runs[i]).map_err(|e| in_case(case, e))?;
            }
        }
    }
    Ok(())
}

fn in_case(case: &Case, e: CliError) -> CliError {
    relabel(e, &format!("case {}: ", case.name))
}

/// The same kind of error with `prefix` before its message.
fn relabel(e: CliError, prefix: &str) -> CliError {
    match e {
        CliError::Usage(m) => CliError::Usage(format!("{prefix}{m}")),
        CliError::Runtime(m) => CliError::Runtime(format!("{prefix}{m}")),
    }
}

/// Run K of `backend` on `case`, or the one kept with its digest.
fn one(plan: &Plan, root: &Path, case: &Case, backend: &str, k: u32, runs: &mut CaseRuns) -> Result<(), CliError> {
    let overrides = case.overrides_of_run(k);
    let digest = digest::of(backend, case.text.as_bytes(), &overrides);
    let n = plan.repeats[backend];
    let label = plan.layout.run_label(backend);
    if let Kept::Reuse(kept) = &plan.kept {
        if let Some((dir, summary)) = reusable(kept, case, backend, k, &digest)? {
            accept(case, backend, &summary, &dir, runs)?;
            eprintln!("  {}: {label} {k}/{n}: {}, kept in '{}'", case.name, value(case, &summary), dir.display());
            runs.entry(backend.to_string()).or_default().push(Run { dir, summary, reused: true });
            return Ok(());
        }
    }
    let loaded = pathpool_experiment::load_str(&case.file.display().to_string(), &case.text, &overrides).map_err(|e| CliError::usage(e.to_string()))?;
    let dir = plan.layout.run_dir(root, &case.name, backend, k);
    std::fs::create_dir_all(&dir).map_err(|e| CliError::runtime(format!("--out: creating '{}': {e}", dir.display())))?;
    let log = |line: &str| eprintln!("  {}: {label} {k}: {line}", case.name);
    let summary = one_run::run_into(backend, &loaded, &dir, &log).map_err(|e| relabel(e, &format!("run {k}: ")))?;
    digest::write(&dir, &digest).map_err(|e| CliError::runtime(format!("--out: writing into '{}': {e}", dir.display())))?;
    accept(case, backend, &summary, &dir, runs)?;
    eprintln!("  {}: {label} {k}/{n}: {}", case.name, value(case, &summary));
    runs.entry(backend.to_string()).or_default().push(Run { dir, summary, reused: false });
    Ok(())
}

/// The case's quantity in a progress line, or "done" for a case without `[fidelity]`.
fn value(case: &Case, summary: &Summary) -> String {
    case.fidelity.as_ref().and_then(|f| f.quantity.of(summary)).map_or_else(|| "done".to_string(), |v| format!("{v:.4}"))
}

/// A fidelity case's run must give its quantity, and a real Linux run the simulator's keys.
fn accept(case: &Case, backend: &str, summary: &Summary, dir: &Path, runs: &CaseRuns) -> Result<(), CliError> {
    let Some(spec) = &case.fidelity else { return Ok(()) };
    if spec.quantity.of(summary).is_none() {
        return Err(CliError::runtime(format!("{}: summary.json has no {}", dir.display(), spec.quantity.describe())));
    }
    if let (Some(sim), "linux") = (runs.get("sim").and_then(|r| r.last()), backend) {
        let keys: Vec<String> = sim.summary.keys().cloned().collect();
        sim_keys::has_sim_keys(summary, &keys, &dir.join("summary.json")).map_err(CliError::runtime)?;
    }
    Ok(())
}
