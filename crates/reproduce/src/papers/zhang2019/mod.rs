//! [S2] Zhang, Lei, Zhang, Guan 2019: shared bottleneck detection by trend-line regression.
//! Topologies 1 (Table 3) and 2 (Table 4, `topo2`): the Jain index of TR-LIA and SSC-LIA
//! against many TCP flows at a shared bottleneck; the throughput ratio R (eq. 20) on
//! non-shared bottlenecks (`nsb`); the dumbbell detection experiments E1-E5 (Table 2,
//! `detection`).

mod common;
mod coupling;
mod detection;
mod nsb;
mod topo2;
mod verdict;

use crate::job::{Job, Results};
use crate::papers::seeds::values_of;
use crate::numbers::fmt;
use crate::scenario_job::SUMMARY;
use crate::{stats, Options, Paper, PaperOut};
use common::{jain, link_sets, mean_tcp_rate, scheme_jobs, session_rate};

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
        s.extend(link_sets(name, rate, delay, if *name == "L2" { e.q } else { 10 * e.q }));
    }
    s.push(format!("flows.tcp1.count={}", e.flows.0));
    s.push(format!("flows.tcp2.count={}", e.flows.1));
    s
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
            jobs.extend(scheme_jobs(opts, &file, &format!("topo1/{}", e.name), &sets(e), &SCHEMES, QUICK_DURATION, SUMMARY)?);
        }
        detection::plan(opts, &mut jobs)?;
        jobs.extend(topo2::jobs(opts)?);
        jobs.extend(nsb::jobs(opts)?);
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
            let mut extra = Vec::new();
            for (k, (_, short)) in SCHEMES.iter().enumerate() {
                let runs = values_of(results, &format!("topo1/{}/{short}", e.name));
                let j = stats::mean(&runs.iter().filter_map(|v| jain(v, &["tcp1", "tcp2"])).collect::<Vec<_>>());
                if let Some(j) = j {
                    means[k].push(j);
                }
                let paper = if *short == "tr" { e.jain.1 } else { e.jain.0 };
                row.push(format!("{} ({paper})", fmt(j)));
                let over_tcp = |v: &&serde_json::Value| Some(session_rate(v)? / mean_tcp_rate(v, &["tcp1", "tcp2"])?);
                extra.push(fmt(stats::mean(&runs.iter().filter_map(over_tcp).collect::<Vec<_>>())));
                // TR's evaluations and SSC's filtered decisions: the share that grouped the subflows.
                let shared = if *short == "tr" { "observation_accuracy" } else { "decision_accuracy" };
                extra.push(fmt(stats::mean(&runs.iter().filter_map(|v| v.get(shared)?.as_f64()).collect::<Vec<_>>())));
            }
            row.extend(extra);
            rows.push(row);
        }
        out.table(
            &["experiment", "TCP flows", "J, TR-LIA", "J, SSC-LIA", "session / mean TCP, TR-LIA", "TR: shared evaluations", "session / mean TCP, SSC-LIA", "SSC: shared decisions"],
            &rows,
        );
        out.key("topo1_jain_tr_mean", stats::mean(&means[0]));
        out.key("topo1_jain_ssc_mean", stats::mean(&means[1]));
        verdict::table3(out, stats::mean(&means[0]), stats::mean(&means[1]), &TABLE3.map(|e| e.jain));
        out.para("S2 finds TR-LIA slightly fairer than SSC-LIA because TR flags the shared bottleneck sooner. The index is insensitive near 1: J = 0.99 still allows the session 1.2 times the mean TCP rate, so the session's rate over the mean TCP rate is given beside it, with the share of TR's evaluations and of SSC's filtered decisions that put the two subflows in one group (the truth here). Where SSC never groups them, SSC-LIA stays uncoupled and takes about twice a TCP flow's rate; the RFC 8382 statistics read L2 as no bottleneck at all in E1 and E2 (E1, seed 1: every subflow in group 0 in every observation, with L2 90 % busy and 48 of its 200 packets queued on average): its buffer, 12 ms at L2's rate, is short against base RTTs of 80 and 160 ms, so the queue drains after losses and the one-way delay lacks the negative skew of a standing queue (as in Table 2's E4 below). Where the detector does group them, the session still takes more than one TCP flow's rate: LIA itself does at a tail-drop bottleneck, where drops fall on growing windows and LIA's subflows, growing a quarter packet per RTT against TCP's one, are halved less often per packet (docs/mptcp.md, \"LIA above one TCP at a tail-drop bottleneck\"; with RED it takes about one share).");
        topo2::report(opts, results, out);
        nsb::report(opts, results, out);
        detection::report(opts, results, out)?;
        Ok(())
    }
}
