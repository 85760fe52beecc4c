//! `pathpool compare FILE.toml... --backends sim,linux --out DIR [--repeats N|sim=20,linux=5]
//! [--reuse DIR]`: scenarios on several backends side by side. Run K of every backend takes
//! seed K; the real backends' runs go in rounds over the scenarios (crate::comparison). With
//! one file each run's output folder is DIR/BACKEND/run-K; with several (or a folder, every
//! `*.toml` in it: `pathpool compare scenarios/fidelity --backends sim,linux`) each scenario's
//! are under DIR/NAME/, with every scenario's table in DIR/report.md. Per summary key and
//! backend: median, range and number of runs, and the median's relative error against the
//! reference backend (compare.csv, report.md, compare.png). Scenarios with a `[fidelity]`
//! table also get their one quantity compared within their tolerance (fidelity.csv, and the
//! fidelity table of the simulator against real Linux in report.md).

use crate::comparison::{self, plan::Kept, Case, CaseRuns, Layout, Plan, Repeats};
use crate::error::CliError;
use crate::outdir::OutDir;
use clap::Args;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The backends `--backends` takes.
const BACKENDS: [&str; 3] = crate::backends::NAMES;

/// The keys compared by default (those every run has): the summary's headline figures and
/// every flow's and connection's throughput.
const HEADLINE: [&str; 6] = ["total_throughput_mbps", "bottleneck_utilization", "jain_index", "mptcp_mbps", "tcp_mbps", "sum_ratio"];

