//! [S2] Zhang, Lei, Zhang, Guan 2019: shared bottleneck detection by trend-line regression.
//! Topology 1 (Table 3): the Jain index of TR-LIA and SSC-LIA against many TCP flows at a
//! shared bottleneck. S2's dumbbell detection experiments (E1-E5, Table 2), Topology 2
//! (Table 4) and the non-shared ratio R are not reproduced yet.

mod detection;

use crate::job::{Job, Results};
use crate::papers::seeds::{seed_id, values_of};
use crate::report::fmt;
use crate::scenario_job::{scenario_job, ScenarioRun, SUMMARY};
use crate::{stats, Options, Paper, PaperOut};
use serde_json::Value;

pub struct Zhang2019;

/// One experiment of S2 Table 3: links (rate Mb/s, delay ms) in the order L0, L1, L2, L13,
/// L7; Q (the bottleneck's buffer in packets; the others hold 10 Q); TCP flows on path 1 and
/// path 2; S2's Jain index for SSC-LIA and TR-LIA.
struct Experiment {
    name: &'static str,
    links: [(u32, u32); 5],
    q: u32,
    flows: (u32, u32),
    jain: (f64, f64),
}

const TABLE3: [Experiment; 4] = [
    Experiment { name: "E1", links: [(500, 10), (500, 10), (200, 10), (500, 20), (500, 20)], q: 200, flows: (20, 30), jain: (0.9952, 0.9987) },
    Experiment { name: "E2", links: [(500, 10), (500, 10), (200, 50), (500, 20), (500, 20)], q: 200, flows: (50, 50), jain: (0.9884, 0.9993) },
    Experiment { name: "E3", links: [(500, 10), (500, 10), (300, 40), (500, 10), (500, 20)], q: 1000, flows: (60, 70), jain: (0.9580, 0.9677) },
    Experiment { name: "E4", links: [(800, 10), (800, 30), (400, 20), (800, 10), (800, 20)], q: 800, flows: (60, 160), jain: (0.9479, 0.9832) },
];
const LINKS: [&str; 5] = ["L0", "L1", "L2", "L13", "L7"];
const SCHEMES: [(&str, &str); 2] = [("tr-lia", "tr"), ("ssc-lia", "ssc")];
const SEEDS: (u64, u64) = (3, 1);
const QUICK_DURATION: &str = "90s";

fn sets(e: &Experiment) -> Vec<String> {
    let mut s = Vec::new();
    for (name, (rate, delay)) in LINKS.iter().zip(e.links) {
        let buffer = if *name == "L2" { e.q } else { 10 * e.q };
        s.extend([format!("links.{name}.rate={rate}Mbps"), format!("links.{name}.delay={delay}ms"), format!("links.{name}.buffer={buffer}")]);
    }
    s.push(format!("flows.tcp1.count={}", e.flows.0));
    s.push(format!("flows.tcp2.count={}", e.flows.1));
    s
}

/// S2 eq. 19: Jain's index over two rates, the mean TCP flow's and the multipath session's.
fn jain(v: &Value) -> Option<f64> {
    let obj = v.as_object()?;
    let tcp: Vec<f64> = obj.iter().filter(|(k, _)| k.starts_with("flow.tcp") && k.ends_with(".throughput_mbps")).filter_map(|(_, v)| v.as_f64()).collect();
    let sp = stats::mean(&tcp)?;
    let mp = obj.get("mptcp_mbps")?.as_f64()?;
    Some((sp + mp).powi(2) / (2.0 * (sp * sp + mp * mp)))
}

impl Paper for Zhang2019 {
    fn name(&self) -> &'static str {
        "zhang2019"
    }

    fn title(&self) -> &'static str {
        "[S2] Zhang, Lei, Zhang, Guan: Shared bottleneck detection based on trend line regression for multipath transmission (2019)"
    }

    fn plan(&self, opts: &Options) -> Result<Vec<Job>, String> {
        let file = opts.paper_dir(self.name()).join("topo1.toml");
        let mut jobs = Vec::new();
        for e in &TABLE3 {
            for (cc, short) in SCHEMES {
                for seed in opts.seeds(SEEDS.0, SEEDS.1) {
                    let mut run = ScenarioRun::new(seed).cc(cc);
                    run.sets = sets(e);
                    if opts.quick {
                        run = run.set(format!("simulation.duration={QUICK_DURATION}"));
                    }
                    jobs.push(scenario_job(seed_id(&format!("topo1/{}/{short}", e.name), seed), &file, run, SUMMARY)?);
                }
            }
        }
        detection::plan(opts, &mut jobs)?;
        Ok(jobs)
    }

    fn report(&self, opts: &Options, results: &Results, out: &mut PaperOut) -> Result<(), String> {
        out.heading("Table 3: Topology 1, Jain's index of the multipath session against the TCP flows");
        let (seeds, dur) = if opts.quick { (SEEDS.1, QUICK_DURATION) } else { (SEEDS.0, "300s") };
        out.para(&format!(
            "`topo1.toml`: the client's two paths (n0-n1-n3-n5, n0-n2-n3-n5) meet at the bottleneck L2, with f1 and f2 Reno TCP flows (SACK) on them; links and buffers per S2 Table 3 (Q packets at L2, 10 Q elsewhere). TR-LIA (`--cc tr-lia`: trend lines on RTT at the sender, S2 §5.2) and SSC-LIA (`--cc ssc-lia`: RFC 8382 statistics at the receiver, MPTCP-SBD's decisions switching LIA on; both in S2's harness, uncoupled until a positive and coupled until 100 s pass without one). J is S2's eq. 19 over the mean TCP rate and the session's rate (S2 took 10 random TCP flows; we take all). {seeds} seeds of {dur} with a 20 s warm-up; ours (S2's in brackets). MPTCP over the simulator stands in for S2's multipath QUIC."
        ));
        let mut rows = Vec::new();
        let mut means = [Vec::new(), Vec::new()];
        for e in &TABLE3 {
            let mut row = vec![e.name.to_string(), format!("{} + {}", e.flows.0, e.flows.1)];
            for (k, (_, short)) in SCHEMES.iter().enumerate() {
                let js: Vec<f64> = values_of(results, &format!("topo1/{}/{short}", e.name)).into_iter().filter_map(jain).collect();
                let j = stats::mean(&js);
                if let Some(j) = j {
                    means[k].push(j);
                }
                let paper = if *short == "tr" { e.jain.1 } else { e.jain.0 };
                row.push(format!("{} ({paper})", fmt(j)));
            }
            rows.push(row);
        }
        out.table(&["experiment", "TCP flows", "J, TR-LIA", "J, SSC-LIA"], &rows);
        out.key("topo1_jain_tr_mean", stats::mean(&means[0]));
        out.key("topo1_jain_ssc_mean", stats::mean(&means[1]));
        out.para("S2 finds TR-LIA slightly fairer than SSC-LIA because TR flags the shared bottleneck sooner. The index is insensitive near 1: J = 0.99 still allows the session 1.2 times the mean TCP rate.");
        detection::report(opts, results, out)?;
        out.heading("Not reproduced yet");
        out.para("S2's dumbbell detection experiments (Table 2, E1-E5 with drop-tail and RED, Reno and CUBIC: how often and how soon TR and the RFC 8382 statistics flag the shared bottleneck), Topology 2 (Table 4) and the non-shared throughput ratio R.");
        Ok(())
    }
}
