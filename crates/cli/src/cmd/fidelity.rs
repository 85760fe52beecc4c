//! `pathpool fidelity [--quick] --out DIR`: the suite of `scenarios/fidelity/` in the
//! simulator and on real Linux side by side (docs/fidelity.md). A front over `pathpool
//! compare`'s runs (crate::comparison) that keeps the suite's options, folder layout
//! (CASE/sim/seed-K, CASE/real/repeat-K), report and docs table.

use crate::error::CliError;
use crate::outdir::OutDir;
use clap::Args;
use crate::comparison::{self, plan::Kept, Layout, Plan};
use crate::fidelity;
use std::path::PathBuf;

#[derive(Args)]
pub struct FidelityArgs {
    /// Output folder: report.md, fidelity.png, and every run's folder under CASE/sim and CASE/real.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Shorter runs (each case's quick duration) and fewer of them: about 20 minutes.
    #[arg(long)]
    pub quick: bool,
    /// Only these cases (comma-separated names of scenarios/fidelity/*.toml).
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub cases: Vec<String>,
    /// Simulator seeds per case [default: 20, quick 3]: the simulator is cheap, and its seeds spread as widely as real runs do.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub seeds: Option<u32>,
    /// Real runs per case [default: 5, quick 3].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub repeats: Option<u32>,
    /// Folder of the suite's scenario files.
    #[arg(long, value_name = "DIR", default_value = "scenarios/fidelity")]
    pub scenarios: PathBuf,
    /// Override a value in every case (repeatable), e.g. `--set flows.reno.delayed_ack=false`.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Take the real runs from this earlier `--out` folder instead of running the testbed (no
    /// root needed): the simulator side measured again against the same real runs.
    #[arg(long, value_name = "DIR")]
    pub real_from: Option<PathBuf>,
    /// Also rewrite the table between the fidelity markers of this Markdown file.
    #[arg(long, value_name = "FILE")]
    pub doc: Option<PathBuf>,
}

pub fn run(a: FidelityArgs) -> Result<(), CliError> {
    let suite = fidelity::cases::load(&a.scenarios, &a.cases, &a.set, a.quick)?;
    // With --real-from the testbed does not run: the simulator alone checks the cases. What
    // the testbed cannot run (a coupled controller in a build without the BPF controllers
    // included) is refused before any run.
    let checked: Vec<String> = if a.real_from.is_some() { vec!["sim".into()] } else { vec!["sim".into(), "linux".into()] };
    comparison::one_run::check_cases(&suite.cases, &checked)?;
    if let Some(doc) = &a.doc {
        let text = std::fs::read_to_string(doc).map_err(|e| CliError::usage(format!("--doc: cannot read '{}': {e}", doc.display())))?;
        if !text.contains(fidelity::report::BEGIN) || !text.contains(fidelity::report::END) {
            return Err(CliError::usage(format!("--doc: '{}' has no '{}' ... '{}' block to rewrite", doc.display(), fidelity::report::BEGIN, fidelity::report::END)));
        }
    }
    if a.real_from.is_none() && !pathpool_testbed::is_root() {
        return Err(CliError::usage("pathpool fidelity runs the testbed, which needs root (network namespaces, TUN devices and queues); run it as root"));
    }
    let seeds = a.seeds.unwrap_or(if a.quick { 3 } else { 20 });
    let repeats = a.repeats.unwrap_or(if a.quick { 3 } else { 5 });
    let command = command_line(&a, seeds, repeats);
    let out = OutDir::create("--out", &a.out)?;
    // As `pathpool compare FOLDER --backends sim,linux --repeats sim=SEEDS,linux=REPEATS`, in
    // the suite's folder layout.
    let plan = Plan {
        cases: suite.cases,
        backends: vec!["sim".into(), "linux".into()],
        repeats: [("sim".to_string(), seeds), ("linux".to_string(), repeats)].into(),
        layout: Layout::Fidelity,
        kept: a.real_from.clone().map_or(Kept::None, Kept::RealFrom),
        command: "fidelity",
    };
    let (runs, failure) = comparison::execute(&plan, out.path());
    let rows = comparison::quantities::rows(&plan.cases, &runs, "linux");
    let distorted = distorted_runs(&runs);
    let mut report = fidelity::report_markdown(&rows, &command);
    if !distorted.is_empty() {
        report.push_str("\n## Real runs the kernel's controllers distorted\n\n");
        report.push_str("In these runs the BPF controllers met windows above 65535 segments that they did not write (docs/kernel.md, \"A window of 1.5 billion segments\"); their values are in the table above with the rest.\n\n");
        for (dir, warning) in &distorted {
            report.push_str(&format!("- {}: {warning}\n", dir.display()));
        }
    }
    std::fs::write(out.join("report.md"), &report)?;
    if !rows.is_empty() {
        fidelity::figure(&out.join("fidelity.png"), &rows).map_err(|e| CliError::runtime(e.to_string()))?;
    }
    // The runs finished so far are kept (and reported) even when a later one failed.
    out.finish()?;
    println!("{}", fidelity::report::table(&rows));
    for (dir, warning) in &distorted {
        println!("warning: {}: {warning}", dir.display());
    }
    println!("wrote {}", a.out.join("report.md").display());
    if let Some(e) = failure {
        return Err(e);
    }
    if let Some(doc) = &a.doc {
        let text = std::fs::read_to_string(doc)?;
        let new = fidelity::doc_block(&text, &rows, &command, &suite.order).expect("the markers were checked before the runs");
        std::fs::write(doc, new)?;
        println!("rewrote the table in {}", doc.display());
    }
    Ok(())
}