#[derive(Args)]
pub struct CompareArgs {
    /// Scenario files (TOML; docs/scenarios.md), or folders of them (every `*.toml` in each).
    #[arg(required = true, num_args = 1.., value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Backends to run it on, comma-separated: sim, linux, quic (linux and quic need root).
    #[arg(long, value_name = "LIST", default_value = "sim,linux", value_delimiter = ',')]
    pub backends: Vec<String>,
    /// The backend the others' relative errors are taken against (default: linux if listed,
    /// else the first).
    #[arg(long, value_name = "NAME")]
    pub reference: Option<String>,
    /// Runs per backend, 1 to 100: one number for every backend, or BACKEND=N for each
    /// (sim=20,linux=5); run K takes seed K.
    #[arg(long, value_name = "N|BACKEND=N,...", default_value = "3")]
    pub repeats: String,
    /// Summary keys to compare, comma-separated (default: the headline keys and every flow's
    /// throughput that every run has).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub keys: Vec<String>,
    /// Override a value of the file by dotted path (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// An earlier output folder (of compare or fidelity): a run kept there from the same
    /// backend, scenario file, overrides and seed (its scenario.digest) is taken, not run again.
    #[arg(long, value_name = "DIR")]
    pub reuse: Option<PathBuf>,
    /// Output folder: compare.csv, report.md, compare.png and every run's folder.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

pub fn run(args: CompareArgs) -> Result<(), CliError> {
    for b in &args.backends {
        if !BACKENDS.contains(&b.as_str()) {
            return Err(CliError::usage(format!("--backends: unknown backend \"{b}\"; expected some of: {}", BACKENDS.join(", "))));
        }
    }
    if args.backends.is_empty() || args.backends.iter().enumerate().any(|(i, b)| args.backends[..i].contains(b)) {
        return Err(CliError::usage(format!("--backends: expected distinct backends among {}, got \"{}\"", BACKENDS.join(", "), args.backends.join(","))));
    }
    let reference = match &args.reference {
        Some(r) if !args.backends.contains(r) => return Err(CliError::usage(format!("--reference: \"{r}\" is not among --backends {}", args.backends.join(",")))),
        Some(r) => r.clone(),
        None => args.backends.iter().find(|b| *b == "linux").unwrap_or(&args.backends[0]).clone(),
    };
    let repeats = Repeats::parse(&args.repeats).map_err(CliError::usage)?;
    let per_backend = repeats.resolve(&args.backends).map_err(CliError::usage)?;
    let mut files = Vec::new();
    for path in &args.files {
        files.extend(scenario_files(path)?);
    }
    let mut cases: Vec<Case> = Vec::new();
    for file in &files {
        let case = Case::read(file, args.set.clone())?;
        if let Some(other) = cases.iter().find(|c| c.name == case.name) {
            return Err(CliError::usage(format!("FILE: '{}' and '{}' are both named {}; expected scenario files of distinct names (each gets the folder of its name)", other.file.display(), file.display(), case.name)));
        }
        cases.push(case);
    }
    comparison::one_run::check_cases(&cases, &args.backends)?;
    if let Some(kept) = &args.reuse {
        if !kept.is_dir() {
            return Err(CliError::usage(format!("--reuse: expected an earlier output folder, found no folder '{}'", kept.display())));
        }
        if std::fs::canonicalize(kept).ok() == std::fs::canonicalize(&args.out).ok() {
            return Err(CliError::usage(format!("--reuse: '{}' is the --out folder, whose files this comparison replaces; name the earlier runs' folder and another --out", kept.display())));
        }
    }
    if !pathpool_testbed::is_root() {
        // Real runs need root unless every one of them is kept in --reuse's folder.
        for b in args.backends.iter().filter(|b| crate::backends::real(b)) {
            let all_kept = match &args.reuse {
                Some(kept) => comparison::kept::keeps_every_run(kept, &cases, b, per_backend[b])?,
                None => false,
            };
            if !all_kept {
                return Err(CliError::usage(format!("--backends {b} needs root (it builds network namespaces, TUN devices and queues); run it as root, or name with --reuse a folder that keeps every one of its runs")));
            }
        }
    }
    let inputs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let out = OutDir::create_reading("--out", &args.out, &inputs)?;
    let command = format!(
        "pathpool compare {} --backends {} --repeats {}{}{}",
        args.files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(" "),
        args.backends.join(","),
        repeats.describe(),
        args.set.iter().map(|s| format!(" --set {s}")).collect::<String>(),
        args.reuse.as_ref().map(|d| format!(" --reuse {}", d.display())).unwrap_or_default()
    );
    let single = args.files.len() == 1 && !args.files[0].is_dir();
    let plan = Plan {
        cases,
        backends: args.backends.clone(),
        repeats: per_backend,
        layout: if single { Layout::Flat } else { Layout::PerCase },
        kept: args.reuse.clone().map_or(Kept::None, Kept::Reuse),
        command: "compare",
    };
    let (runs, failure) = comparison::execute(&plan, out.path());
    if let Some(e) = failure {
        return Err(e);
    }
    let fidelity = fidelity_section(&plan, &runs, &reference);
    if fidelity.is_some() {
        std::fs::write(out.path().join("fidelity.csv"), comparison::quantities::csv(&plan.cases, &runs, &args.backends, &reference))?;
    }
    if single {
        let table = compare_case(&args, &runs[0], out.path(), &reference, &command, fidelity.as_deref().unwrap_or(""))?;
        out.finish()?;
        println!("{table}");
        println!("wrote {}", args.out.display());
        return Ok(());
    }
    let names = args.files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(", ");
    let mut all = format!("# Scenarios of {names} on several backends\n\n`{command}`\n\nPer scenario: median [min, max] (runs); \"vs {reference}\" is (median - {reference}'s median) / {reference}'s median. Each scenario's runs, compare.csv and compare.png are under its name.\n");
    all.push_str(fidelity.as_deref().unwrap_or(""));
    for (case, case_runs) in plan.cases.iter().zip(&runs) {
        let dir = out.path().join(&case.name);
        std::fs::create_dir_all(&dir)?;
        let table = compare_case(&args, case_runs, &dir, &reference, &command, "")?;
        all.push_str(&format!("\n## {}\n\n{table}{}", case.name, reused(case_runs)));
        println!("{}\n{table}", case.name);
    }
    std::fs::write(out.path().join("report.md"), all)?;
    out.finish()?;
    if let Some(f) = &fidelity {
        println!("{f}");
    }
    println!("wrote {}", args.out.display());
    Ok(())
}

/// The fidelity section of report.md, for scenarios with a `[fidelity]` table: the suite's
/// table where the simulator runs against real Linux, else where fidelity.csv has it.
fn fidelity_section(plan: &Plan, runs: &[CaseRuns], reference: &str) -> Option<String> {
    plan.cases.iter().any(|c| c.fidelity.is_some()).then(|| {
        let mut s = String::from("\n## Fidelity\n\nEach scenario's `[fidelity]` quantity, median [min, max] (runs), in fidelity.csv for every backend against the reference");
        if plan.backends.iter().any(|b| b == "sim") && reference == "linux" {
            let mut rows = comparison::quantities::rows(&plan.cases, runs, "linux");
            rows.sort_by_key(|r| r.spec.order);
            s.push_str(" and here the simulator against real Linux (docs/fidelity.md):\n\n");
            s.push_str(&crate::fidelity::report::table(&rows));
        } else {
            s.push_str(" (the simulator against real Linux needs --backends with sim and linux, linux the reference).\n");
        }
        s
    })
}

/// report.md's note of the runs taken from --reuse's folder, not run again.
fn reused(runs: &CaseRuns) -> String {
    let kept: Vec<String> = runs
        .iter()
        .flat_map(|(b, rs)| rs.iter().enumerate().filter(|(_, r)| r.reused).map(move |(k, r)| format!("- {b} run {}: '{}'", k + 1, r.dir.display())))
        .collect();
    if kept.is_empty() {
        return String::new();
    }
    format!("\nRuns kept from before and not run again (--reuse; the same backend, scenario file, overrides and seed):\n\n{}\n", kept.join("\n"))
}

/// The scenario files `path` names: itself, or the `*.toml` files of a folder in name order.
fn scenario_files(path: &Path) -> Result<Vec<PathBuf>, CliError> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let entries = std::fs::read_dir(path).map_err(|e| CliError::usage(format!("FILE: cannot read the folder '{}': {e}", path.display())))?;
    let mut files: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "toml")).collect();
    files.sort();
    if files.is_empty() {
        return Err(CliError::usage(format!("FILE: the folder '{}' has no *.toml scenario files", path.display())));
    }
    Ok(files)
}

