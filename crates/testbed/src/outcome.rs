//! The testbed's samples as the `Outcome` the simulator produces, so that summary.json,
//! flows.csv, links.csv and the plots are written by the same code with the same keys.
//! The measurement window runs from the sample at the warm-up to the last sample, by their
//! measured times.
//!
//! As in the simulator, a multipath connection appears as one flow per subflow
//! (`NAME.sfK`, its throughput the bytes the sender saw acknowledged on it) and as a
//! connection (`mptcp.NAME.*`, its goodput at the receiving application).

use crate::plan::{FlowNeeds, FlowPlan, Plan};
use crate::probe::Sample;
use crate::support::{Checked, TCP_HEADERS};
use crate::tcp_info::TcpInfo;
use pathpool_experiment::mptcp_outcome::{self, Measured};
use pathpool_experiment::outcome::{ExtraColumn, FlowOutcome, Outcome, Series};
use pathpool_experiment::schema::TcpTraffic;
use pathpool_experiment::units::seconds;
use pathpool_experiment::Loaded;
use std::collections::BTreeMap;

fn mbps(bytes: u64, secs: f64) -> f64 {
    if secs > 0.0 {
        bytes as f64 * 8.0 / secs / 1e6
    } else {
        0.0
    }
}

/// Bytes on the wire of the data segments that carried `payload` bytes, as the simulator
/// counts goodput (full segments of `packet_size`). UDP receivers count their headers.
fn wire_bytes(spec: &Checked, payload: u64) -> u64 {
    match spec {
        Checked::Tcp { tcp, .. } | Checked::Mptcp { tcp, .. } => {
            let per = tcp.packet_size - TCP_HEADERS;
            (payload as u128 * tcp.packet_size as u128 / per as u128) as u64
        }
        Checked::Udp { .. } => payload,
    }
}

/// One flow of the outcome: a TCP or UDP flow, or one subflow of a connection.
struct Row<'a> {
    flow: usize,
    subflow: Option<usize>,
    plan: &'a FlowPlan,
}

impl Row<'_> {
    fn name(&self) -> String {
        match self.subflow {
            Some(k) => format!("{}.sf{k}", self.plan.name),
            None => self.plan.name.clone(),
        }
    }

    fn infos<'s>(&self, s: &'s Sample) -> Vec<&'s TcpInfo> {
        let all = &s.flows[self.flow].subflows;
        match self.subflow {
            Some(k) => all.get(k).and_then(Option::as_ref).into_iter().collect(),
            None => all.iter().flatten().collect(),
        }
    }

    fn sum(&self, s: &Sample, pick: fn(&TcpInfo) -> u64) -> u64 {
        self.infos(s).into_iter().map(pick).sum()
    }

    /// Wire bytes delivered by the sample's time.
    fn delivered(&self, s: &Sample) -> u64 {
        match self.subflow {
            Some(_) => wire_bytes(&self.plan.spec, self.sum(s, |t| t.bytes_acked)),
            None => wire_bytes(&self.plan.spec, s.flows[self.flow].received),
        }
    }
}

