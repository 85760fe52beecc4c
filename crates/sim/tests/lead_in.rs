//! Hosts' delays folded into the queue after them (crate::lead_in, docs/simulator.md "Host
//! delays without events"): a receiving host's latency in front of a reverse queue all of whose
//! inputs carry the same latency, and a sender's send jitter in front of its own access
//! queue, give the same results as the pipes that deliver each packet by an event, with
//! fewer events; and routes the fold cannot keep in order keep their pipes.

mod common;

use common::*;
use pathpool_sim::time::micros;
use pathpool_sim::*;

/// Everything a run reports: every flow's and queue's statistics over the measurement
/// window, the probes' time series, and MPTCP's connection-level statistics.
#[derive(Debug, PartialEq)]
struct Results {
    flows: Vec<FlowStats>,
    queues: Vec<QueueStats>,
    series: ProbeSeries,
    mptcp: Vec<MptcpStats>,
}

struct Run {
    results: Results,
    events: u64,
}

/// A dumbbell whose hosts are Linux-like: flow i sends through its own send jitter (350 us)
/// and, where `access` says so, its own access queue, into a shared bottleneck; flow i's
/// receiver is host `hosts[i]`, whose ACKs wait its latency (up to 900 us) in front of a
/// reverse queue all flows share, small and slow enough to queue and drop ACKs. The last two
/// flows are the subflows of an LIA connection with Linux's send buffers.
fn run(fold: bool, seed: u64, hosts: &[u64], access: bool, reverse: Discipline) -> Run {
    let mut sim = Simulation::new(seed);
    sim.set_fold_lead_ins(fold);
    let bottleneck = sim.add_queue(QueueConfig::drop_tail(20 * MBPS, Buffer::Packets(25))).unwrap();
    let fwd = sim.add_pipe(ms(10));
    let back_queue = sim.add_queue(QueueConfig { rate_bps: MBPS / 2, buffer: Buffer::Packets(12), discipline: reverse }).unwrap();
    let back = sim.add_pipe(ms(10));
    let path = |sim: &mut Simulation, i: usize| {
        let mut f = vec![sim.add_send_jitter(micros(350))];
        if access {
            f.push(sim.add_queue(QueueConfig::drop_tail(100 * MBPS, Buffer::Packets(4))).unwrap());
            f.push(sim.add_pipe(micros(100)));
        }
        f.extend([bottleneck, fwd]);
        let r = vec![sim.add_host_latency(micros(900), hosts[i]), back_queue, back];
        (f, r)
    };
    let mut flows = Vec::new();
    for i in 0..hosts.len() - 2 {
        let (f, r) = path(&mut sim, i);
        let mut cfg = TcpFlowConfig::new(f, r);
        cfg.delayed_ack = None;
        cfg.start = ms(3 * i as u64);
        flows.push(sim.add_tcp_flow(cfg).unwrap());
    }
    let n = hosts.len();
    let subflows = (n - 2..n)
        .map(|i| {
            let (fwd, rev) = path(&mut sim, i);
            SubflowRoute { fwd, rev }
        })
        .collect();
    let mut cfg = MptcpConfig::new(subflows, MultipathCc::Coupled(Algorithm::Lia));
    cfg.tcp.linux_send_buffer = true;
    cfg.tcp.linux_6_18 = true;
    let conn = sim.add_mptcp_connection(cfg).unwrap();
    // Probes more often than a latency, so that they read the queues between a packet's
    // entering a host's delay and its arrival.
    sim.set_probe_interval(micros(2_900)).unwrap();
    run_measured(&mut sim, ms(1_500), ms(4_000));
    let results = Results {
        flows: (0..sim.flow_count()).map(|f| sim.flow_stats(FlowId(f as u32))).collect(),
        queues: sim.queue_ids().into_iter().map(|q| sim.queue_stats(q)).collect(),
        series: sim.series().clone(),
        mptcp: vec![sim.mptcp_stats(conn)],
    };
    Run { results, events: sim.events_processed() }
}

/// Runs with the pipes and with the fold over three seeds: identical results; the events of
/// each summed.
fn same_results(hosts: &[u64], access: bool, reverse: Discipline) -> (u64, u64) {
    let mut counts = (0, 0);
    for seed in 1..=3 {
        let (pipes, folded) = (run(false, seed, hosts, access, reverse.clone()), run(true, seed, hosts, access, reverse.clone()));
        assert!(pipes.results.queues.iter().any(|q| q.drops > 0), "seed {seed}: no queue dropped");
        assert!(pipes.results.queues[1].drops > 0, "seed {seed}: the reverse queue never dropped an ACK");
        assert!(pipes.results == folded.results, "seed {seed}: the fold changed the results");
        counts = (counts.0 + pipes.events, counts.1 + folded.events);
    }
    counts
}

