//! [S1] §5.2.3 and Fig. 11: resource pooling on the fence (S1 Fig. 2: five links, four
//! multipath flows, flow i on links i and i+1), with equal links and with the middle link at
//! half capacity; and the window traces of a middle flow (flappiness, §5.2.1).

use super::flappiness::window_panel;
use super::{file, link_rate_bps, loss_rate, one_in, per_seed, scenario_jobs, SEEDS};
use crate::job::{Job, Results};
use crate::papers::seeds::{median, seed_id};
use crate::numbers::fmt;
use crate::stats;
use crate::{Claim, Options, PaperOut};
use pathpool_plot::{BoxGroup, BoxTitles};
use serde_json::Value;

/// No `lia`: LIA's cap at the TCP increase (a/w <= 1/w_r) can bind only when one subflow's
/// smoothed RTT is at least 4 times another's (with x_k = w_k/rtt_k it needs
/// rtt_r/rtt_m > (x_r + x_m)^2 / (x_r x_m) >= 4); on the fence every RTT lies between the 100 ms
/// base and 200 ms (a full 1-BDP buffer), so LIA is exactly LINKED INCREASES there.
const SCHEMES: [&str; 3] = ["fully-coupled", "linked-increases", "uncoupled"];
/// `--quick`: 200 s runs instead of 600 s (both after a 60 s warm-up).
const QUICK: &[&str] = &["simulation.duration=200s"];

/// (scenario, S1's rate ratios and loss rates (1/N) of links 1, 2, 3 for FULLY COUPLED,
/// LINKED INCREASES, UNCOUPLED).
const FENCES: [(&str, [f64; 3], [[f64; 3]; 3]); 2] = [
    ("fence", [1.12, 1.33, 1.5], [[5300.0, 3500.0, 2500.0], [5800.0, 2000.0, 775.0], [5700.0, 1200.0, 150.0]]),
    ("fence-middle-half", [1.06, 1.72, 2.2], [[3400.0, 4500.0, 2400.0], [3200.0, 2200.0, 765.0], [3300.0, 950.0, 28.0]]),
];

fn experiment(fence: &str, cc: &str) -> String {
    format!("{fence}/{cc}")
}

pub fn plan(opts: &Options) -> Result<Vec<Job>, String> {
    let mut jobs = Vec::new();
    for (fence, _, _) in FENCES {
        for cc in SCHEMES {
            jobs.extend(scenario_jobs(opts, opts.seeds(SEEDS.0, SEEDS.1), &experiment(fence, cc), fence, cc, &[], QUICK, fence == "fence")?);
        }
    }
    Ok(jobs)
}

/// Flows 1 and 4 (each with a link of its own) over flows 2 and 3: S1's rate ratio of flows
/// 1 and 2, with the mirror image pooled in.
fn rate_ratio(v: &Value) -> Option<f64> {
    let r = |i: u32| v.get(format!("mptcp.flow{i}.throughput_mbps"))?.as_f64();
    let (outer, middle) = (r(1)? + r(4)?, r(2)? + r(3)?);
    (middle > 0.0).then(|| outer / middle)
}