pub fn assemble(l: &Loaded, plan: &Plan, names: &[String], samples: &[Sample], warm: usize, lost: &[u64], wall: f64) -> Outcome {
    let first = &samples[warm];
    let last = samples.last().expect("at least two samples");
    let window = last.time_s - first.time_s;
    let rows: Vec<Row> = plan
        .flows
        .iter()
        .enumerate()
        .flat_map(|(i, f)| match f.spec {
            Checked::Mptcp { subflows, .. } => (0..subflows).map(|k| Row { flow: i, subflow: Some(k), plan: f }).collect::<Vec<_>>(),
            _ => vec![Row { flow: i, subflow: None, plan: f }],
        })
        .collect();
    // Recoveries are counted per namespace: exact for a TCP flow that is its namespace's only
    // TCP sender, unknown for subflows and shared namespaces.
    let mut per_sender: BTreeMap<usize, usize> = BTreeMap::new();
    for f in plan.flows.iter().filter(|f| f.spec.sack().is_some()) {
        *per_sender.entry(f.sender).or_default() += 1;
    }
    let recoveries = |s: &Sample, ns: &str| s.recoveries.get(ns).copied().unwrap_or(0);
    let flows: Vec<FlowOutcome> = rows
        .iter()
        .map(|r| {
            let delivered = r.delivered(last).saturating_sub(r.delivered(first));
            let delta = |pick: fn(&TcpInfo) -> u64| r.sum(last, pick).saturating_sub(r.sum(first, pick));
            let ns = &names[r.plan.sender];
            let alone = r.subflow.is_none() && per_sender.get(&r.plan.sender) == Some(&1);
            FlowOutcome {
                name: r.name(),
                bulk: matches!(r.plan.spec, Checked::Tcp { traffic: TcpTraffic::Bulk, .. }),
                throughput_mbps: mbps(delivered, window),
                delivered_bytes: delivered,
                retransmissions: Some(delta(|t| u64::from(t.total_retrans))),
                fast_retransmits: alone.then(|| recoveries(last, ns).saturating_sub(recoveries(first, ns))),
                timeouts: Some(delta(|t| u64::from(t.rto_count))),
            }
        })
        .collect();
    let queues: Vec<&pathpool_netlab::link_outcome::Queues> = samples.iter().map(|s| &s.queues).collect();
    let links = pathpool_netlab::link_outcome::assemble(l, plan, names, &queues, warm, window, lost);
    // Each row is one socket (a TCP flow or one subflow) or a UDP flow: sums are that socket's value.
    let per_row = |pick: &dyn Fn(&Sample, &Row) -> f64| -> Vec<Vec<f64>> { rows.iter().map(|r| samples[1..].iter().map(|s| pick(s, r)).collect()).collect() };
    let series = Series {
        times: (1..samples.len() as u64).map(|k| seconds(k * l.scenario.simulation.probe_interval)).collect(),
        flow_throughput_mbps: rows.iter().map(|r| samples.windows(2).map(|w| mbps(r.delivered(&w[1]).saturating_sub(r.delivered(&w[0])), w[1].time_s - w[0].time_s)).collect()).collect(),
        flow_cwnd_packets: rows.iter().map(|r| samples[1..].iter().map(|s| r.sum(s, |t| u64::from(t.cwnd_packets)) as f64).collect()).collect(),
        flow_extra: vec![
            ExtraColumn { name: "srtt_ms", values: per_row(&|s, r| r.sum(s, |t| u64::from(t.srtt_us)) as f64 / 1e3) },
            ExtraColumn { name: "min_rtt_ms", values: per_row(&|s, r| r.sum(s, |t| u64::from(t.min_rtt_us)) as f64 / 1e3) },
            ExtraColumn { name: "bytes_acked", values: per_row(&|s, r| r.sum(s, |t| t.bytes_acked) as f64) },
            ExtraColumn { name: "retransmissions", values: per_row(&|s, r| r.sum(s, |t| u64::from(t.total_retrans)) as f64) },
            ExtraColumn { name: "dsack_dups", values: per_row(&|s, r| r.sum(s, |t| u64::from(t.dsack_dups)) as f64) },
            ExtraColumn { name: "busy_ms", values: per_row(&|s, r| r.sum(s, |t| t.busy_us) as f64 / 1e3) },
            ExtraColumn { name: "rwnd_limited_ms", values: per_row(&|s, r| r.sum(s, |t| t.rwnd_limited_us) as f64 / 1e3) },
            ExtraColumn { name: "sndbuf_limited_ms", values: per_row(&|s, r| r.sum(s, |t| t.sndbuf_limited_us) as f64 / 1e3) },
        ],
        link_queue_packets: links.queue_packets,
        link_drops: links.drops,
    };
    let measured: Vec<Measured> = plan
        .flows
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let subflow_mbps = rows.iter().zip(&flows).filter(|(r, _)| r.flow == i && r.subflow.is_some()).map(|(_, o)| o.throughput_mbps).collect();
            let goodput = wire_bytes(&f.spec, last.flows[i].received.saturating_sub(first.flows[i].received));
            Measured { throughput_mbps: mbps(goodput, window), subflow_mbps }
        })
        .collect();
    let warnings = pathpool_experiment::phase_lock::warnings(l, &flows);
    Outcome {
        multipath: mptcp_outcome::assemble(l, &measured, &|_| (Vec::new(), Vec::new())),
        seed: l.scenario.simulation.seed,
        duration_s: seconds(l.scenario.simulation.duration),
        warmup_s: seconds(l.scenario.simulation.warmup),
        flows,
        links: links.links,
        bottleneck: links.bottleneck,
        bottleneck_data_packets: links.bottleneck_data_packets,
        events: 0,
        series,
        delay_traces: Vec::new(),
        wall_seconds: wall,
        ran: pathpool_experiment::outcome::Ran::testbed(l),
        warnings,
        kernel_warnings: Vec::new(),
    }
}
