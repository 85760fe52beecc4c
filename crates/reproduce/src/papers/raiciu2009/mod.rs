//! [S1] Raiciu, Wischik, Handley, UCL 2009: practical multipath congestion control. cwndsim
//! Figs. 7-8 (§5.1), the htsim experiments of §5.2 as scenario files
//! (`scenarios/papers/raiciu2009/`, docs/raiciu2009.md): flappiness on the dumbbell (FC1, FC2,
//! LI1, LI2) and the fence, rates and loss rates (ED1, ED2), shared-bottleneck fairness (BN1,
//! BN2), resource pooling on the fence, and the appendix sweep (Tables 3, 4).

mod cwndsim;
mod fence;
mod flappiness;
mod rates;
mod sweep;
mod windows;

use crate::job::{Job, Results};
use crate::scenario_job::{scenario_job, ScenarioRun};
use crate::{Options, Paper, PaperOut};
use std::path::{Path, PathBuf};

pub struct Raiciu2009;

/// Seeds per packet-level experiment (full, quick).
const SEEDS: (u64, u64) = (10, 2);

/// The scenario file `<stem>.toml` of the paper.
fn file(opts: &Options, stem: &str) -> PathBuf {
    opts.paper_dir("raiciu2009").join(format!("{stem}.toml"))
}

/// `stem` run under `cc` for each of `seeds`, under ids `<experiment>/seed<k>`, with the
/// overrides `sets` and under `--quick` also `quick` (shorter runs); `traced`: seed 1 also
/// keeps its window traces.
#[allow(clippy::too_many_arguments)]
fn scenario_jobs(opts: &Options, seeds: Vec<u64>, experiment: &str, stem: &str, cc: &str, sets: &[String], quick: &[&str], traced: bool) -> Result<Vec<Job>, String> {
    let path = file(opts, stem);
    seeds
        .into_iter()
        .map(|seed| {
            let extract = if traced && seed == 1 { windows::TRACE } else { windows::FLAP };
            let mut run = ScenarioRun::new(seed).cc(cc);
            for s in sets {
                run = run.set(s.clone());
            }
            if opts.quick {
                for s in quick {
                    run = run.set(*s);
                }
            }
            scenario_job(super::seeds::seed_id(experiment, seed), &path, run, extract)
        })
        .collect()
}

/// The forward rate in bits/s of link `name` of a scenario file (after `sets`), which the
/// loss rates need (the summary has a link's utilisation and drops, not its rate).
fn link_rate_bps(file: &Path, sets: &[String], name: &str) -> Result<f64, String> {
    let loaded = crate::scenario_files::load(file, sets)?;
    loaded
        .scenario
        .links
        .iter()
        .find(|l| l.name.value == name)
        .map(|l| l.forward.rate_bps as f64)
        .ok_or_else(|| format!("{}: no link named {name}", file.display()))
}

/// Packet loss rate of a link's forward direction over the measured window: drops over
/// arrivals, arrivals = packets served (utilisation x capacity, 1500 B data packets; the
/// forward directions carry data only) + drops.
fn loss_rate(summary: &serde_json::Value, link: &str, rate_bps: f64) -> Option<f64> {
    let drops = summary.get(format!("link.{link}.drops"))?.as_f64()?;
    let util = summary.get(format!("link.{link}.utilization"))?.as_f64()?;
    let window = summary.get("duration_s")?.as_f64()? - summary.get("warmup_s")?.as_f64()?;
    let served = util * rate_bps * window / (8.0 * windows::PACKET_BYTES);
    (served + drops > 0.0).then(|| drops / (served + drops))
}

/// `f` of every seed's result of `experiment` (seeds where it is None are left out).
fn per_seed(results: &Results, experiment: &str, f: impl Fn(&serde_json::Value) -> Option<f64>) -> Vec<f64> {
    let prefix = format!("{experiment}/seed");
    results.range(prefix.clone()..).take_while(|(id, _)| id.starts_with(&prefix)).filter_map(|(_, v)| f(v)).collect()
}

/// A loss rate as S1 prints it: `1/N`.
fn one_in(p: Option<f64>) -> String {
    match p {
        Some(p) if p > 0.0 => format!("1/{:.0}", 1.0 / p),
        Some(_) => "0".into(),
        None => "n/a".into(),
    }
}

impl Paper for Raiciu2009 {
    fn name(&self) -> &'static str {
        "raiciu2009"
    }

    fn title(&self) -> &'static str {
        "[S1] Raiciu, Wischik, Handley: Practical congestion control for multipath transport protocols (UCL technical report, 2009)"
    }

    fn plan(&self, opts: &Options) -> Result<Vec<Job>, String> {
        let mut jobs = cwndsim::plan(opts);
        jobs.extend(flappiness::plan(opts)?);
        jobs.extend(rates::plan(opts)?);
        jobs.extend(fence::plan(opts)?);
        jobs.extend(sweep::plan(opts)?);
        Ok(jobs)
    }

    fn report(&self, opts: &Options, results: &Results, out: &mut PaperOut) -> Result<(), String> {
        let seeds = if opts.quick { SEEDS.1 } else { SEEDS.0 };
        out.para(&format!(
            "cwndsim: `pathpool-windowsim` driving the `pathpool-cc` controllers. Packet level: scenarios `scenarios/papers/raiciu2009/` (parameters, modelling decisions and deviations: docs/raiciu2009.md): S1's buffers of one bandwidth-delay product with the last three slots dropping with probability 1/3, every flow paced by a feeder link of twice the bottleneck's rate, 1500 B packets; {seeds} seeds per experiment{}. Medians over seeds unless said otherwise.",
            if opts.quick { " and shortened runs (--quick)" } else { "" }
        ));
        cwndsim::report(opts, results, out)?;
        flappiness::report(opts, results, out)?;
        rates::report(opts, results, out)?;
        fence::report(opts, results, out)?;
        sweep::report(opts, results, out)
    }
}
