//! `pathpool cwndsim`: [S1] §5.1's window-level simulator (exogenous per-packet loss, one
//! increase or decrease per round). Writes summary.json, timeseries.csv and windows.png.

use super::window_flags::{config_usage, parse_one};
use crate::error::{parse_list, CliError};
use crate::outdir::OutDir;
use pathpool_cc::Algorithm;
use pathpool_plot::{line_panels, Panel, Series};
use pathpool_windowsim::{run_cwndsim, CwndSimConfig, CwndSimResult};
use serde_json::{Map, Value};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;

/// The algorithms that make sense in a window model driven by loss alone.
const ALGORITHMS: [&str; 6] = ["uncoupled", "fully-coupled", "linked-increases", "lia", "olia", "balia"];

#[derive(clap::Args, Debug)]
pub struct CwndsimArgs {
    /// Multipath algorithm: uncoupled, fully-coupled, linked-increases, lia, olia or balia.
    #[arg(long, value_name = "ALGO")]
    algo: String,
    /// Per-packet loss probability of each path, comma-separated, each in (0, 1).
    #[arg(long, value_name = "P1,P2,...", allow_hyphen_values = true)]
    loss: String,
    /// Round-trip time of each path in units of the base time Δ, comma-separated, each > 0.
    #[arg(long, value_name = "R1,R2,...", allow_hyphen_values = true)]
    rtt: String,
    /// Number of rounds; a round lasts the smallest RTT.
    #[arg(long, value_name = "N", default_value = "200000", allow_hyphen_values = true)]
    rounds: String,
    /// Seed of the loss process.
    #[arg(long, value_name = "S", default_value = "1", allow_hyphen_values = true)]
    seed: String,
    /// timeseries.csv and windows.png cover the last N rounds (all rounds when N is larger);
    /// the summary always covers the whole run.
    #[arg(long, value_name = "N", default_value = "5000", allow_hyphen_values = true)]
    trace_rounds: String,
    /// One time-series row every K rounds.
    #[arg(long, value_name = "K", default_value = "1", allow_hyphen_values = true)]
    sample_every: String,
    /// A fixed `a` for linked-increases ([S1] §3); by default `a` is recomputed from the
    /// current windows and RTTs ([S1] §4), as LIA does.
    #[arg(long, value_name = "A", allow_hyphen_values = true)]
    a: Option<String>,
    /// Output folder (created; must not be a file).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

pub fn run(args: CwndsimArgs) -> Result<(), CliError> {
    let cfg = config(&args)?;
    let out = OutDir::create("--out", &args.out)?;
    let result = run_cwndsim(&cfg).map_err(config_usage)?;
    std::fs::write(out.join("summary.json"), summary(&args.algo, &cfg, &result))?;
    std::fs::write(out.join("timeseries.csv"), timeseries(&cfg, &result))?;
    plot(&args.algo, &cfg, &result, &out.join("windows.png"))?;
    out.finish()?;
    report(&args.algo, &result, &args.out);
    Ok(())
}

/// Parses and checks every flag before anything is created.
fn config(args: &CwndsimArgs) -> Result<CwndSimConfig, CliError> {
    if !ALGORITHMS.contains(&args.algo.as_str()) {
        return Err(CliError::usage(format!("--algo: expected one of {}, got '{}'", ALGORITHMS.join(", "), args.algo)));
    }
    let algorithm: Algorithm = args.algo.parse().map_err(|e| CliError::usage(format!("--algo: {e}")))?;
    let loss = parse_list::<f64>("--loss", &args.loss, "probabilities in (0, 1)")?;
    let rtt = parse_list::<f64>("--rtt", &args.rtt, "positive RTTs in units of Δ")?;
    let whole = "a whole number >= 0";
    let rounds = parse_one("--rounds", &args.rounds, whole)?;
    let seed = parse_one("--seed", &args.seed, whole)?;
    let cfg = CwndSimConfig {
        trace_rounds: parse_one("--trace-rounds", &args.trace_rounds, whole)?,
        sample_every: parse_one("--sample-every", &args.sample_every, whole)?,
        linked_increases_a: args.a.as_deref().map(|a| parse_one("--a", a, "a positive number")).transpose()?,
        ..CwndSimConfig::new(algorithm, loss, rtt, rounds, seed)
    };
    cfg.validate().map_err(config_usage)?;
    Ok(cfg)
}

/// The headline figures on stdout; everything else is in the files.
fn report(algo: &str, r: &CwndSimResult, out: &std::path::Path) {
    // A closed stdout (`| head`) must not turn a finished run into a failure.
    let mut o = std::io::stdout().lock();
    let alpha = if has_alpha(algo) { format!(", alpha_mean {:.3}", r.alpha_mean) } else { String::new() };
    let _ = writeln!(
        o,
        "cwndsim {algo}: throughput_total {:.2} packets/Δ, tcp_best_throughput {:.2} (path {}), total_over_tcp_best {:.3}{alpha}",
        r.throughput_total,
        r.tcp_best_throughput,
        r.tcp_best_path + 1,
        r.total_over_tcp_best()
    );
    let _ = writeln!(o, "summary: {}", out.join("summary.json").display());
    let _ = writeln!(o, "series:  {}", out.join("timeseries.csv").display());
    let _ = writeln!(o, "plot:    {}", out.join("windows.png").display());
}

fn has_alpha(algo: &str) -> bool {
    matches!(algo, "lia" | "linked-increases")
}

fn summary(algo: &str, cfg: &CwndSimConfig, r: &CwndSimResult) -> String {
    let mut m = Map::new();
    let mut put = |k: String, v: Value| {
        m.insert(k, v);
    };
    put("algo".into(), algo.into());
    put("rounds".into(), cfg.rounds.into());
    put("seed".into(), cfg.seed.into());
    put("paths".into(), cfg.n_paths().into());
    put("round_length".into(), cfg.round_length().into());
    for i in 0..cfg.n_paths() {
        let k = i + 1;
        put(format!("loss_{k}"), cfg.loss[i].into());
        put(format!("rtt_{k}"), cfg.rtt[i].into());
        put(format!("window_mean_{k}"), r.paths[i].window_mean.into());
        put(format!("throughput_{k}"), r.paths[i].throughput.into());
        put(format!("loss_events_{k}"), r.paths[i].loss_events.into());
        put(format!("tcp_window_mean_{k}"), r.tcp[i].window_mean.into());
        put(format!("tcp_throughput_{k}"), r.tcp[i].throughput.into());
    }
    put("throughput_total".into(), r.throughput_total.into());
    put("tcp_best_path".into(), (r.tcp_best_path + 1).into());
    put("tcp_best_throughput".into(), r.tcp_best_throughput.into());
    put("total_over_tcp_best".into(), r.total_over_tcp_best().into());
    if let Some(a) = cfg.linked_increases_a {
        put("a_fixed".into(), a.into());
    }
    if has_alpha(algo) {
        put("alpha_mean".into(), r.alpha_mean.into());
        put("alpha_from_mean_windows".into(), r.alpha_from_mean_windows.into());
    }
    let mut text = serde_json::to_string_pretty(&Value::Object(m)).expect("finite numbers serialise");
    text.push('\n');
    text
}

fn timeseries(cfg: &CwndSimConfig, r: &CwndSimResult) -> String {
    let n = cfg.n_paths();
    let mut s = String::from("round,time");
    (1..=n).for_each(|k| write!(s, ",window_{k}").unwrap());
    s.push_str(",alpha");
    (1..=n).for_each(|k| write!(s, ",throughput_{k}").unwrap());
    s.push_str(",throughput_total\n");
    for sample in &r.samples {
        write!(s, "{},{}", sample.round, sample.time).unwrap();
        sample.windows.iter().for_each(|w| write!(s, ",{w}").unwrap());
        write!(s, ",{}", sample.alpha).unwrap();
        let rates: Vec<f64> = sample.windows.iter().zip(&cfg.rtt).map(|(w, rtt)| w / rtt).collect();
        rates.iter().for_each(|x| write!(s, ",{x}").unwrap());
        writeln!(s, ",{}", rates.iter().sum::<f64>()).unwrap();
    }
    s
}

/// Windows, `a` and throughputs over time, like [S1] Figs 7-8.
fn plot(algo: &str, cfg: &CwndSimConfig, r: &CwndSimResult, path: &std::path::Path) -> Result<(), CliError> {
    let n = cfg.n_paths();
    let t: Vec<f64> = r.samples.iter().map(|s| s.time).collect();
    let per_path = |f: &dyn Fn(usize, f64) -> f64, name: &str| -> Vec<Series> {
        (0..n)
            .map(|i| {
                Series::new(
                    format!("{name} {}", i + 1),
                    r.samples.iter().zip(&t).map(|(s, &x)| (x, f(i, s.windows[i]))).collect(),
                )
            })
            .collect()
    };
    let title = format!(
        "{algo}: loss {}, RTT {} Δ, rounds {}..{} of {}",
        cfg_list(&cfg.loss),
        cfg_list(&cfg.rtt),
        cfg.trace_start(),
        cfg.rounds,
        cfg.rounds
    );
    let mut panels = vec![Panel {
        title: format!("{title}: windows"),
        x_label: "time (Δ)".into(),
        y_label: "window (packets)".into(),
        series: per_path(&|_, w| w, "path"),
    }];
    if has_alpha(algo) {
        let alpha = r.samples.iter().zip(&t).map(|(s, &x)| (x, s.alpha)).collect();
        panels.push(Panel {
            title: format!("a (mean over the run {:.3})", r.alpha_mean),
            x_label: "time (Δ)".into(),
            y_label: "a".into(),
            series: vec![Series::new("a", alpha)],
        });
    }
    let mut rates = per_path(&|i, w| w / cfg.rtt[i], "path");
    let total =
        r.samples.iter().zip(&t).map(|(s, &x)| (x, s.windows.iter().zip(&cfg.rtt).map(|(w, q)| w / q).sum())).collect();
    rates.push(Series::new("total", total));
    let (t0, t1) = (t.first().copied().unwrap_or(0.0), t.last().copied().unwrap_or(0.0));
    let best = r.tcp_best_throughput;
    rates.push(Series::new(format!("TCP on best path, mean {best:.2}"), vec![(t0, best), (t1, best)]));
    panels.push(Panel {
        title: format!("throughput (over the run: total / TCP on best path = {:.3})", r.total_over_tcp_best()),
        x_label: "time (Δ)".into(),
        y_label: "packets per Δ".into(),
        series: rates,
    });
    line_panels(path, &panels, 1000, 300).map_err(|e| CliError::runtime(e.to_string()))
}

fn cfg_list(xs: &[f64]) -> String {
    xs.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")
}