/// One scenario's runs on every backend: writes compare.csv, report.md (with `extra` after
/// the table) and compare.png into `dir` and returns the table.
fn compare_case(args: &CompareArgs, case_runs: &CaseRuns, dir: &Path, reference: &str, command: &str, extra: &str) -> Result<String, CliError> {
    let runs: BTreeMap<&str, Vec<BTreeMap<String, Value>>> = case_runs.iter().map(|(b, rs)| (b.as_str(), rs.iter().map(|r| r.summary.clone()).collect())).collect();
    let keys = keys(&args.keys, &runs)?;
    let rows = rows(&keys, &args.backends, reference, &runs);
    std::fs::write(dir.join("compare.csv"), csv(&rows))?;
    std::fs::write(dir.join("report.md"), format!("{}{}{extra}", report(&rows, reference, command), reused(case_runs)))?;
    figure(&dir.join("compare.png"), &keys, &args.backends, reference, &runs).map_err(|e| CliError::runtime(e.to_string()))?;
    Ok(table(&rows, reference))
}

fn number(summary: &BTreeMap<String, Value>, key: &str) -> Option<f64> {
    summary.get(key).and_then(Value::as_f64)
}

/// The keys to compare: those asked for, or the headline keys and per-flow throughputs
/// that every run has. A key asked for must be a number in every run of each backend that
/// reports it and be reported by one at least; a backend whose summaries all lack it does
/// not report it (its row says so).
fn keys(asked: &[String], runs: &BTreeMap<&str, Vec<BTreeMap<String, Value>>>) -> Result<Vec<String>, CliError> {
    let all = || runs.values().flatten();
    if !asked.is_empty() {
        for key in asked {
            let mut reported = false;
            for (b, rs) in runs {
                let n = rs.iter().filter(|s| number(s, key).is_some()).count();
                if n > 0 && n < rs.len() {
                    return Err(CliError::usage(format!("--keys: \"{key}\" is a number in {n} of the {} summary.json files of backend {b}; expected all of them or none (a key the backend does not report)", rs.len())));
                }
                reported |= n > 0;
            }
            if !reported {
                return Err(CliError::usage(format!("--keys: \"{key}\" is not a number in any summary.json (backends {})", runs.keys().copied().collect::<Vec<_>>().join(", "))));
            }
        }
        return Ok(asked.to_vec());
    }
    let first = all().next().expect("at least one run");
    let flows = first.keys().filter(|k| (k.starts_with("flow.") || k.starts_with("mptcp.")) && k.ends_with(".throughput_mbps") && !k.contains(".sf"));
    let candidates: Vec<String> = HEADLINE.iter().map(|k| k.to_string()).chain(flows.cloned()).collect();
    Ok(candidates.into_iter().filter(|k| all().all(|s| number(s, k).is_some())).collect())
}