#[test]
fn one_latency_in_front_of_the_reverse_queue_folds_without_changing_results() {
    let (pipes, folded) = same_results(&[0; 6], false, Discipline::DropTail);
    // The reverse queue's latency pipes go, and so does the send jitter into the shared
    // bottleneck, merged (sim/merge.rs): two events per packet of four.
    assert!(folded * 10 < pipes * 6, "{pipes} -> {folded} events");
}

#[test]
fn jitter_into_an_own_access_queue_folds_without_changing_results() {
    let random_tail = Discipline::RandomTailDrop(RandomTailParams { slots: 3, prob: 0.5 });
    let (pipes, folded) = same_results(&[0; 6], true, random_tail);
    // Both hosts' delays go: three events per packet of five (the access link's pipe
    // delivers into the bottleneck by an event).
    assert!(folded * 100 < pipes * 65, "{pipes} -> {folded} events");
}

#[test]
fn different_latencies_into_one_queue_merge_without_changing_results() {
    // Two receiving hosts, two latencies, one reverse queue: the ACKs' arrival order there is
    // not that of their sending, so the queue decides each once the present has passed its
    // arrival (sim/merge.rs), as it does with the senders' jitter into the bottleneck.
    assert_ne!(host_latency(1, micros(900), 0), host_latency(1, micros(900), 1));
    let (pipes, folded) = same_results(&[0, 1, 0, 1, 0, 1], false, Discipline::DropTail);
    assert!(folded * 10 < pipes * 6, "{pipes} -> {folded} events");
}

/// Two short transfers through their senders' jitter into one queue, and nothing else that
/// would make the simulation stop before a packet must have been decided: the first
/// packets' next event would be the retransmission timer, a second later. The merged queue
/// must still decide each packet in time (its guard event), so the transfers end when they
/// did with the pipes, in fewer events (without the guard the decisions wait for the
/// timer, and the run takes more events than with the pipes).
#[test]
fn a_merged_queue_decides_in_time_when_nothing_else_happens() {
    let run = |fold: bool| {
        let mut sim = Simulation::new(3);
        sim.set_fold_lead_ins(fold);
        let q = sim.add_queue(QueueConfig::drop_tail(10 * MBPS, Buffer::Packets(20))).unwrap();
        let fwd = sim.add_pipe(ms(10));
        let back = sim.add_pipe(ms(10));
        let flows: Vec<FlowId> = (0..2u64)
            .map(|i| {
                let mut cfg = TcpFlowConfig::new(vec![sim.add_send_jitter(micros(350)), q, fwd], vec![back]);
                cfg.traffic = TcpTraffic::Bytes(3 * 1500);
                cfg.delayed_ack = None;
                cfg.start = i;
                sim.add_tcp_flow(cfg).unwrap()
            })
            .collect();
        sim.run_until(ms(3_000), &mut |_| {});
        let stats: Vec<FlowStats> = flows.iter().map(|&f| sim.flow_stats(f)).collect();
        (stats, sim.queue_stats(q), sim.events_processed())
    };
    let (pipes, folded) = (run(false), run(true));
    assert!(pipes.0.iter().all(|f| f.completed_at.is_some() && f.timeouts == 0), "{:?}", pipes.0);
    assert!(folded.2 < pipes.2, "{} -> {} events", pipes.2, folded.2);
    assert!(pipes.0 == folded.0 && pipes.1 == folded.1, "the merge changed the results");
}

#[test]
fn a_queue_whose_pipe_others_enter_too_keeps_the_jitter_pipes() {
    // The bottleneck's pipe also carries a third flow's packets that did not come through the
    // bottleneck: a decision made after the arrival could reach the pipe behind a packet due
    // later, so the senders' jitter pipes stay.
    let run = |fold: bool| {
        let mut sim = Simulation::new(1);
        sim.set_fold_lead_ins(fold);
        let q = sim.add_queue(QueueConfig::drop_tail(10 * MBPS, Buffer::Packets(20))).unwrap();
        let side = sim.add_queue(QueueConfig::drop_tail(10 * MBPS, Buffer::Packets(20))).unwrap();
        let fwd = sim.add_pipe(ms(10));
        let back = sim.add_pipe(ms(10));
        let mut fwds = vec![vec![sim.add_send_jitter(micros(350)), q, fwd], vec![sim.add_send_jitter(micros(350)), q, fwd]];
        fwds.push(vec![side, fwd]);
        for f in fwds {
            let mut cfg = TcpFlowConfig::new(f, vec![back]);
            cfg.stop = Some(ms(500));
            sim.add_tcp_flow(cfg).unwrap();
        }
        sim.run_until(ms(600), &mut |_| {});
        sim.events_processed()
    };
    assert_eq!(run(false), run(true));
}

