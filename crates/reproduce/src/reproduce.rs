//! A whole reproduction: plan every paper's jobs, run what is not stored yet, and write
//! `report.md` and `summary.json` at the output folder's top.

use crate::report::PaperOut;
use crate::runner::{run_all, Counts, Planned};
use crate::out_folder::OutFolder;
use crate::out_lock::Wait;
use crate::{store, Options, Paper};
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Why a reproduction stopped: its input (paper, scenario files, output folder) was wrong,
/// or a run or a write failed.
#[derive(Debug)]
pub enum Failure {
    Input(String),
    Run(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Input(m) | Failure::Run(m) => f.write_str(m),
        }
    }
}

/// Where a quick reproduction's reader finds the full preset's numbers.
const FULL_NUMBERS: &str = "README.md (\"Results\", ferlin2016) and docs/reproduce.md (every paper), or run the same command without `--quick`";

pub struct Reproduction {
    pub report: PathBuf,
    pub summary: PathBuf,
    pub counts: Counts,
}

pub fn reproduce(papers: &[&'static dyn Paper], opts: &Options, root: &Path, threads: usize, command: &str) -> Result<Reproduction, Failure> {
    let started = std::time::Instant::now();
    let mut planned = Vec::new();
    for p in papers {
        let mut seen = BTreeSet::new();
        for job in p.plan(opts).map_err(Failure::Input)? {
            if !seen.insert(job.id.clone()) {
                return Err(Failure::Run(format!("{}: two runs share the id '{}'", p.name(), job.id)));
            }
            planned.push(Planned { paper: p.name(), job });
        }
    }
    // The finished runs (`runs/`) are kept across reproductions, which reuse them; the report,
    // figures and CSVs replace the previous reproduction's once this one finished. A second
    // reproduction into the folder waits for the first, then reuses what it stored.
    let folder = OutFolder::open("--out", root, Wait::Block, &[store::RUNS]).map_err(Failure::Input)?;
    let io = |e: std::io::Error| Failure::Run(format!("--out: writing into '{}': {e}", root.display()));
    let (results, counts) = run_all(&planned, root, threads).map_err(Failure::Run)?;
    let staged = folder.path();

    let mode = if opts.quick { "quick preset: fewer seeds, shorter runs" } else { "full preset" };
    let mut report = format!(
        "# pathpool: the papers' experiments beside the published numbers\n\nCommand: `{command}` ({mode}); {} runs ({} reused from an earlier, interrupted reproduction{}). Each run's result is in `runs/`.\n",
        planned.len(),
        counts.reused,
        mismatch_note(counts.mismatched)
    );
    let mut keys = Map::new();
    let empty = Default::default();
    let mut sections = String::new();
    let mut claims = Vec::new();
    for p in papers {
        let mut out = PaperOut::new(staged, p.name()).map_err(io)?;
        p.report(opts, results.get(p.name()).unwrap_or(&empty), &mut out).map_err(|e| Failure::Run(format!("{}: {e}", p.name())))?;
        sections.push_str(&format!("\n## {} ({})\n\n{}", p.title(), p.name(), out.markdown));
        claims.push((p.name(), std::mem::take(&mut out.claims)));
        for (k, v) in out.keys {
            if keys.insert(k.clone(), v).is_some() {
                return Err(Failure::Run(format!("{}: the key '{k}' is reported twice", p.name())));
            }
        }
    }
    report.push('\n');
    report.push_str(&crate::verdict::markdown(&claims, opts.quick, FULL_NUMBERS));
    report.push_str(&sections);
    keys.insert("papers".into(), papers.iter().map(|p| Value::from(p.name())).collect());
    keys.insert("quick".into(), opts.quick.into());
    keys.insert("runs".into(), planned.len().into());
    keys.insert("wall_seconds".into(), started.elapsed().as_secs_f64().into());
    std::fs::write(staged.join("report.md"), report).map_err(io)?;
    let json = serde_json::to_string_pretty(&Value::Object(keys)).map_err(|e| Failure::Run(e.to_string()))?;
    std::fs::write(staged.join("summary.json"), json + "\n").map_err(io)?;
    folder.finish().map_err(Failure::Run)?;
    Ok(Reproduction { report: root.join("report.md"), summary: root.join("summary.json"), counts })
}

/// Stored results that were not reused although a file was there.
pub fn mismatch_note(mismatched: usize) -> String {
    match mismatched {
        0 => String::new(),
        1 => "; 1 stored result did not match (edited, damaged, or from another build) and was run again".into(),
        n => format!("; {n} stored results did not match (edited, damaged, or from another build) and were run again"),
    }
}
