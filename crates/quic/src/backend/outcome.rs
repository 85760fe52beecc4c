//! The ends' reports and the queues' samples as the `Outcome` the other backends produce.
//!
//! As there, a multipath connection is one row per path (`NAME.sfK`: the bytes acknowledged
//! on it, from its controller) and a connection (`mptcp.NAME.*`: its goodput at the
//! receiving application); a TCP flow of the scenario, run as single-path QUIC, is one row
//! with its goodput at the receiver. Bytes are counted on the wire: a datagram's UDP payload
//! plus 28 B of IPv4 and UDP headers; stream bytes at the receiver are scaled by the run's
//! own ratio of wire bytes acknowledged to stream bytes delivered (QUIC's frame and packet
//! headers, AEAD tag and retransmissions), as the simulator and the testbed count data
//! segments whole.

use super::check::QuicFlow;
use crate::loopback::{Report, DATAGRAM};
use pathpool_experiment::mptcp_outcome::{self, Measured};
use pathpool_experiment::outcome::{ExtraColumn, FlowOutcome, Outcome, Series};
use pathpool_experiment::units::seconds;
use pathpool_experiment::Loaded;
use pathpool_netlab::link_outcome::{self, Queues};
use pathpool_netlab::plan::Plan;

/// IPv4 and UDP headers of every datagram.
const IP_UDP_HEADERS: f64 = 28.0;

/// What the two ends of one flow reported.
pub struct Ends {
    pub sent: Result<Report, String>,
    pub received: Result<Report, String>,
}

/// A cumulative series probed every `probe` from `start` (s after time zero; the series'
/// sample j is at `start + (j + 1) probe`), read at time `t` (0 before its first sample,
/// its last value after its end).
fn at(series: &[u64], start: f64, probe: f64, t: f64) -> u64 {
    let j = ((t - start) / probe).round() as i64 - 1;
    if j < 0 || series.is_empty() {
        return 0;
    }
    series[(j as usize).min(series.len() - 1)]
}

fn at_f(series: &[f64], start: f64, probe: f64, t: f64) -> f64 {
    let j = ((t - start) / probe).round() as i64 - 1;
    if j < 0 || series.is_empty() {
        return f64::NAN;
    }
    series[(j as usize).min(series.len() - 1)]
}

fn mbps(bytes: f64, secs: f64) -> f64 {
    if secs > 0.0 {
        bytes * 8.0 / secs / 1e6
    } else {
        0.0
    }
}

