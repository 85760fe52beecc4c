//! What to run: the cases (scenario files), the backends with their runs, where each run's
//! folder goes and which runs kept from before may stand in for new ones.

use crate::error::CliError;
use pathpool_experiment::fidelity::FidelitySpec;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One scenario file.
#[derive(Clone, Debug)]
pub struct Case {
    /// The file's name without `.toml`.
    pub name: String,
    pub file: PathBuf,
    /// The file's text, read once: every run loads it, and a kept run's digest is taken
    /// over it.
    pub text: String,
    /// Overrides every run of the case gets (before its seed's).
    pub overrides: Vec<String>,
    /// The file's `[fidelity]` table.
    pub fidelity: Option<FidelitySpec>,
}

impl Case {
    /// The file read and checked with `overrides`; `[fidelity]` taken from it.
    pub fn read(file: &Path, overrides: Vec<String>) -> Result<Case, CliError> {
        let name = file.display().to_string();
        let text = pathpool_experiment::bounded_read::read_bounded(file, pathpool_experiment::bounded_read::TEXT_LIMIT)
            .map_err(|e| CliError::usage(pathpool_experiment::ScenarioError::file(&name, format!("cannot read the scenario file: {e}")).to_string()))?;
        let loaded = pathpool_experiment::load_str(&name, &text, &overrides).map_err(|e| CliError::usage(e.to_string()))?;
        let stem = file.file_stem().map_or_else(|| "scenario".to_string(), |s| s.to_string_lossy().into_owned());
        Ok(Case { name: stem, file: file.to_path_buf(), text, overrides, fidelity: loaded.scenario.fidelity })
    }

    /// Run K's overrides: the case's, then its seed (run K of every backend takes seed K).
    pub fn overrides_of_run(&self, k: u32) -> Vec<String> {
        let mut o = self.overrides.clone();
        o.push(format!("simulation.seed={k}"));
        o
    }
}

/// Where each run's output folder goes under the output folder.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Layout {
    /// One scenario: BACKEND/run-K.
    Flat,
    /// Several: CASE/BACKEND/run-K.
    PerCase,
    /// `pathpool fidelity`'s: CASE/sim/seed-K and CASE/real/repeat-K (scripts read them so).
    Fidelity,
}

impl Layout {
    pub fn run_dir(self, root: &Path, case: &str, backend: &str, k: u32) -> PathBuf {
        match (self, backend) {
            (Layout::Flat, _) => root.join(backend).join(format!("run-{k}")),
            (Layout::Fidelity, "sim") => root.join(case).join("sim").join(format!("seed-{k}")),
            (Layout::Fidelity, "linux") => root.join(case).join("real").join(format!("repeat-{k}")),
            _ => root.join(case).join(backend).join(format!("run-{k}")),
        }
    }

    /// How the progress lines name run K of a backend.
    pub fn run_label(self, backend: &str) -> String {
        match (self, backend) {
            (Layout::Fidelity, "sim") => "simulator seed".to_string(),
            (Layout::Fidelity, "linux") => "real repeat".to_string(),
            _ => format!("{backend} run"),
        }
    }

    pub const ALL: [Layout; 3] = [Layout::Flat, Layout::PerCase, Layout::Fidelity];
}

/// Runs kept from before that stand in for new ones.
#[derive(Clone, Debug)]
pub enum Kept {
    None,
    /// `--reuse DIR`: a run of DIR (in any of the layouts) whose `scenario.digest` is this
    /// run's is not run again.
    Reuse(PathBuf),
    /// `pathpool fidelity --real-from DIR`: every linux run of DIR/CASE/real/repeat-K, K
    /// from 1, as it is (kept before digests were), at least as many as asked for.
    RealFrom(PathBuf),
}

pub struct Plan {
    pub cases: Vec<Case>,
    /// In the order given.
    pub backends: Vec<String>,
    pub repeats: BTreeMap<String, u32>,
    pub layout: Layout,
    pub kept: Kept,
    /// The progress lines' prefix (the command's name).
    pub command: &'static str,
}
