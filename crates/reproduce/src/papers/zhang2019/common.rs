//! What S2's tables share: the runs under each scheme and the rates read out of a summary.

use super::SEEDS;
use crate::job::Job;
use crate::papers::seeds::seed_id;
use crate::numbers::fmt;
use crate::scenario_job::{scenario_job, Extract, ScenarioRun};
use crate::{stats, Options};
use serde_json::Value;
use std::path::Path;

/// `--quick` run length of Topology 2 and the non-shared cases (Topology 1 keeps its own):
/// 40 s measured after the 20 s warm-up.
pub const QUICK_DURATION_SHORT: &str = "60s";

/// The seeds and run length the report states: S2's seeds and 300 s, or `quick_duration`.
pub fn run_length(opts: &Options, quick_duration: &'static str) -> (u64, &'static str) {
    if opts.quick {
        (SEEDS.1, quick_duration)
    } else {
        (SEEDS.0, "300s")
    }
}

/// `--set` overrides of one link's rate (Mb/s), delay (ms) and buffer (packets).
pub fn link_sets(name: &str, rate: u32, delay: u32, buffer: u32) -> [String; 3] {
    [
        format!("links.{name}.rate={rate}Mbps"),
        format!("links.{name}.delay={delay}ms"),
        format!("links.{name}.buffer={buffer}"),
    ]
}

/// One experiment's runs: `file` with `sets` under each scheme (`--cc`), over S2's seeds
/// (`SEEDS`), with ids `<experiment>/<short>/seed<k>`; `quick_duration` replaces the file's
/// under `--quick`.
pub fn scheme_jobs(
    opts: &Options,
    file: &Path,
    experiment: &str,
    sets: &[String],
    schemes: &[(&str, &str)],
    quick_duration: &str,
    extract: Extract,
) -> Result<Vec<Job>, String> {
    let mut jobs = Vec::new();
    for (cc, short) in schemes {
        for seed in opts.seeds(SEEDS.0, SEEDS.1) {
            let mut run = ScenarioRun::new(seed).cc(cc);
            run.sets = sets.to_vec();
            if opts.quick {
                run = run.set(format!("simulation.duration={quick_duration}"));
            }
            jobs.push(scenario_job(
                seed_id(&format!("{experiment}/{short}"), seed),
                file,
                run,
                extract,
            )?);
        }
    }
    Ok(jobs)
}

/// The mean goodput (Mb/s) of the copies of the TCP flows named `flows` in a run's summary.
pub fn mean_tcp_rate(v: &Value, flows: &[&str]) -> Option<f64> {
    let obj = v.as_object()?;
    let rates: Vec<f64> = obj
        .iter()
        .filter(|(k, _)| {
            k.ends_with(".throughput_mbps")
                && flows.iter().any(|f| k.starts_with(&format!("flow.{f}.")))
        })
        .filter_map(|(_, v)| v.as_f64())
        .collect();
    stats::mean(&rates)
}

/// The multipath session's goodput (Mb/s), all subflows.
pub fn session_rate(v: &Value) -> Option<f64> {
    v.get("mptcp_mbps")?.as_f64()
}

/// S2 eq. 19: Jain's index over two rates, the mean TCP flow's (of `flows`) and the session's.
pub fn jain(v: &Value, flows: &[&str]) -> Option<f64> {
    let (sp, mp) = (mean_tcp_rate(v, flows)?, session_rate(v)?);
    Some((sp + mp).powi(2) / (2.0 * (sp * sp + mp * mp)))
}

/// A link counts as congested in a run when it dropped packets or was this busy.
pub const BUSY: f64 = 0.95;

/// The forward links among `links` that were congested in some run of `runs`, with their
/// mean utilization and drops over the runs; `bottlenecks` are marked as such.
pub fn congested(runs: &[&Value], links: &[&str], bottlenecks: &[&str]) -> String {
    let mut found = Vec::new();
    for link in links {
        let util: Vec<f64> = runs
            .iter()
            .filter_map(|v| v.get(format!("link.{link}.utilization"))?.as_f64())
            .collect();
        let drops: Vec<f64> = runs
            .iter()
            .filter_map(|v| v.get(format!("link.{link}.drops"))?.as_f64())
            .collect();
        if util.iter().any(|&u| u >= BUSY) || drops.iter().any(|&d| d > 0.0) {
            let mark = if bottlenecks.contains(link) {
                " (bottleneck)"
            } else {
                ""
            };
            found.push(format!(
                "{link}{mark} {} / {:.0} drops",
                fmt(stats::mean(&util)),
                stats::mean(&drops).unwrap_or(0.0)
            ));
        }
    }
    found.join("; ")
}
