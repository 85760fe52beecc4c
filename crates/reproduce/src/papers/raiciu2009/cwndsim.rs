//! [S1] §5.1, Figs. 7-8: cwndsim (exogenous per-packet loss, one increase or decrease per
//! round) with the RTT COMPENSATOR (= LIA), RTT1 = 5 RTT2; equal loss rates (Fig. 7) and
//! path 2 ten times lossier (Fig. 8).

use crate::job::{Job, Results};
use crate::papers::seeds::{median, seed_id};
use crate::numbers::fmt;
use crate::stats;
use crate::{Options, PaperOut};
use pathpool_cc::Algorithm;
use pathpool_plot::{Panel, Series};
use pathpool_windowsim::{run_cwndsim, CwndSimConfig};
use serde_json::{json, Value};

/// (figure, loss per path, S1's a) ; RTTs are 5Δ and Δ in both.
const RUNS: [(&str, [f64; 2], &str); 2] = [("fig7", [0.001, 0.001], "1.39 (formula)"), ("fig8", [0.001, 0.01], "1.106 (printed; see note)")];
const RTT: [f64; 2] = [5.0, 1.0];
const ROUNDS: (u64, u64) = (200_000, 50_000);
const TRACE_ROUNDS: u64 = 5000;
const SAMPLE_EVERY: u64 = 5;
/// Seeds of the statistics (full, quick); seed 1's trace is plotted.
const SEEDS: (u64, u64) = (10, 3);

fn config(opts: &Options, loss: [f64; 2], seed: u64) -> CwndSimConfig {
    let rounds = if opts.quick { ROUNDS.1 } else { ROUNDS.0 };
    CwndSimConfig { trace_rounds: TRACE_ROUNDS, sample_every: SAMPLE_EVERY, ..CwndSimConfig::new(Algorithm::Lia, loss.to_vec(), RTT.to_vec(), rounds, seed) }
}

pub fn plan(opts: &Options) -> Vec<Job> {
    let mut jobs = Vec::new();
    for (fig, loss, _) in RUNS {
        for seed in opts.seeds(SEEDS.0, SEEDS.1) {
            let cfg = config(opts, loss, seed);
            let spec = format!("pathpool {} cwndsim {cfg:?}", env!("CARGO_PKG_VERSION"));
            jobs.push(Job::new(seed_id(fig, seed), spec, move || run(&cfg)));
        }
    }
    jobs
}

fn run(cfg: &CwndSimConfig) -> Result<Value, String> {
    let r = run_cwndsim(cfg).map_err(|e| e.to_string())?;
    let mut v = json!({
        "window_mean_1": r.paths[0].window_mean,
        "window_mean_2": r.paths[1].window_mean,
        "window_ratio": r.paths[0].window_mean / r.paths[1].window_mean,
        "throughput_1": r.paths[0].throughput,
        "throughput_2": r.paths[1].throughput,
        "throughput_total": r.throughput_total,
        "tcp_best_throughput": r.tcp_best_throughput,
        "total_over_tcp_best": r.total_over_tcp_best(),
        "alpha_mean": r.alpha_mean,
        "alpha_from_mean_windows": r.alpha_from_mean_windows,
    });
    if cfg.seed == 1 {
        v["trace"] = json!({
            "time": r.samples.iter().map(|s| s.time).collect::<Vec<_>>(),
            "w1": r.samples.iter().map(|s| s.windows[0]).collect::<Vec<_>>(),
            "w2": r.samples.iter().map(|s| s.windows[1]).collect::<Vec<_>>(),
            "alpha": r.samples.iter().map(|s| s.alpha).collect::<Vec<_>>(),
            "tcp_best": r.tcp_best_throughput,
        });
    }
    Ok(v)
}