/// The real runs whose summary has `kernel_warnings` (testbed runs during which the BPF
/// controllers met windows they did not write), with each warning.
fn distorted_runs(runs: &[crate::comparison::CaseRuns]) -> Vec<(std::path::PathBuf, String)> {
    let mut out = Vec::new();
    for by_backend in runs {
        for run in by_backend.get("linux").into_iter().flatten() {
            let warnings = run.summary.get("kernel_warnings").and_then(|v| v.as_array());
            out.extend(warnings.into_iter().flatten().filter_map(|w| w.as_str()).map(|w| (run.dir.clone(), w.to_string())));
        }
    }
    out
}

/// The command that reproduces this report, as a user would type it.
fn command_line(a: &FidelityArgs, seeds: u32, repeats: u32) -> String {
    let mut c = String::from("pathpool fidelity");
    if a.quick {
        c.push_str(" --quick");
    }
    if !a.cases.is_empty() {
        c.push_str(&format!(" --cases {}", a.cases.join(",")));
    }
    if a.seeds.is_some() || a.repeats.is_some() {
        c.push_str(&format!(" --seeds {seeds} --repeats {repeats}"));
    }
    for kv in &a.set {
        c.push_str(&format!(" --set {kv}"));
    }
    if let Some(dir) = &a.real_from {
        c.push_str(&format!(" --real-from {}", dir.display()));
    }
    c.push_str(&format!(" --out {}", a.out.display()));
    c
}

#[cfg(test)]
mod tests {
    use super::distorted_runs;
    use crate::comparison::execute::Run;
    use serde_json::json;

    fn run(dir: &str, summary: serde_json::Value) -> Run {
        Run { dir: dir.into(), summary: serde_json::from_value(summary).expect("a map"), reused: false }
    }

    #[test]
    fn only_real_runs_with_kernel_warnings_are_listed() {
        let case = [
            ("linux".to_string(), vec![run("c/real/repeat-1", json!({"sum_ratio": 1.0})), run("c/real/repeat-2", json!({"kernel_warnings": ["met 12"]}))]),
            ("sim".to_string(), vec![run("c/sim/seed-1", json!({"kernel_warnings": ["not a real run"]}))]),
        ]
        .into_iter()
        .collect();
        assert_eq!(distorted_runs(&[case]), vec![("c/real/repeat-2".into(), "met 12".to_string())]);
    }
}
