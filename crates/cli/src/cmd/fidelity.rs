//! `pathpool fidelity [--quick] --out DIR`: the suite of `scenarios/fidelity/` in the
//! simulator and on real Linux side by side (docs/fidelity.md).

use crate::error::CliError;
use crate::outdir::OutDir;
use clap::Args;
use crate::fidelity::{self, Row, Settings, SUITE};
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
    let cases: Vec<_> = if a.cases.is_empty() {
        SUITE.to_vec()
    } else {
        let mut picked = Vec::new();
        for name in &a.cases {
            let Some(c) = SUITE.iter().find(|c| c.name == name) else {
                let known: Vec<&str> = SUITE.iter().map(|c| c.name).collect();
                return Err(CliError::usage(format!("--cases: no case \"{name}\"; expected some of {}", known.join(", "))));
            };
            picked.push(*c);
        }
        picked
    };
    for c in &cases {
        let file = a.scenarios.join(format!("{}.toml", c.name));
        if !file.is_file() {
            return Err(CliError::usage(format!("--scenarios: expected the suite's file '{}' (run from the repository's root, or name the folder)", file.display())));
        }
        let loaded = pathpool_scenario::load(&file, &a.set).map_err(|e| CliError::usage(e.to_string()))?;
        // What the testbed cannot run (a coupled controller in a build without the BPF
        // controllers included) is refused before any run; with --real-from the testbed
        // does not run.
        if a.real_from.is_none() {
            pathpool_testbed::run::check(&loaded).map_err(|e| CliError::usage(format!("case {}: {e}", c.name)))?;
        }
    }
    if let Some(doc) = &a.doc {
        let text = std::fs::read_to_string(doc).map_err(|e| CliError::usage(format!("--doc: cannot read '{}': {e}", doc.display())))?;
        if !text.contains(fidelity::report::BEGIN) || !text.contains(fidelity::report::END) {
            return Err(CliError::usage(format!("--doc: '{}' has no '{}' ... '{}' block to rewrite", doc.display(), fidelity::report::BEGIN, fidelity::report::END)));
        }
    }
    if a.real_from.is_none() && !pathpool_testbed::is_root() {
        return Err(CliError::usage("pathpool fidelity runs the testbed, which needs root (network namespaces, TUN devices and queues); run it as root"));
    }
    let settings = Settings {
        scenarios: a.scenarios.clone(),
        quick: a.quick,
        seeds: a.seeds.unwrap_or(if a.quick { 3 } else { 20 }),
        repeats: a.repeats.unwrap_or(if a.quick { 3 } else { 5 }),
        overrides: a.set.clone(),
        real_from: a.real_from.clone(),
    };
    let command = command_line(&a, &settings);
    let out = OutDir::create("--out", &a.out)?;
    let (rows, failure) = run_suite(&cases, &settings, out.path());
    let report = fidelity::report_markdown(&rows, &command);
    std::fs::write(out.join("report.md"), &report)?;
    if !rows.is_empty() {
        fidelity::figure(&out.join("fidelity.png"), &rows).map_err(|e| CliError::runtime(e.to_string()))?;
    }
    // The runs finished so far are kept (and reported) even when a later one failed.
    out.finish()?;
    println!("{}", fidelity::report::table(&rows));
    println!("wrote {}", a.out.join("report.md").display());
    if let Some(e) = failure {
        return Err(e);
    }
    if let Some(doc) = &a.doc {
        let text = std::fs::read_to_string(doc)?;
        let new = fidelity::doc_block(&text, &rows, &command).expect("the markers were checked before the runs");
        std::fs::write(doc, new)?;
        println!("rewrote the table in {}", doc.display());
    }
    Ok(())
}

/// Every case in the simulator, then the real runs in rounds: one run of every case per
/// round. A real testbed's outcome on a phase-sensitive case drifts with the host's state
/// over tens of minutes (docs/fidelity-notes.md, "Drift"), so a case's repeats are spread over
/// the whole suite's time rather than taken back to back. A failure ends the suite; the
/// rows keep the runs finished before it.
fn run_suite(cases: &[fidelity::Case], settings: &Settings, dir: &std::path::Path) -> (Vec<Row>, Option<CliError>) {
    let log = |line: &str| eprintln!("  {line}");
    let mut rows = Vec::new();
    let mut keys = Vec::new();
    for case in cases {
        eprintln!("fidelity: {} in the simulator ({} seeds)", case.name, settings.seeds);
        match fidelity::simulate_case(case, settings, dir, &log) {
            Ok((sim, sim_keys)) => {
                rows.push(Row { case: *case, sim, real: Vec::new() });
                keys.push(sim_keys);
            }
            Err(e) => return (rows, Some(CliError::runtime(format!("case {}: {e}", case.name)))),
        }
    }
    if let Some(earlier) = &settings.real_from {
        for (k, sim_keys) in keys.iter().enumerate() {
            let case = rows[k].case;
            match fidelity::earlier_real_runs(&case, settings, earlier, sim_keys) {
                Ok(real) => rows[k].real = real,
                Err(e) => return (rows, Some(CliError::runtime(format!("case {}: {e}", case.name)))),
            }
        }
        return (rows, None);
    }
    for repeat in 1..=settings.repeats {
        eprintln!("fidelity: real runs, round {repeat}/{}", settings.repeats);
        for (k, sim_keys) in keys.iter().enumerate() {
            let case = rows[k].case;
            match fidelity::real_repeat(&case, settings, dir, repeat, sim_keys, &log) {
                Ok(v) => rows[k].real.push(v),
                Err(e) => {
                    rows.retain(|r| !r.real.is_empty());
                    return (rows, Some(CliError::runtime(format!("case {}: {e}", case.name))));
                }
            }
        }
    }
    (rows, None)
}

/// The command that reproduces this report, as a user would type it.
fn command_line(a: &FidelityArgs, s: &Settings) -> String {
    let mut c = String::from("pathpool fidelity");
    if a.quick {
        c.push_str(" --quick");
    }
    if !a.cases.is_empty() {
        c.push_str(&format!(" --cases {}", a.cases.join(",")));
    }
    if a.seeds.is_some() || a.repeats.is_some() {
        c.push_str(&format!(" --seeds {} --repeats {}", s.seeds, s.repeats));
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