/// One key on one backend.
struct Row {
    key: String,
    backend: String,
    /// One per run; none where the backend does not report the key.
    values: Vec<f64>,
    versus: Versus,
}

/// A row against the reference backend's.
enum Versus {
    /// The reference itself.
    Reference,
    /// (median - reference's median) / reference's median.
    Error(f64),
    /// No relative error: the backend named (this row's or the reference) does not report
    /// the key (its summaries lack it, as the `quic` backend's lack retransmissions).
    NotReported(String),
    /// No relative error: the reference's median is 0 (a count of drops or timeouts that
    /// were none), and a ratio over it is no number.
    ReferenceZero,
}

impl Versus {
    /// compare.csv's relative_error cell: empty where there is none.
    fn cell(&self) -> String {
        match self {
            Versus::Error(e) => e.to_string(),
            _ => String::new(),
        }
    }

    /// report.md's cell: the error, or why there is none.
    fn text(&self) -> String {
        match self {
            Versus::Reference => "reference".to_string(),
            Versus::Error(e) => format!("{:+.1} %", 100.0 * e),
            Versus::NotReported(b) => format!("n/a: not reported by {b}"),
            Versus::ReferenceZero => "n/a: reference median 0".to_string(),
        }
    }
}

/// The reproductions' median (NaN for no values).
fn median(v: &[f64]) -> f64 {
    pathpool_reproduce::stats::median(v).unwrap_or(f64::NAN)
}

fn range(v: &[f64]) -> (f64, f64) {
    v.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| (lo.min(x), hi.max(x)))
}

/// A compare.csv number: empty where there is none (no runs reported it).
fn cell(x: f64) -> String {
    if x.is_finite() {
        x.to_string()
    } else {
        String::new()
    }
}

fn rows(keys: &[String], backends: &[String], reference: &str, runs: &BTreeMap<&str, Vec<BTreeMap<String, Value>>>) -> Vec<Row> {
    let values = |b: &str, k: &str| -> Vec<f64> { runs[b].iter().filter_map(|s| number(s, k)).collect() };
    let mut out = Vec::new();
    for k in keys {
        let base = values(reference, k);
        for b in backends {
            let v = values(b, k);
            let versus = if v.is_empty() {
                Versus::NotReported(b.clone())
            } else if b == reference {
                Versus::Reference
            } else if base.is_empty() {
                Versus::NotReported(reference.to_string())
            } else if median(&base) == 0.0 {
                Versus::ReferenceZero
            } else {
                Versus::Error((median(&v) - median(&base)) / median(&base))
            };
            out.push(Row { key: k.clone(), backend: b.clone(), values: v, versus });
        }
    }
    out
}

fn csv(rows: &[Row]) -> String {
    let mut s = String::from("key,backend,runs,median,min,max,relative_error\n");
    for r in rows {
        let (lo, hi) = range(&r.values);
        s.push_str(&format!("{},{},{},{},{},{},{}\n", r.key, r.backend, r.values.len(), cell(median(&r.values)), cell(lo), cell(hi), r.versus.cell()));
    }
    s
}

fn table(rows: &[Row], reference: &str) -> String {
    let mut t = format!("| key | backend | median [min, max] (runs) | vs {reference} |\n|---|---|---|---|\n");
    for r in rows {
        let (lo, hi) = range(&r.values);
        let value = if r.values.is_empty() { "- (0)".to_string() } else { format!("{:.4} [{lo:.4}, {hi:.4}] ({})", median(&r.values), r.values.len()) };
        t.push_str(&format!("| {} | {} | {value} | {} |\n", r.key, r.backend, r.versus.text()));
    }
    t
}

fn report(rows: &[Row], reference: &str, command: &str) -> String {
    format!(
        "# One scenario on several backends\n\n`{command}`\n\nEach value is the median [min, max] (number of runs; run K of every backend takes seed K). \"vs {reference}\" is (median - {reference}'s median) / {reference}'s median; a key a backend does not report (absent from its summary.json, as the quic backend's retransmissions) has no value there and no relative error, and none is taken over a reference median of 0 (\"n/a: reference median 0\"; compare.csv's cell is empty). Every run's output folder is under BACKEND/run-K/.\n\n{}\n![each run's value over the reference's median](compare.png)\n",
        table(rows, reference)
    )
}