#[test]
fn a_route_added_later_may_not_enter_a_folded_queue_another_way() {
    let mut sim = Simulation::new(1);
    let q = sim.add_queue(QueueConfig::drop_tail(10 * MBPS, Buffer::Packets(10))).unwrap();
    let p = sim.add_pipe(ms(5));
    let lat = sim.add_host_latency(micros(500), 0);
    sim.add_udp_source(UdpConfig { route: vec![lat, q, p], packet_bytes: 1000, pattern: UdpPattern::Constant { bps: MBPS }, start: 0, stop: None }).unwrap();
    sim.run_until(ms(10), &mut |_| {});
    let direct = UdpConfig { route: vec![q, p], packet_bytes: 1000, pattern: UdpPattern::Constant { bps: MBPS }, start: ms(10), stop: None };
    let e = sim.add_udp_source(direct).unwrap_err().to_string();
    assert!(e.contains(&format!("element {}", q.0)) && e.contains("folded"), "{e}");
    // The way the routes before it went is still open.
    sim.add_udp_source(UdpConfig { route: vec![lat, q, p], packet_bytes: 1000, pattern: UdpPattern::Constant { bps: MBPS }, start: ms(10), stop: None }).unwrap();
}

/// Without jitter and with round numbers, events tie at the same picosecond all the time: data
/// packets leave the bottleneck every 100 us (1000 B at 80 Mb/s) and each ACK takes 200 us to
/// serialise on the reverse link (40 B at 1.6 Mb/s), so ACKs arrive at the reverse queue as
/// one departs, and the queue's tie rule (the delivering event's scheduling time against the
/// departing packet's service start) decides whether a place in its small buffer is free.
/// The scheduling time is that of the latency's event, which for an ACK behind another in
/// the latency is when that one left it: the folded queue must decide every tie as the
/// pipes' events did.
#[test]
fn ties_at_the_reverse_queue_are_decided_as_with_the_pipes() {
    let run = |fold: bool| {
        let mut sim = Simulation::new(1);
        sim.set_fold_lead_ins(fold);
        let bottleneck = sim.add_queue(QueueConfig::drop_tail(80 * MBPS, Buffer::Packets(30))).unwrap();
        let fwd = sim.add_pipe(ms(5));
        let back_queue = sim.add_queue(QueueConfig::drop_tail(1_600_000, Buffer::Packets(3))).unwrap();
        let back = sim.add_pipe(ms(5));
        let flows: Vec<FlowId> = (0..2u64)
            .map(|i| {
                let latency = sim.add_pipe(micros(450));
                let mut cfg = TcpFlowConfig::new(vec![bottleneck, fwd], vec![latency, back_queue, back]);
                cfg.delayed_ack = None;
                cfg.mss_bytes = 1000;
                cfg.start = ms(i);
                sim.add_tcp_flow(cfg).unwrap()
            })
            .collect();
        sim.set_probe_interval(micros(1_000)).unwrap();
        run_measured(&mut sim, ms(500), ms(2_000));
        let stats: Vec<FlowStats> = flows.iter().map(|&f| sim.flow_stats(f)).collect();
        (stats, sim.queue_stats(back_queue), sim.series().clone(), sim.events_processed())
    };
    let (pipes, folded) = (run(false), run(true));
    assert!(pipes.1.drops > 0, "the reverse queue never dropped an ACK");
    assert!(folded.3 < pipes.3, "{} -> {} events", pipes.3, folded.3);
    assert!(pipes.0 == folded.0 && pipes.1 == folded.1 && pipes.2 == folded.2, "the fold changed the results");
}

#[test]
fn a_route_added_later_may_not_enter_a_merged_queues_pipe() {
    let mut sim = Simulation::new(1);
    let q = sim.add_queue(QueueConfig::drop_tail(10 * MBPS, Buffer::Packets(10))).unwrap();
    let p = sim.add_pipe(ms(5));
    let udp = |route: Vec<ElementId>, start: Time| UdpConfig { route, packet_bytes: 1000, pattern: UdpPattern::Constant { bps: MBPS }, start, stop: None };
    let (a, b) = (sim.add_send_jitter(micros(350)), sim.add_send_jitter(micros(350)));
    sim.add_udp_source(udp(vec![a, q, p], 0)).unwrap();
    sim.add_udp_source(udp(vec![b, q, p], 0)).unwrap();
    sim.run_until(ms(10), &mut |_| {});
    let e = sim.add_udp_source(udp(vec![p], ms(10))).unwrap_err().to_string();
    assert!(e.contains(&format!("element {}", p.0)) && e.contains("folded"), "{e}");
    // Through the queue as the routes before it went is still open.
    sim.add_udp_source(udp(vec![a, q, p], ms(10))).unwrap();
}