pub fn report(opts: &Options, results: &Results, out: &mut PaperOut) -> Result<(), String> {
    let rounds = if opts.quick { ROUNDS.1 } else { ROUNDS.0 };
    let seeds = if opts.quick { SEEDS.1 } else { SEEDS.0 };
    out.heading("Figs. 7-8 (§5.1): cwndsim, RTT compensation");
    out.para(&format!(
        "`pathpool cwndsim --algo lia --rtt 5,1 --loss P1,P2 --rounds {rounds}`: LIA (S1's RTT COMPENSATOR) over two paths with RTT1 = 5 Δ, RTT2 = Δ and constant per-packet loss; {seeds} seeds, medians; the plots are seed 1's last {TRACE_ROUNDS} rounds. `a` is the controller's, recomputed from the current windows (S1 §4); 'a from mean windows' is S1's prescient value (§4's formula on the mean windows)."
    ));
    let mut rows = Vec::new();
    for (fig, loss, paper_a) in RUNS {
        let m = |k: &str| median(results, fig, k);
        rows.push(vec![
            fig.into(),
            format!("{}, {}", loss[0], loss[1]),
            fmt(m("alpha_mean")),
            fmt(m("alpha_from_mean_windows")),
            paper_a.into(),
            fmt(m("window_ratio")),
            fmt(m("total_over_tcp_best")),
        ]);
        out.key(&format!("cwndsim_{fig}_a_mean"), m("alpha_mean"));
        out.key(&format!("cwndsim_{fig}_total_over_tcp_best"), m("total_over_tcp_best"));
    }
    out.table(&["figure", "loss p1, p2", "a (mean)", "a from mean windows", "S1's a", "w1 / w2", "total / TCP on best path (S1: close to 1)"], &rows);
    let m = |fig: &str, k: &str| fmt(median(results, fig, k));
    let (lo, hi) = alpha_range(results, "fig8");
    out.para(&format!(
        "Fig. 7: equal loss rates give equal windows (ours: w1/w2 = {}), so path 2 (RTT Δ) carries five times path 1's rate (S1's text says path 1, which contradicts RTT1 = 5 RTT2), and at equal windows a = 50/36 = 1.39 (ours: {} mean, {} from the mean windows). Fig. 8: S1 prints a = 1.106 for windows in the ratio 10 : 1, but its own formula gives 11/9 = 1.22 there (1.106 is about its square root: a slip of the paper, docs/raiciu2009.md). Ours: w1/w2 = {}, mean a {}, {} from the mean windows; in seed 1's trace a swings between {} and {} (5th and 95th percentiles) as path 2's small window grows and collapses. In both runs the total rate is close to what TCP gets on the best path (goal 1; S1: 'very close'), ours {} and {} of it.",
        m("fig7", "window_ratio"),
        m("fig7", "alpha_mean"),
        m("fig7", "alpha_from_mean_windows"),
        m("fig8", "window_ratio"),
        m("fig8", "alpha_mean"),
        m("fig8", "alpha_from_mean_windows"),
        fmt(lo),
        fmt(hi),
        m("fig7", "total_over_tcp_best"),
        m("fig8", "total_over_tcp_best"),
    ));
    for (fig, loss, paper_a) in RUNS {
        plot(results, out, fig, loss, paper_a)?;
    }
    Ok(())
}

/// Ours `a` over time and S1's value as a reference line (its number is the first word of
/// `paper_a`).
fn a_series(ours: Vec<(f64, f64)>, paper_a: &str, span: (f64, f64)) -> Vec<Series> {
    let mut series = vec![Series::new("a", ours).scheme("lia")];
    if let Some(a) = paper_a.split(' ').next().and_then(|w| w.parse::<f64>().ok()) {
        series.push(Series::reference(format!("S1: a = {paper_a}"), vec![(span.0, a), (span.1, a)]));
    }
    series
}

/// The 5th and 95th percentiles of `a` in seed 1's trace.
fn alpha_range(results: &Results, fig: &str) -> (Option<f64>, Option<f64>) {
    let alpha: Vec<f64> = results
        .get(&seed_id(fig, 1))
        .and_then(|v| v.get("trace")?.get("alpha")?.as_array().cloned())
        .map(|a| a.iter().filter_map(Value::as_f64).collect())
        .unwrap_or_default();
    (stats::quantile(&alpha, 0.05), stats::quantile(&alpha, 0.95))
}

fn plot(results: &Results, out: &mut PaperOut, fig: &str, loss: [f64; 2], paper_a: &str) -> Result<(), String> {
    let Some(t) = results.get(&seed_id(fig, 1)).and_then(|v| v.get("trace")) else { return Ok(()) };
    let list = |k: &str| -> Vec<f64> { t[k].as_array().map(|a| a.iter().filter_map(Value::as_f64).collect()).unwrap_or_default() };
    let (time, w1, w2, alpha) = (list("time"), list("w1"), list("w2"), list("alpha"));
    let pts = |ys: &[f64], scale: f64| time.iter().zip(ys).map(|(&x, &y)| (x, y / scale)).collect::<Vec<_>>();
    let total: Vec<f64> = w1.iter().zip(&w2).map(|(a, b)| a / RTT[0] + b / RTT[1]).collect();
    let best = t["tcp_best"].as_f64().unwrap_or(f64::NAN);
    let span = (time.first().copied().unwrap_or(0.0), time.last().copied().unwrap_or(0.0));
    let panels = [
        Panel { title: format!("{fig}: windows (loss {}, {}; RTT 5Δ, Δ)", loss[0], loss[1]), x_label: "time (Δ)".into(), y_label: "window (packets)".into(), series: vec![Series::new("w1 (RTT 5Δ)", pts(&w1, 1.0)), Series::new("w2 (RTT Δ)", pts(&w2, 1.0))] },
        Panel { title: format!("{fig}: a"), x_label: "time (Δ)".into(), y_label: "a".into(), series: a_series(pts(&alpha, 1.0), paper_a, span) },
        Panel {
            title: format!("{fig}: throughput"),
            x_label: "time (Δ)".into(),
            y_label: "packets per Δ".into(),
            series: vec![
                Series::new("path 1", pts(&w1, RTT[0])),
                Series::new("path 2", pts(&w2, RTT[1])),
                Series::new("total", pts(&total, 1.0)),
                Series::new("TCP on best path (mean)", vec![(span.0, best), (span.1, best)]),
            ],
        },
    ];
    out.lines(&format!("{fig}_cwndsim"), &format!("S1 {fig}: cwndsim windows, a and throughput"), &panels)
}