#[allow(clippy::too_many_arguments)]
pub fn assemble(l: &Loaded, plan: &Plan<QuicFlow>, names: &[String], queues: &[Queues], times: &[f64], warm: usize, lost: &[u64], ends: &[Ends], wall: f64) -> Result<Outcome, String> {
    let mut failed = Vec::new();
    for (f, e) in plan.flows.iter().zip(ends) {
        for (what, r) in [("sender", &e.sent), ("receiver", &e.received)] {
            match r {
                Err(err) => failed.push(format!("{} ({what}): {err}", f.name)),
                Ok(r) => failed.extend(r.flows.iter().filter_map(|x| x.error.as_ref()).map(|err| format!("{} ({what}): {err}", f.name))),
            }
        }
    }
    if !failed.is_empty() {
        return Err(format!("QUIC flows failed: {}", failed.join("; ")));
    }
    let sent: Vec<&crate::loopback::FlowReport> = ends.iter().map(|e| &e.sent.as_ref().expect("checked above").flows[0]).collect();
    let received: Vec<&Report> = ends.iter().map(|e| e.received.as_ref().expect("checked above")).collect();
    let probe = seconds(l.scenario.simulation.probe_interval);
    let (t_first, t_last) = (times[warm], *times.last().expect("at least two samples"));
    let window = t_last - t_first;
    let wire = (DATAGRAM as f64 + IP_UDP_HEADERS) / DATAGRAM as f64;
    let mut flows = Vec::new();
    let mut measured = Vec::new();
    let grid: Vec<f64> = (1..times.len() as u64).map(|k| seconds(k * l.scenario.simulation.probe_interval)).collect();
    let (mut thr, mut cwnd, mut srtt) = (Vec::new(), Vec::new(), Vec::new());
    for (i, f) in plan.flows.iter().enumerate() {
        let (s, r, start) = (sent[i], received[i], f.start_s);
        let acked_total: u64 = s.path_bytes.iter().filter_map(|p| p.last()).sum();
        let delivered_total = r.flows[0].received_bytes;
        // Wire bytes per stream byte delivered, as this run measured them.
        let ratio = if delivered_total > 0 { acked_total as f64 * wire / delivered_total as f64 } else { wire };
        let got = &r.flows[0].received;
        let goodput_bytes = at(got, start, probe, t_last).saturating_sub(at(got, start, probe, t_first)) as f64 * ratio;
        let goodput = mbps(goodput_bytes, window);
        let mut subflow_mbps = Vec::new();
        for k in 0..f.spec.paths {
            let bytes = s.path_bytes.get(k).map_or(&[][..], Vec::as_slice);
            let delta = at(bytes, start, probe, t_last).saturating_sub(at(bytes, start, probe, t_first)) as f64 * wire;
            let (name, throughput, delivered) = if f.spec.single { (f.name.clone(), goodput, goodput_bytes) } else { (format!("{}.sf{k}", f.name), mbps(delta, window), delta) };
            if !f.spec.single {
                subflow_mbps.push(throughput);
            }
            flows.push(FlowOutcome { name, bulk: f.spec.bulk, throughput_mbps: throughput, delivered_bytes: delivered as u64, retransmissions: None, fast_retransmits: None, timeouts: None });
            let mut prev = 0.0;
            thr.push(
                grid.iter()
                    .map(|&t| {
                        let dt = t - prev;
                        let d = at(bytes, start, probe, t).saturating_sub(at(bytes, start, probe, prev)) as f64 * wire;
                        prev = t;
                        mbps(d, dt)
                    })
                    .collect::<Vec<f64>>(),
            );
            let c = s.cwnd_bytes.get(k).map_or(&[][..], Vec::as_slice);
            cwnd.push(grid.iter().map(|&t| at_f(c, start, probe, t) / DATAGRAM as f64).map(|v| if v.is_nan() { 0.0 } else { v }).collect::<Vec<f64>>());
            let rtt = s.srtt_ms.get(k).map_or(&[][..], Vec::as_slice);
            srtt.push(grid.iter().map(|&t| at_f(rtt, start, probe, t)).collect::<Vec<f64>>());
        }
        measured.push(Measured { throughput_mbps: goodput, subflow_mbps });
    }
    let samples: Vec<&Queues> = queues.iter().collect();
    let links = link_outcome::assemble(l, plan, names, &samples, warm, window, lost);
    let warnings = pathpool_experiment::phase_lock::warnings(l, &flows);
    Ok(Outcome {
        multipath: mptcp_outcome::assemble(l, &measured, &|_| (Vec::new(), Vec::new())),
        seed: l.scenario.simulation.seed,
        duration_s: seconds(l.scenario.simulation.duration),
        warmup_s: seconds(l.scenario.simulation.warmup),
        flows,
        links: links.links,
        bottleneck: links.bottleneck,
        bottleneck_data_packets: links.bottleneck_data_packets,
        events: 0,
        series: Series {
            times: grid,
            flow_throughput_mbps: thr,
            flow_cwnd_packets: cwnd,
            flow_extra: vec![ExtraColumn { name: "srtt_ms", values: srtt }],
            link_queue_packets: links.queue_packets,
            link_drops: links.drops,
        },
        delay_traces: Vec::new(),
        wall_seconds: wall,
        ran: pathpool_experiment::outcome::Ran { backend: "quic", hosts: Some("real-linux"), ..pathpool_experiment::outcome::Ran::real(l) },
        warnings,
        kernel_warnings: Vec::new(),
    })
}