pub fn report(opts: &Options, results: &Results, out: &mut PaperOut) -> Result<(), String> {
    let seeds = if opts.quick { SEEDS.1 } else { SEEDS.0 };
    out.heading("§5.2.3: resource pooling on the fence");
    out.para(&format!(
        "`pathpool run scenarios/papers/raiciu2009/fence.toml --cc fully-coupled` (and `linked-increases`, `uncoupled`; `fence-middle-half.toml`): five links of 400 packets/s (the middle one 200 in the second fence), 100 ms RTT, four two-path flows, flow i on links i and i+1. Rate ratio = (flow 1 + flow 4) / (flow 2 + flow 3), i.e. S1's flow 1 / flow 2 with the mirror image pooled in (1 = perfect pooling; uncoupled Reno gives 1.5 and 2 in theory); loss rates of links 1 and 2 are the means over the link and its mirror (5 and 4). Ours (S1's in brackets); {seeds} seeds, medians. LIA is not run separately: its cap at the TCP increase binds only when one subflow's RTT is at least 4 times another's, never the case here (100 to 200 ms), so it is LINKED INCREASES."
    ));
    let mut groups = Vec::new();
    // Link 3's loss rate per fence and scheme.
    let mut link3 = [[None; 3]; 2];
    for (f, (fence, paper_ratio, paper_loss)) in FENCES.into_iter().enumerate() {
        let mut rows = Vec::new();
        let rates: Vec<f64> = (1..=5).map(|k| link_rate_bps(&file(opts, fence), &[], &format!("link{k}"))).collect::<Result<_, _>>()?;
        for (j, cc) in SCHEMES.iter().enumerate() {
            let e = experiment(fence, cc);
            let ratios = per_seed(results, &e, rate_ratio);
            let ratio = stats::median(&ratios);
            let mut row = vec![cc.to_string(), format!("{} ({})", fmt(ratio), paper_ratio[j])];
            for (k, mirror) in [(1usize, 5usize), (2, 4), (3, 3)] {
                let loss = stats::median(&per_seed(results, &e, |v| {
                    let a = loss_rate(v, &format!("link{k}"), rates[k - 1])?;
                    let b = loss_rate(v, &format!("link{mirror}"), rates[mirror - 1])?;
                    Some((a + b) / 2.0)
                }));
                row.push(format!("{} (1/{})", one_in(loss), paper_loss[k - 1][j]));
                if k == 3 {
                    link3[f][j] = loss;
                    let key = if fence == "fence" { "fence_link3_loss" } else { "fence_half_link3_loss" };
                    out.key(&format!("{key}_{}", cc.replace('-', "_")), loss);
                }
            }
            row.push(fmt(median(results, &e, "flap.flow2.extreme_fraction")));
            rows.push(row);
            let key = if fence == "fence" { "fence_rate_ratio" } else { "fence_half_rate_ratio" };
            out.key(&format!("{key}_{}", cc.replace('-', "_")), ratio);
            if fence == "fence" {
                let p = paper_ratio[j];
                out.claim(Claim::new(format!("Fence, equal links, {cc}: rate ratio"), ratio, p.to_string(), (0.85 * p)..=(1.15 * p), "see section \"Fence\""));
            }
            groups.push(BoxGroup::new(if fence == "fence" { "equal links" } else { "middle link halved" }, ratios).scheme(*cc).paper(Some(paper_ratio[j])));
        }
        out.para(if fence == "fence" { "Equal links:" } else { "Middle link (link 3) at half capacity:" });
        out.table(&["scheme", "rate ratio", "loss link 1", "loss link 2", "loss link 3", "flow 2 time at an extreme"], &rows);
    }
    let surge: Vec<String> = SCHEMES
        .iter()
        .enumerate()
        .map(|(j, cc)| format!("{cc} x{} (S1 x{:.1})", fmt(link3[1][j].zip(link3[0][j]).map(|(h, e)| h / e)), FENCES[0].2[2][j] / FENCES[1].2[2][j]))
        .collect();
    out.para(&format!(
        "The rate ratios follow S1 in S1's order: FULLY COUPLED nearly equalises the flows, LINKED INCREASES pools part of the way, UNCOUPLED TCPs sit near Reno's 1.5 and 2. Halving the middle link raises its loss rate by a factor of: {}. The coupled schemes shift traffic away from the surge, uncoupled Reno cannot. The absolute loss rates differ from S1's (S1 warns they are not comparable across schemes either): they depend on the window sizes and hence on the RTT, which S1 does not give for the fence (100 ms here).",
        surge.join(", ")
    ));
    let titles = BoxTitles { title: "Fence: (flow 1 + flow 4) / (flow 2 + flow 3)", x_label: "links", y_label: "rate ratio (flows 1 + 4) / (flows 2 + 3)", paper: "S1 (§5.2.3)" };
    out.boxes("fence_rate_ratio", &titles, &groups)?;

    let panels: Vec<_> = ["fully-coupled", "linked-increases"]
        .iter()
        .filter_map(|cc| window_panel(results, &seed_id(&experiment("fence", cc), 1), "flow2", &format!("flow 2 (links 2 and 3), {cc}")))
        .collect();
    if !panels.is_empty() {
        out.lines("fig11_fence_windows", "S1 Fig. 11: windows of a middle flow on the fence, seed 1", &panels)?;
    }
    Ok(())
}
