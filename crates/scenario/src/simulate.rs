//! Builds the simulation of a checked scenario, runs it, and translates the simulator's
//! statistics into an `Outcome`.

use crate::error::ScenarioError;
use crate::outcome::{FlowOutcome, LinkOutcome, Outcome, Series};
use crate::progress::Progress;
use crate::schema::{Buffer, DirectionSpec, FlowKind, QueueSpec, TcpSpec, TcpTraffic, UdpPattern};
use crate::topology::Hop;
use crate::units::seconds;
use crate::Loaded;
use pathpool_sim as sim;
use std::collections::BTreeMap;
use std::time::Instant;

/// The elements of one link direction, in the order a packet crosses them.
struct Direction {
    queue: sim::ElementId,
    elements: Vec<sim::ElementId>,
}

fn discipline(q: &QueueSpec) -> sim::Discipline {
    match q {
        QueueSpec::DropTail => sim::Discipline::DropTail,
        QueueSpec::Red { min_threshold, max_threshold, max_p, weight, gentle } => sim::Discipline::Red(sim::RedParams {
            min_th: *min_threshold,
            max_th: *max_threshold,
            max_p: *max_p,
            w_q: *weight,
            gentle: *gentle,
            ..sim::RedParams::default()
        }),
        QueueSpec::RandomTailDrop { slots, probability } => {
            sim::Discipline::RandomTailDrop(sim::RandomTailParams { slots: *slots, prob: *probability })
        }
    }
}

fn build_direction(s: &mut sim::Simulation, d: &DirectionSpec, what: &str) -> Result<Direction, String> {
    let buffer = match d.buffer.value {
        Buffer::Packets(n) => sim::Buffer::Packets(n as u32),
        Buffer::Bytes(b) => sim::Buffer::Bytes(b),
    };
    let cfg = sim::QueueConfig { rate_bps: d.rate_bps, buffer, discipline: discipline(&d.queue) };
    let queue = s.add_queue(cfg).map_err(|e| format!("{what}: {e}"))?;
    let mut elements = vec![queue];
    if d.loss > 0.0 {
        elements.push(s.add_random_loss(d.loss).map_err(|e| format!("{what}: {e}"))?);
    }
    elements.push(s.add_pipe(d.delay));
    Ok(Direction { queue, elements })
}

/// Runs the scenario. Errors here mean the simulator refused a configuration that the
/// scenario checks let through; they name the link or flow.
pub fn simulate(l: &Loaded, progress: &Progress) -> Result<Outcome, ScenarioError> {
    simulate_captured(l, progress, None)
}