/// One figure: per key and backend, each run's value over the reference's median.
fn figure(path: &Path, keys: &[String], backends: &[String], reference: &str, runs: &BTreeMap<&str, Vec<BTreeMap<String, Value>>>) -> Result<(), pathpool_plot::PlotError> {
    let mut groups = Vec::new();
    for k in keys {
        let base = median(&runs[reference].iter().filter_map(|s| number(s, k)).collect::<Vec<_>>());
        for b in backends {
            let v = runs[b.as_str()].iter().filter_map(|s| number(s, k)).map(|x| x / base).collect();
            groups.push(pathpool_plot::BoxGroup::new(k.clone(), v).scheme(b.clone()));
        }
    }
    let title = format!("each run's value / {reference}'s median");
    let y = format!("value / {reference} median");
    let titles = pathpool_plot::BoxTitles { title: &title, x_label: "summary key", y_label: &y, paper: "" };
    pathpool_plot::box_plot(path, &titles, &groups, 1600, 600)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(pairs: &[(&str, f64)]) -> BTreeMap<String, Value> {
        pairs.iter().map(|(k, v)| (k.to_string(), serde_json::json!(v))).collect()
    }

    /// A key one backend leaves out (the quic backend's retransmissions) gets no value and no
    /// relative error there, rather than an error computed over nothing; a key only part of
    /// a backend's runs have is refused, as is one no backend reports.
    #[test]
    fn a_key_a_backend_does_not_report_has_no_relative_error() {
        let mut runs: BTreeMap<&str, Vec<BTreeMap<String, Value>>> = BTreeMap::new();
        runs.insert("linux", vec![summary(&[("flow.a.retransmissions", 10.0)]), summary(&[("flow.a.retransmissions", 30.0)])]);
        runs.insert("quic", vec![summary(&[]), summary(&[])]);
        let backends = ["linux".to_string(), "quic".to_string()];
        let asked = ["flow.a.retransmissions".to_string()];
        let chosen = keys(&asked, &runs).unwrap();
        let text = csv(&rows(&chosen, &backends, "linux", &runs));
        assert_eq!(text, "key,backend,runs,median,min,max,relative_error\nflow.a.retransmissions,linux,2,20,10,30,\nflow.a.retransmissions,quic,0,,,,\n");
        let r = rows(&chosen, &backends, "quic", &runs);
        assert_eq!(r[0].versus.text(), "n/a: not reported by quic");
        assert_eq!(r[1].versus.text(), "n/a: not reported by quic");

        runs.get_mut("quic").unwrap()[0] = summary(&[("flow.a.retransmissions", 1.0)]);
        let err = keys(&asked, &runs).unwrap_err().to_string();
        assert!(err.contains("1 of the 2") && err.contains("quic"), "{err}");
        let err = keys(&["flow.b.retransmissions".to_string()], &runs).unwrap_err().to_string();
        assert!(err.contains("not a number in any summary.json"), "{err}");
    }

    /// A reference median of 0 (no drops on the reference) gives no ratio: an empty cell in
    /// compare.csv, and report.md says why, where a division would write NaN or inf.
    #[test]
    fn no_relative_error_over_a_reference_median_of_0() {
        let mut runs: BTreeMap<&str, Vec<BTreeMap<String, Value>>> = BTreeMap::new();
        runs.insert("linux", vec![summary(&[("bottleneck_drops", 0.0)]), summary(&[("bottleneck_drops", 0.0)]), summary(&[("bottleneck_drops", 4.0)])]);
        runs.insert("sim", vec![summary(&[("bottleneck_drops", 3.0)]), summary(&[("bottleneck_drops", 0.0)]), summary(&[("bottleneck_drops", 0.0)])]);
        let backends = ["linux".to_string(), "sim".to_string()];
        let r = rows(&["bottleneck_drops".to_string()], &backends, "linux", &runs);
        assert_eq!(csv(&r), "key,backend,runs,median,min,max,relative_error\nbottleneck_drops,linux,3,0,0,4,\nbottleneck_drops,sim,3,0,0,3,\n");
        let md = report(&r, "linux", "pathpool compare");
        assert!(md.contains("| bottleneck_drops | sim | 0.0000 [0.0000, 3.0000] (3) | n/a: reference median 0 |"), "{md}");
        assert!(!md.contains("NaN") && !md.contains("inf"), "{md}");
    }
}
