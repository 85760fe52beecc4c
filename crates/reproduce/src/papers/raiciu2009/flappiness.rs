//! [S1] §5.2.1, Figs. 9-10: flappiness on the multipath dumbbell. FULLY COUPLED (FC1, FC2) and
//! LINKED INCREASES (LI1, LI2) with 1 or 5 TCP flows at each bottleneck (S1 Table 1), and
//! UNCOUPLED TCPs as the reference that cannot flap.

use super::windows::EXTREME_SHARE;
use super::{scenario_jobs, SEEDS};
use crate::job::{Job, Results};
use crate::papers::seeds::{median, seed_id};
use crate::numbers::fmt;
use crate::{Options, PaperOut};
use pathpool_plot::{Panel, Series};

/// (experiment, scenario, scheme, TCPs per bottleneck, S1's verdict).
const EXPERIMENTS: [(&str, &str, &str, u32, &str); 6] = [
    ("fc1", "dumbbell-1tcp", "fully-coupled", 1, "still flappy, less than with fixed loss (Fig. 9a)"),
    ("li1", "dumbbell-1tcp", "linked-increases", 1, "not flappy (Fig. 9b)"),
    ("uc1", "dumbbell-1tcp", "uncoupled", 1, "- (reference)"),
    ("fc2", "dumbbell-5tcp", "fully-coupled", 5, "flappier than FC1 (Fig. 10a)"),
    ("li2", "dumbbell-5tcp", "linked-increases", 5, "stable (Fig. 10b)"),
    ("uc2", "dumbbell-5tcp", "uncoupled", 5, "- (reference)"),
];

/// `--quick`: 200 s runs instead of 600 s (both after the files' 60 s warm-up).
pub const QUICK: &[&str] = &["simulation.duration=200s"];

pub fn plan(opts: &Options) -> Result<Vec<Job>, String> {
    let mut jobs = Vec::new();
    for (e, stem, cc, _, _) in EXPERIMENTS {
        jobs.extend(scenario_jobs(opts, opts.seeds(SEEDS.0, SEEDS.1), e, stem, cc, &[], QUICK, true)?);
    }
    Ok(jobs)
}

pub fn report(opts: &Options, results: &Results, out: &mut PaperOut) -> Result<(), String> {
    out.heading("Figs. 9-10 (§5.2.1): flappiness on the multipath dumbbell");
    let seeds = if opts.quick { SEEDS.1 } else { SEEDS.0 };
    out.para(&format!(
        "`pathpool run scenarios/papers/raiciu2009/dumbbell-1tcp.toml --cc fully-coupled` (and `linked-increases`, `uncoupled`; `dumbbell-5tcp.toml` for 5 TCPs per bottleneck): both bottlenecks 500 KB/s with 100 ms RTT (S1 Table 1). A run is flappy when the connection keeps most of its window on one subflow and now and then flips to the other: 'at an extreme' is the share of probe samples (every 100 ms after the warm-up) where one subflow holds more than {:.0} % of the total window, 'flips' counts moves from one subflow holding it to the other. {seeds} seeds, medians; the plots are seed 1.",
        EXTREME_SHARE * 100.0
    ));
    let mut rows = Vec::new();
    for (e, _, cc, tcps, verdict) in EXPERIMENTS {
        let extreme = median(results, e, "flap.mp.extreme_fraction");
        let imbalance = median(results, e, "flap.mp.imbalance");
        // sum_ratio is over the sum of the 2 x tcps competing TCP flows.
        let over_mean_tcp = median(results, e, "sum_ratio").map(|r| r * f64::from(2 * tcps));
        rows.push(vec![e.to_uppercase(), cc.into(), tcps.to_string(), fmt(imbalance), fmt(extreme), fmt(median(results, e, "flap.mp.flips_per_100s")), fmt(over_mean_tcp), verdict.into()]);
        out.key(&format!("{e}_window_imbalance"), imbalance);
        out.key(&format!("{e}_time_at_extreme"), extreme);
    }
    out.table(&["experiment", "scheme", "TCPs per bottleneck", "imbalance", "time at an extreme", "flips per 100 s", "MPTCP / mean TCP", "S1"], &rows);
    out.para("Imbalance: the mean over samples of |w1 - w2| / (w1 + w2) (0: an even split; 1: all on one subflow). MPTCP / mean TCP: the connection's rate over the mean rate of the TCP flows (S1 gives no rates for these runs).");
    let m = |e: &str, k: &str| fmt(median(results, e, k));
    out.para(&format!(
        "As in S1, FULLY COUPLED is the flappy one: its window sits mostly on one subflow and swaps now and then (Fig. 9), LINKED INCREASES keeps both subflows in use. Where ours differs: by these measures FC2 is not flappier than FC1 (imbalance {} against {}), while S1 calls FC2 flappier from one trace each; with five TCPs per bottleneck the connection's subflows hold only about 5 to 10 packets each (Fig. 10), so a subflow cut to one packet regains a fair share within a few round trips. FULLY COUPLED also gets less than one TCP's rate with one TCP per bottleneck ({} of the mean TCP); S1 gives no rates for FC1, but its testbed run of the same topology (§5.3) also left FULLY COUPLED well behind LINKED INCREASES (3.3 against 5.4 Mb/s).",
        m("fc2", "flap.mp.imbalance"),
        m("fc1", "flap.mp.imbalance"),
        fmt(median(results, "fc1", "sum_ratio").map(|r| r * 2.0)),
    ));
    for (fig, pair) in [("fig9", ["fc1", "li1"]), ("fig10", ["fc2", "li2"])] {
        let panels: Vec<Panel> = pair.iter().filter_map(|e| window_panel(results, &seed_id(e, 1), "mp", &format!("{} ({})", e.to_uppercase(), scheme_of(e)))).collect();
        if !panels.is_empty() {
            out.lines(&format!("{fig}_dumbbell_windows"), &format!("S1 {fig}: subflow windows on the dumbbell, seed 1"), &panels)?;
        }
    }
    Ok(())
}

fn scheme_of(e: &str) -> &'static str {
    EXPERIMENTS.iter().find(|x| x.0 == e).map_or("", |x| x.2)
}

/// The two subflow windows of `connection` in the stored trace of job `id`.
pub fn window_panel(results: &Results, id: &str, connection: &str, title: &str) -> Option<Panel> {
    let v = results.get(id)?;
    let list = |k: &str| -> Option<Vec<f64>> { Some(v.get(k)?.as_array()?.iter().filter_map(|x| x.as_f64()).collect()) };
    let time = list("trace.time")?;
    let series = (0..2)
        .filter_map(|k| {
            let w = list(&format!("trace.{connection}.sf{k}"))?;
            Some(Series::new(format!("subflow {}", k + 1), time.iter().copied().zip(w).collect()))
        })
        .collect();
    Some(Panel { title: title.to_string(), x_label: "time (s)".into(), y_label: "cwnd (packets)".into(), series })
}