/// As `simulate`, and with `capture` a pcap per host into that folder (`crate::capture`).
pub fn simulate_captured(l: &Loaded, progress: &Progress, capture: Option<&std::path::Path>) -> Result<Outcome, ScenarioError> {
    let fail = |m: String| ScenarioError::file(&l.source.name, m);
    let spec = &l.scenario.simulation;
    let topo = &l.topology;
    let mut s = sim::Simulation::new(spec.seed);

    // Link directions in the order of Outcome::links: each link forward, then its reverse.
    let mut names = Vec::new();
    let mut directions: Vec<Direction> = Vec::new();
    let mut index: BTreeMap<Hop, usize> = BTreeMap::new();
    for (i, link) in topo.links.iter().enumerate() {
        index.insert(Hop { link: i, reverse: false }, directions.len());
        directions.push(build_direction(&mut s, &link.forward, &format!("link {}", link.name)).map_err(fail)?);
        names.push(link.name.clone());
        if let Some(rev) = &link.reverse {
            index.insert(Hop { link: i, reverse: true }, directions.len());
            directions.push(build_direction(&mut s, rev, &format!("link {} (reverse)", link.name)).map_err(fail)?);
            names.push(format!("{}.reverse", link.name));
        }
    }
    let elements = |hops: &[Hop]| -> Vec<sim::ElementId> { hops.iter().flat_map(|h| directions[index[h]].elements.iter().copied()).collect() };

    let hosts = crate::hosts::Hosts::of(topo);
    let latency = crate::host_latency::receiving_host_latencies(l);
    let latency_of = |host: u64| latency.get(&host).copied().unwrap_or(0);
    // Simulator flows in creation order (a connection's subflows are flows too).
    let mut sim_flows: Vec<(String, bool)> = Vec::with_capacity(topo.flows.len());
    let mut connections = Vec::new();
    for (ti, flow) in topo.flows.iter().enumerate() {
        let template = &l.scenario.flows[flow.template];
        let result = match &template.kind {
            FlowKind::Tcp(t) => {
                let fwd = with_jitter(&mut s, t.send_jitter, elements(&flow.route));
                let rev = with_host_latency(&mut s, latency_of(hosts.receiver(&flow.route)), hosts.receiver(&flow.route), elements(&flow.reverse_route));
                let mut cfg = sim::TcpFlowConfig::new(fwd, rev);
                cfg.cc = t.cc;
                let cubic = pathpool_cc::CubicParams { rules: t.cubic_rules, ..Default::default() };
                cfg.cc_config = sim::CcConfig { initial_cwnd: t.initial_window, cubic, min_ssthresh: min_ssthresh(t), ..sim::CcConfig::default() };
                tcp_keys(&mut cfg, t, flow.start, flow.stop);
                cfg.traffic = crate::convert::traffic(t.traffic);
                cfg.log_delays = t.log_delays;
                sim_flows.push((flow.name.clone(), t.traffic == TcpTraffic::Bulk));
                s.add_tcp_flow(cfg).map(|_| ())
            }
            FlowKind::Udp(u) => {
                let pattern = match u.pattern {
                    UdpPattern::Constant { rate_bps } => sim::UdpPattern::Constant { bps: rate_bps },
                    UdpPattern::Poisson { rate_bps } => sim::UdpPattern::Poisson { pps: rate_bps as f64 / (u.packet_size * 8) as f64 },
                    UdpPattern::OnOff { rate_bps, mean_on, mean_off, pareto_shape } => {
                        sim::UdpPattern::OnOff { rate_bps, mean_on, pareto_shape, mean_off }
                    }
                };
                sim_flows.push((flow.name.clone(), false));
                s.add_udp_source(sim::UdpConfig { route: elements(&flow.route), packet_bytes: u.packet_size as u32, pattern, start: flow.start, stop: flow.stop }).map(|_| ())
            }
            FlowKind::Mptcp(m) => {
                let routes = flow
                    .subflows
                    .iter()
                    .map(|(f, r)| sim::SubflowRoute {
                        fwd: with_jitter(&mut s, m.tcp.send_jitter, elements(f)),
                        rev: with_host_latency(&mut s, latency_of(hosts.receiver(f)), hosts.receiver(f), elements(r)),
                    })
                    .collect();
                let mut cc = crate::scheme::scheme_of(m).map_err(|e| fail(format!("flow {}: {e}", flow.name)))?;
                if let (sim::MultipathCc::MptcpSbd(p), Some(floor)) = (&mut cc, m.tcp.min_ssthresh) {
                    p.min_ssthresh = floor;
                }
                let mut cfg = sim::MptcpConfig::new(routes, cc);
                cfg.scheduler = crate::convert::scheduler(m.scheduler);
                cfg.receive_buffer = m.receive_buffer;
                let t = &m.tcp;
                cfg.tcp.cc_config = sim::CcConfig { initial_cwnd: t.initial_window, min_ssthresh: min_ssthresh(t), ..sim::CcConfig::default() };
                tcp_keys(&mut cfg.tcp, t, flow.start, flow.stop);
                let first = sim_flows.len();
                for k in 0..flow.subflows.len() {
                    sim_flows.push((format!("{}.sf{k}", flow.name), false));
                }
                s.add_mptcp_connection(cfg).map(|id| connections.push((ti, id, first)))
            }
        };
        result.map_err(|e| fail(format!("flow {}: {e}", flow.name)))?;
    }
    s.set_probe_interval(spec.probe_interval).map_err(|e| fail(format!("simulation.probe_interval: {e}")))?;
    if let Some(dir) = capture {
        crate::capture::attach(&mut s, l, &connections, dir).map_err(fail)?;
    }

    let bottleneck = topo.bottleneck.map(|i| index[&Hop { link: i, reverse: false }]);
    let started = Instant::now();
    let mut tick = |t: sim::Time| progress.update(t);
    s.run_until(spec.warmup, &mut tick);
    // Departures before the mark, so that data_packets covers the whole run.
    let warmup_departures = bottleneck.map_or(0, |b| s.queue_stats(directions[b].queue).departed_packets);
    s.mark_warmup_end();
    s.run_until(spec.duration, &mut tick);
    let wall_seconds = started.elapsed().as_secs_f64();
    if let Some(dir) = capture {
        s.finish_capture().map_err(|e| fail(format!("--pcap: writing into '{}': {e}", dir.display())))?;
    }

    let flows: Vec<FlowOutcome> = sim_flows
        .iter()
        .enumerate()
        .map(|(i, (name, bulk))| {
            let st = s.flow_stats(sim::FlowId(i as u32));
            FlowOutcome {
                name: name.clone(),
                bulk: *bulk,
                throughput_mbps: st.throughput_bps / 1e6,
                delivered_bytes: st.delivered_bytes,
                retransmissions: Some(st.retransmissions),
                fast_retransmits: Some(st.fast_retransmits),
                timeouts: Some(st.timeouts),
            }
        })
        .collect();
    let links: Vec<LinkOutcome> = directions
        .iter()
        .zip(&names)
        .map(|(d, name)| {
            let st = s.queue_stats(d.queue);
            LinkOutcome { name: name.clone(), utilization: st.utilisation, drops: st.drops, mean_queue_packets: st.mean_packets }
        })
        .collect();
    let bottleneck_data_packets = bottleneck.map(|b| warmup_departures + s.queue_stats(directions[b].queue).departed_packets);
    let multipath = crate::collect::collect(l, &s, &connections, &sim_flows);
    let delay_traces = sim_flows
        .iter()
        .enumerate()
        .filter_map(|(i, (name, _))| Some(crate::delay_trace::DelayTrace { flow: name.clone(), log: crate::convert::delay_log(s.delay_log(sim::FlowId(i as u32))?) }))
        .collect();
    Ok(Outcome {
        multipath,
        seed: spec.seed,
        duration_s: seconds(spec.duration),
        warmup_s: seconds(spec.warmup),
        links,
        bottleneck,
        bottleneck_data_packets,
        events: s.events_processed(),
        series: series(s.series(), &directions),
        warnings: crate::phase_lock::warnings(l, &flows),
        kernel_warnings: Vec::new(),
        flows,
        delay_traces,
        wall_seconds,
        ran: crate::outcome::Ran::simulator(l),
    })
}

