//! [S2] Table 4: Topology 2 (E1-E5), Jain's index (eq. 19) of TR-LIA and SSC-LIA. S2's
//! Figure 5 is not in our text; `topo2.toml` reconstructs the topology from its node, link
//! and flow lists (docs/reproduce.md).

use super::common::{congested, jain, link_sets, run_length, scheme_jobs, BUSY, QUICK_DURATION_SHORT};
use super::SCHEMES;
use crate::job::{Job, Results};
use crate::papers::seeds::values_of;
use crate::numbers::fmt;
use crate::scenario_job::SUMMARY;
use crate::{stats, Options, PaperOut};

/// One experiment of S2 Table 4: links (rate Mb/s, delay ms) in the table's order; the
/// bottleneck (buffer Q packets, the others 10 Q); TCP flows f0 ... f3; S2's Jain index for
/// SSC-LIA and TR-LIA.
struct Experiment {
    name: &'static str,
    links: [(u32, u32); 10],
    bottleneck: &'static str,
    q: u32,
    flows: [u32; 4],
    jain: (f64, f64),
}

const LINKS: [&str; 10] = ["L0", "L1", "L2", "L3", "L11", "L13", "L7", "L10", "L17", "L18"];
const TABLE4: [Experiment; 5] = [
    Experiment { name: "E1", links: [(500, 10), (500, 10), (100, 10), (100, 10), (100, 10), (500, 20), (500, 10), (100, 10), (100, 30), (100, 10)], bottleneck: "L2", q: 500, flows: [20, 40, 10, 5], jain: (0.9410, 0.9395) },
    Experiment { name: "E2", links: [(500, 10), (500, 10), (200, 10), (500, 10), (500, 10), (500, 20), (500, 10), (500, 10), (500, 30), (500, 10)], bottleneck: "L2", q: 800, flows: [30, 40, 10, 10], jain: (0.9355, 0.9425) },
    Experiment { name: "E3", links: [(500, 30), (500, 10), (200, 40), (500, 10), (500, 10), (500, 20), (500, 10), (500, 10), (500, 30), (500, 10)], bottleneck: "L2", q: 1500, flows: [30, 40, 10, 10], jain: (0.8080, 0.8078) },
    Experiment { name: "E4", links: [(500, 30), (500, 10), (400, 40), (500, 10), (500, 10), (500, 20), (500, 10), (500, 10), (500, 30), (500, 10)], bottleneck: "L2", q: 1500, flows: [20, 120, 50, 100], jain: (0.9726, 0.9941) },
    Experiment { name: "E5", links: [(800, 30), (800, 10), (800, 40), (800, 10), (800, 10), (800, 20), (800, 10), (800, 10), (800, 100), (300, 10)], bottleneck: "L18", q: 1000, flows: [50, 100, 50, 50], jain: (0.8953, 0.9790) },
];
/// The TCP flows from the session's client to its server (f0, f1): the ones eq. 19 averages.
const SESSION_PEERS: [&str; 2] = ["tcp0", "tcp1"];

fn sets(e: &Experiment) -> Vec<String> {
    let mut s: Vec<String> = LINKS
        .iter()
        .zip(e.links)
        .flat_map(|(name, (rate, delay))| {
            link_sets(
                name,
                rate,
                delay,
                if *name == e.bottleneck { e.q } else { 10 * e.q },
            )
        })
        .collect();
    s.extend((0..4).map(|k| format!("flows.tcp{k}.count={}", e.flows[k])));
    s.push(format!("simulation.bottleneck={}", e.bottleneck));
    s
}

fn experiment(e: &Experiment, short: &str) -> String {
    format!("topo2/{}/{short}", e.name)
}

pub fn jobs(opts: &Options) -> Result<Vec<Job>, String> {
    let file = opts.paper_dir("zhang2019").join("topo2.toml");
    let mut jobs = Vec::new();
    for e in &TABLE4 {
        jobs.extend(scheme_jobs(
            opts,
            &file,
            &format!("topo2/{}", e.name),
            &sets(e),
            &SCHEMES,
            QUICK_DURATION_SHORT,
            SUMMARY,
        )?);
    }
    Ok(jobs)
}

pub fn report(opts: &Options, results: &Results, out: &mut PaperOut) {
    out.heading("Table 4: Topology 2, Jain's index of the multipath session against the TCP flows");
    let (seeds, dur) = run_length(opts, QUICK_DURATION_SHORT);
    out.para(&format!(
        "`topo2.toml`, reconstructed (S2's Figure 5 is not in our text; docs/reproduce.md): the session's two paths n0-n1-n3-n5-n10-n11 and n0-n2-n3-n5-n10-n11 share L2, L17 and L18; f0 and f1 Reno TCP flows (SACK) take paths 1 and 2, f2 flows n1-n3-n5-n7 cross path 1 on L13 and L2, f3 flows n7-n8 use L10 only and do not meet the session. Links and buffers per S2 Table 4 (Q packets at the bottleneck, L2 in E1-E4 and L18 in E5; 10 Q elsewhere). As in `topo1.toml`, queues are random-tail-drop (plain drop-tail with the simulator's noiseless timing drops by phase, and every seed gives the same run); unlike it, the flows' minimum RTO is 1 s (RFC 6298's): the base RTTs of 160 to 400 ms exceed the 200 ms default, and an RTO of SRTT + 4 RTTVAR fires spuriously as the queues grow (S2's Linux hosts keep RTO >= SRTT + 200 ms). J is eq. 19 over the mean rate of the f0 and f1 flows (the TCP flows between the session's own end nodes) and the session's. {seeds} seeds of {dur} with a 20 s warm-up; ours (S2's in brackets). Congested links: forward links that dropped packets or were at least {BUSY} busy in a run, with mean utilization / drops over the runs."
    ));
    let mut rows = Vec::new();
    let mut means = [Vec::new(), Vec::new()];
    for e in &TABLE4 {
        let flows = format!(
            "{} + {} ({} + {})",
            e.flows[0], e.flows[1], e.flows[2], e.flows[3]
        );
        let mut row = vec![e.name.to_string(), e.bottleneck.to_string(), flows];
        for (k, (_, short)) in SCHEMES.iter().enumerate() {
            let js: Vec<f64> = values_of(results, &experiment(e, short))
                .into_iter()
                .filter_map(|v| jain(v, &SESSION_PEERS))
                .collect();
            let j = stats::mean(&js);
            means[k].extend(j);
            let paper = if *short == "tr" { e.jain.1 } else { e.jain.0 };
            row.push(format!("{} ({paper})", fmt(j)));
        }
        let runs: Vec<_> = SCHEMES
            .iter()
            .flat_map(|(_, short)| values_of(results, &experiment(e, short)))
            .collect();
        row.push(congested(&runs, &LINKS, &[e.bottleneck]));
        rows.push(row);
    }
    out.table(
        &[
            "experiment",
            "bottleneck",
            "TCP flows f0 + f1 (f2 + f3)",
            "J, TR-LIA",
            "J, SSC-LIA",
            "congested links",
        ],
        &rows,
    );
    out.key("topo2_jain_tr_mean", stats::mean(&means[0]));
    out.key("topo2_jain_ssc_mean", stats::mean(&means[1]));
    super::verdict::table4(out, stats::mean(&means[0]), stats::mean(&means[1]), &TABLE4.map(|e| e.jain));
}
