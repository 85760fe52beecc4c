//! [S0] Ferlin et al., INFOCOM 2016: MPTCP-SBD. The NSB-n / SB-n emulation scenarios
//! (`scenarios/papers/ferlin2016/`, docs/ferlin2016.md) under each congestion control.

mod fig2;
mod shift;
mod table2;
mod variants;

use super::seeds::seed_id;
use crate::job::{Job, Results};
use crate::scenario_job::{scenario_job, ScenarioRun, SUMMARY};
use crate::{Options, Paper, PaperOut};

pub struct Ferlin2016;

/// S0 analysed 120 s after the start-up phase; `--quick` measures 40 s after the same 20 s
/// warm-up (the detector needs N x T = 17.5 s of history before its first observation).
const QUICK_DURATION: &str = "60s";
const SEEDS: (u64, u64) = (20, 5);

/// The results' scheme name of MPTCP-SBD with the detector's delay-correlation split at its
/// default threshold (an extension, not S0's; docs/sbd.md).
pub(super) const SBD_CORR: &str = "mptcp-sbd+corr";

/// The results' scheme name of MPTCP-SBD with the `pathpool` detector preset (the split and
/// the change detector; not S0's; docs/sbd.md).
pub(super) const SBD_PATHPOOL: &str = "mptcp-sbd+pathpool";

/// The results' scheme name of MPTCP-SBD with the `rfc8382` detector preset (RFC 8382 §2.2's
/// parameters and [S0]'s decision filter; the shifting bottleneck only).
pub(super) const SBD_RFC8382: &str = "mptcp-sbd+rfc8382";

/// A run of `scheme` (a `--cc` name, [`SBD_CORR`], [`SBD_PATHPOOL`] or [`SBD_RFC8382`]).
pub(super) fn scheme_run(seed: u64, scheme: &str) -> ScenarioRun {
    match scheme {
        SBD_CORR => ScenarioRun::new(seed).cc("mptcp-sbd").set(format!("flows.mptcp.sbd_corr_min={}", pathpool_sbd::CORR_MIN)),
        SBD_PATHPOOL => ScenarioRun::new(seed).cc("mptcp-sbd").set("flows.mptcp.sbd_detector=pathpool".to_string()),
        SBD_RFC8382 => ScenarioRun::new(seed).cc("mptcp-sbd").set("flows.mptcp.sbd_detector=rfc8382".to_string()),
        _ => ScenarioRun::new(seed).cc(scheme),
    }
}

/// Scenario file stems and the schemes each runs under.
fn experiments() -> Vec<(String, &'static str)> {
    let mut e = Vec::new();
    for n in 2..=5 {
        for cc in ["olia", "mptcp-sbd", SBD_CORR, SBD_PATHPOOL] {
            e.push((format!("nsb-{n}"), cc));
        }
        for cc in ["uncoupled", "lia", "olia", "balia", "mptcp-sbd", SBD_CORR, SBD_PATHPOOL] {
            e.push((format!("sb-{n}"), cc));
        }
    }
    for cc in ["uncoupled", "lia", "balia"] {
        e.push(("nsb-2".into(), cc));
    }
    e
}

/// The results' key of one scenario under one scheme (seeds below it).
pub(super) fn experiment(scenario: &str, cc: &str) -> String {
    format!("{scenario}/{cc}")
}

impl Paper for Ferlin2016 {
    fn name(&self) -> &'static str {
        "ferlin2016"
    }

    fn title(&self) -> &'static str {
        "[S0] Ferlin, Alay, Dreibholz, Hayes, Welzl: Revisiting congestion control for multipath TCP with shared bottleneck detection (INFOCOM 2016)"
    }

    fn plan(&self, opts: &Options) -> Result<Vec<Job>, String> {
        let dir = opts.paper_dir(self.name());
        let seeds = opts.seeds(SEEDS.0, SEEDS.1);
        let duration = opts.quick.then_some(QUICK_DURATION);
        let mut jobs = Vec::new();
        for (scenario, cc) in experiments() {
            let file = dir.join(format!("{scenario}.toml"));
            for &seed in &seeds {
                let mut run = scheme_run(seed, cc);
                if let Some(d) = duration {
                    run = run.set(format!("simulation.duration={d}"));
                }
                jobs.push(scenario_job(seed_id(&experiment(&scenario, cc), seed), &file, run, SUMMARY)?);
            }
        }
        jobs.extend(variants::jobs(&dir, &seeds, duration)?);
        jobs.extend(shift::jobs(opts, &dir)?);
        Ok(jobs)
    }

    fn report(&self, opts: &Options, results: &Results, out: &mut PaperOut) -> Result<(), String> {
        let (seeds, measured) = if opts.quick { (SEEDS.1, "40 s") } else { (SEEDS.0, "120 s") };
        out.para(&format!(
            "Scenarios `scenarios/papers/ferlin2016/` (parameters and deviations: docs/ferlin2016.md): 20 Mb/s bottlenecks, 20 ms base RTT, drop-tail of 1 BDP, S0's synthetic background traffic; {seeds} seeds per case, {measured} measured after a 20 s warm-up. Ratios are MPTCP over the competing TCP flow(s); medians over seeds unless said otherwise."
        ));
        fig2::report(results, out)?;
        table2::report(results, out)?;
        shift::report(results, out)?;
        variants::report(results, out)
    }
}