fn series(p: &sim::ProbeSeries, directions: &[Direction]) -> Series {
    let by_queue: BTreeMap<sim::ElementId, &sim::QueueSeries> = p.queues.iter().map(|q| (q.queue, q)).collect();
    let mut flows: Vec<&sim::FlowSeries> = p.flows.iter().collect();
    flows.sort_by_key(|f| f.flow);
    let n = p.times.len();
    Series {
        times: p.times.iter().map(|&t| seconds(t)).collect(),
        flow_throughput_mbps: flows.iter().map(|f| f.throughput_bps.iter().map(|b| b / 1e6).collect()).collect(),
        flow_cwnd_packets: flows.iter().map(|f| f.cwnd.clone()).collect(),
        flow_extra: Vec::new(),
        link_queue_packets: directions
            .iter()
            .map(|d| by_queue.get(&d.queue).map_or_else(|| vec![f64::NAN; n], |q| q.packets.iter().map(|&p| p as f64).collect()))
            .collect(),
        link_drops: directions.iter().map(|d| by_queue.get(&d.queue).map_or_else(|| vec![0; n], |q| q.drops.clone())).collect(),
    }
}

/// The ssthresh floor of a flow's controller: the scenario's (`min_ssthresh`, 2 segments
/// under Linux hosts) or each algorithm's own.
fn min_ssthresh(t: &TcpSpec) -> pathpool_cc::MinSsthresh {
    t.min_ssthresh.map_or(pathpool_cc::MinSsthresh::Auto, pathpool_cc::MinSsthresh::Fixed)
}

/// Puts a send-jitter element (`send_jitter`, docs/fidelity.md) in front of a sender's route.
fn with_jitter(s: &mut sim::Simulation, jitter: u64, mut fwd: Vec<sim::ElementId>) -> Vec<sim::ElementId> {
    if jitter > 0 {
        fwd.insert(0, s.add_send_jitter(jitter));
    }
    fwd
}

/// Puts the receiving host's latency (`simulation.host_latency`) in front of the route of
/// the ACKs it sends.
fn with_host_latency(s: &mut sim::Simulation, max: u64, host: u64, mut rev: Vec<sim::ElementId>) -> Vec<sim::ElementId> {
    if max > 0 {
        rev.insert(0, s.add_host_latency(max, host));
    }
    rev
}

/// SO_RCVLOWAT in whole segments. Linux's segments carry `packet_size` less 64 bytes of data
/// on the testbed: TCP_MAXSEG is the packet less 52 bytes of headers, and the timestamp
/// option takes 12 more (its captures show 1488-byte packets for `packet_size = 1500`).
fn lowat_segments(bytes: u64, packet_size: u64) -> u32 {
    let payload = packet_size.saturating_sub(64).max(1);
    bytes.div_ceil(payload).min(u32::MAX as u64) as u32
}

/// The TCP keys a TCP flow and every subflow of an MPTCP connection share.
fn tcp_keys(cfg: &mut sim::TcpFlowConfig, t: &crate::schema::TcpSpec, start: sim::Time, stop: Option<sim::Time>) {
    let timeout = match (t.linux_receiver, t.delack_max) {
        // TCP_BPF_DELACK_MAX's floor, 2 jiffies, at the testbed kernel's HZ of 250: the timer
        // fires at the second tick after the segment, 4-8 ms later; the simulator takes 8 ms.
        (true, true) => sim::time::millis(8),
        (true, false) => sim::TcpFlowConfig::LINUX_DELAYED_ACK,
        _ => sim::TcpFlowConfig::DEFAULT_DELAYED_ACK,
    };
    cfg.recovery = crate::convert::recovery(t.recovery);
    cfg.delayed_ack = t.delayed_ack.then_some(timeout);
    cfg.linux_receiver = t.linux_receiver;
    cfg.subflow_read_alone = t.subflow_read_alone;
    cfg.read_lowat_segments = t.receive_lowat.map_or(0, |bytes| lowat_segments(bytes, t.packet_size));
    cfg.linux_send_buffer = t.linux_send_buffer;
    cfg.linux_6_18 = t.linux_6_18;
    cfg.mss_bytes = t.packet_size as u32;
    cfg.ack_bytes = t.ack_size as u32;
    cfg.min_rto = t.min_rto;
    cfg.rto_rule = t.rto;
    cfg.rack_lost_retransmit = t.rack_lost_retransmit;
    cfg.max_rto = cfg.max_rto.max(t.min_rto);
    cfg.start = start;
    cfg.stop = stop;
}
