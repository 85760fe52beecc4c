//! pathpool-reproduce: the five source papers' experiments, run on pathpool and set beside
//! the published numbers.
//!
//! A paper (`Paper`) plans its experiments as independent `Job`s (one simulation each, with
//! its seed); the `runner` runs them on several threads, stores each result in its own file
//! (so an interrupted reproduction resumes where it stopped), and hands the results back to
//! the paper, which writes its section of the report, its figures and the CSVs behind them.

pub mod job;
pub mod numbers;
pub mod out_folder;
pub mod out_lock;
pub mod papers;
mod reproduce;
pub mod report;
pub mod runner;
pub mod scenario_files;
pub mod scenario_job;
pub mod stats;
mod store;
pub mod verdict;

pub use job::{Job, Results};
pub use report::PaperOut;
pub use verdict::Claim;
pub use reproduce::{mismatch_note, reproduce, Failure, Reproduction};
pub use scenario_files::ScenarioFiles;

use std::path::PathBuf;

/// What every paper's plan depends on.
#[derive(Clone, Debug)]
pub struct Options {
    /// Fewer seeds and shorter runs: a few minutes for the whole paper.
    pub quick: bool,
    /// Where the scenario files (one sub-folder per paper) come from.
    pub scenarios: ScenarioFiles,
    /// Seeds start after this one (0: seeds 1, 2, ...): the same experiments with other
    /// seeds, to see how far the headline numbers spread over seeds.
    pub seed_offset: u64,
}

/// More seeds than any paper's experiment runs: `seed_offset` is refused above
/// `u64::MAX - MAX_SEEDS`, so that no seed number wraps around.
pub const MAX_SEEDS: u64 = 1_000_000;

impl Options {
    /// The scenario folder of one paper.
    pub fn paper_dir(&self, paper: &str) -> PathBuf {
        self.scenarios.root().join(paper)
    }

    /// `full` seeds normally, `quick` seeds under `--quick`, numbered from 1 (after the
    /// offset).
    pub fn seeds(&self, full: u64, quick: u64) -> Vec<u64> {
        let count = if self.quick { quick } else { full };
        assert!(count <= MAX_SEEDS, "a paper asks for {count} seeds, above MAX_SEEDS");
        (1..=count).map(|s| s.checked_add(self.seed_offset).expect("seed_offset is checked against MAX_SEEDS")).collect()
    }
}

/// One source paper's reproduction.
pub trait Paper: Sync {
    /// The name users type (`ferlin2016`).
    fn name(&self) -> &'static str;
    /// A one-line citation for the report's heading.
    fn title(&self) -> &'static str;
    /// Every simulation the report needs. Fails (naming the file) before anything runs
    /// when a scenario file is missing or invalid.
    fn plan(&self, opts: &Options) -> Result<Vec<Job>, String>;
    /// Turns the results (keyed by job id) into the paper's report section, figures, CSVs
    /// and headline keys.
    fn report(&self, opts: &Options, results: &Results, out: &mut PaperOut) -> Result<(), String>;
}
