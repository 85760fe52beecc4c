//! `pathpool windowsim`: [S3] §7.4's window-growth simulation (an 80-packet FIFO per link,
//! initial window 10, 600 cycles) for coupled algorithms against NewReno. Writes one CSV per
//! run, one PNG per scenario and RTT ratio (a panel per algorithm, like [S3] Figs 6-17),
//! summary.json and summary.csv.

use super::window_flags::{config_usage, parse_one};
use crate::error::{parse_list, CliError};
use crate::outdir::OutDir;
use pathpool_cc::Algorithm;
use pathpool_plot::{line_panels, Panel, Series};
use pathpool_windowsim::{run_growth, GrowthConfig, GrowthResult, Scenario};
use serde_json::{Map, Value};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;

/// [S3] §7.4 simulates these three; the others are accepted for comparison.
const S3_ALGORITHMS: [&str; 3] = ["lia", "olia", "balia"];
const ALGORITHMS: [&str; 6] = ["lia", "olia", "balia", "linked-increases", "fully-coupled", "uncoupled"];
const S3_RTT_RATIOS: [u32; 3] = [1, 2, 3];

#[derive(clap::Args, Debug)]
pub struct WindowsimArgs {
    /// Multipath algorithms, comma-separated (lia, olia, balia, linked-increases,
    /// fully-coupled, uncoupled), or all (= lia,olia,balia).
    #[arg(long, value_name = "ALGO", default_value = "all")]
    algo: String,
    /// alone (disjoint links, no other traffic), competing (subflow 1 shares its link with a
    /// NewReno flow), or all.
    #[arg(long, value_name = "SCENARIO", default_value = "all")]
    scenario: String,
    /// Subflow 2's RTT as a multiple of subflow 1's, comma-separated integers, or all (= 1,2,3).
    #[arg(long, value_name = "K", default_value = "all", allow_hyphen_values = true)]
    rtt_ratio: String,
    /// Number of cycles (one cycle = subflow 1's RTT).
    #[arg(long, value_name = "N", default_value = "600", allow_hyphen_values = true)]
    cycles: String,
    /// Packets a link's FIFO holds before it drops.
    #[arg(long, value_name = "PACKETS", default_value = "80", allow_hyphen_values = true)]
    buffer: String,
    /// Initial window of every flow (packets).
    #[arg(long, value_name = "PACKETS", default_value = "10", allow_hyphen_values = true)]
    initial_cwnd: String,
    /// Output folder (created; must not be a file).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

struct Run {
    algo: String,
    cfg: GrowthConfig,
    result: GrowthResult,
}

pub fn run(args: WindowsimArgs) -> Result<(), CliError> {
    let configs = configs(&args)?;
    let out = OutDir::create("--out", &args.out)?;
    let mut runs = Vec::with_capacity(configs.len());
    for (algo, cfg) in configs {
        let result = run_growth(&cfg).map_err(config_usage)?;
        std::fs::write(out.join(&format!("{}.csv", stem(&algo, &cfg))), rows_csv(&result))?;
        runs.push(Run { algo, cfg, result });
    }
    for group in runs.chunk_by(|a, b| a.cfg.scenario == b.cfg.scenario && a.cfg.rtt_ratio == b.cfg.rtt_ratio) {
        let cfg = &group[0].cfg;
        plot(group, &out.join(&format!("{}_rtt{}.png", cfg.scenario, cfg.rtt_ratio)))?;
    }
    std::fs::write(out.join("summary.json"), summary_json(&runs))?;
    std::fs::write(out.join("summary.csv"), summary_csv(&runs))?;
    out.finish()?;
    report(&runs, &args.out);
    Ok(())
}

/// Every (scenario, RTT ratio, algorithm) to run, grouped by scenario and ratio; all flags
/// are checked before anything is created.
fn configs(args: &WindowsimArgs) -> Result<Vec<(String, GrowthConfig)>, CliError> {
    let algos: Vec<String> = if args.algo == "all" {
        S3_ALGORITHMS.iter().map(|s| s.to_string()).collect()
    } else {
        args.algo.split(',').map(|s| s.trim().to_string()).collect()
    };
    let mut parsed = Vec::with_capacity(algos.len());
    for a in &algos {
        if !ALGORITHMS.contains(&a.as_str()) {
            return Err(CliError::usage(format!(
                "--algo: expected all or a comma-separated list of {}, got '{a}'",
                ALGORITHMS.join(", ")
            )));
        }
        let alg: Algorithm = a.parse().map_err(|e| CliError::usage(format!("--algo: {e}")))?;
        parsed.push((a.clone(), alg));
    }
    let scenarios: Vec<Scenario> = match args.scenario.as_str() {
        "all" => Scenario::ALL.to_vec(),
        s => vec![s.parse().map_err(|e| CliError::usage(format!("--scenario: expected all or {e}")))?],
    };
    let ratios: Vec<u32> = match args.rtt_ratio.as_str() {
        "all" => S3_RTT_RATIOS.to_vec(),
        s => parse_list("--rtt-ratio", s, "integers from 1 up, or all")?,
    };
    let cycles = parse_one("--cycles", &args.cycles, "a whole number of cycles")?;
    let buffer = parse_one("--buffer", &args.buffer, "a FIFO length in packets")?;
    let initial_cwnd = parse_one("--initial-cwnd", &args.initial_cwnd, "a window in packets")?;
    let mut out = Vec::new();
    for &scenario in &scenarios {
        for &rtt_ratio in &ratios {
            for (name, alg) in &parsed {
                let cfg = GrowthConfig { cycles, buffer, initial_cwnd, ..GrowthConfig::s3(*alg, scenario, rtt_ratio) };
                cfg.validate().map_err(config_usage)?;
                out.push((name.clone(), cfg));
            }
        }
    }
    Ok(out)
}

/// One line per run on stdout: how subflow 1 fares against NewReno after the start-up.
fn report(runs: &[Run], out: &std::path::Path) {
    // A closed stdout (`| head`) must not turn a finished run into a failure.
    let mut o = std::io::stdout().lock();
    for run in runs {
        let x = run.result.late_mean.rates(run.cfg.rtt_ratio);
        let _ = writeln!(
            o,
            "{:<9} rtt x{} {:<16} last third: NewReno {:6.2}, subflow 1 {:6.2}, subflow 2 {:6.2} packets/cycle",
            run.cfg.scenario.name(),
            run.cfg.rtt_ratio,
            run.algo,
            x.tcp,
            x.sf1,
            x.sf2
        );
    }
    let _ = writeln!(
        o,
        "summary: {} (and summary.csv); per-run CSVs and PNGs beside it",
        out.join("summary.json").display()
    );
}

fn stem(algo: &str, cfg: &GrowthConfig) -> String {
    format!("{}_rtt{}_{algo}", cfg.scenario, cfg.rtt_ratio)
}

fn rows_csv(r: &GrowthResult) -> String {
    let mut s = String::from("cycle,tcp_cwnd,sf1_cwnd,sf2_cwnd\n");
    for row in &r.rows {
        writeln!(s, "{},{},{},{}", row.cycle, row.tcp, row.sf1, row.sf2).unwrap();
    }
    s
}

/// Figures of one run: mean windows and rates (packets per cycle) over the whole run and
/// over its last third, decreases, and the ratios [S3] argues about.
fn figures(run: &Run) -> Vec<(String, Value)> {
    let r = &run.result;
    let mut v: Vec<(String, Value)> = Vec::new();
    for (when, m) in [("", r.mean), ("late_", r.late_mean)] {
        let x = m.rates(run.cfg.rtt_ratio);
        for (flow, w, rate) in [("tcp", m.tcp, x.tcp), ("sf1", m.sf1, x.sf1), ("sf2", m.sf2, x.sf2)] {
            v.push((format!("{when}mean_cwnd_{flow}"), w.into()));
            v.push((format!("{when}throughput_{flow}"), rate.into()));
        }
        v.push((format!("{when}sf1_over_tcp"), (x.sf1 / x.tcp).into()));
        v.push((format!("{when}total_over_tcp"), ((x.sf1 + x.sf2) / x.tcp).into()));
    }
    v.push(("losses_tcp".into(), r.losses_tcp.into()));
    v.push(("losses_sf1".into(), r.losses_sf1.into()));
    v.push(("losses_sf2".into(), r.losses_sf2.into()));
    v
}

fn summary_json(runs: &[Run]) -> String {
    let mut m = Map::new();
    if let Some(first) = runs.first() {
        m.insert("cycles".into(), first.cfg.cycles.into());
        m.insert("buffer".into(), first.cfg.buffer.into());
        m.insert("initial_cwnd".into(), first.cfg.initial_cwnd.into());
    }
    for run in runs {
        let prefix = stem(&run.algo, &run.cfg);
        for (k, v) in figures(run) {
            m.insert(format!("{prefix}_{k}"), v);
        }
    }
    let mut text = serde_json::to_string_pretty(&Value::Object(m)).expect("finite numbers serialise");
    text.push('\n');
    text
}

fn summary_csv(runs: &[Run]) -> String {
    let mut s = String::from("scenario,rtt_ratio,algo");
    if let Some(first) = runs.first() {
        figures(first).iter().for_each(|(k, _)| write!(s, ",{k}").unwrap());
    }
    s.push('\n');
    for run in runs {
        write!(s, "{},{},{}", run.cfg.scenario, run.cfg.rtt_ratio, run.algo).unwrap();
        figures(run).iter().for_each(|(_, v)| write!(s, ",{v}").unwrap());
        s.push('\n');
    }
    s
}

/// One panel per algorithm: NewReno, subflow 1 and subflow 2 windows over cycles.
fn plot(group: &[Run], path: &std::path::Path) -> Result<(), CliError> {
    let panels: Vec<Panel> = group
        .iter()
        .map(|run| {
            let rows = &run.result.rows;
            let line =
                |f: fn(&pathpool_windowsim::GrowthRow) -> f64| rows.iter().map(|r| (r.cycle as f64, f(r))).collect();
            let shared = if run.cfg.scenario == Scenario::Competing { " (shares link 1)" } else { " (own link)" };
            Panel {
                title: format!(
                    "{} — {} — subflow 2 RTT = {}× subflow 1 RTT",
                    run.algo.to_uppercase(),
                    run.cfg.scenario,
                    run.cfg.rtt_ratio
                ),
                x_label: "cycle".into(),
                y_label: "cwnd (packets)".into(),
                series: vec![
                    Series::new(format!("NewReno{shared}"), line(|r| r.tcp)),
                    Series::new(format!("{} subflow 1", run.algo), line(|r| r.sf1)),
                    Series::new(format!("{} subflow 2", run.algo), line(|r| r.sf2)),
                ],
            }
        })
        .collect();
    line_panels(path, &panels, 1000, 320).map_err(|e| CliError::runtime(e.to_string()))
}
