//! The per-packet delay logs show what the network did to each packet: one-way delay =
//! propagation + serialisation + queueing, RTT samples bounded below by the base RTT, and
//! retransmissions marked.

mod common;

use common::*;
use pathpool_sim::time::secs;
use pathpool_sim::*;

const RATE: u64 = 10 * MBPS;
/// 1500 B at 10 Mb/s.
const SERIALISATION: Time = 1_200_000_000;

#[test]
fn logs_hold_every_packet_and_respect_the_base_delays() {
    let rtt = ms(40);
    // Two finite transfers that end well before the run does, so every packet sent has
    // either arrived or been dropped (drop-tail: the bottleneck is the only loss).
    let mut d = dumbbell(3, RATE, Discipline::DropTail, 30, &[rtt, rtt], |cfg, i| {
        cfg.log_delays = i == 0;
        cfg.traffic = TcpTraffic::Bytes(6_000_000);
    });
    d.sim.run_until(secs(60), &mut |_| {});
    assert!(d.sim.delay_log(d.flows[1]).is_none(), "only flows that ask keep a log");
    let log = d.sim.delay_log(d.flows[0]).expect("flow 0 logs");
    let (s0, s1) = (d.sim.flow_stats(d.flows[0]), d.sim.flow_stats(d.flows[1]));
    assert!(s0.completed_at.is_some() && s1.completed_at.is_some());
    let drops = d.sim.queue_stats(d.bottleneck).drops;
    assert!(drops > 0, "two Reno flows overflow a 30-packet queue");

    // Every data segment that arrived is in the one-way log, in arrival order.
    let logged = log.owd.len() as u64;
    assert!(logged <= s0.sent_packets && logged + drops >= s0.sent_packets, "{logged} logged, {} sent, {drops} drops", s0.sent_packets);
    assert!(log.owd.windows(2).all(|w| w[0].received <= w[1].received));
    let base_owd = rtt / 2 + SERIALISATION;
    let owds: Vec<Time> = log.owd.iter().map(|s| s.received - s.sent).collect();
    assert_eq!(owds.iter().min(), Some(&base_owd), "the first packet meets an empty queue");
    // A full 30-packet queue adds at most 30 serialisation times (29 waiting + the one in
    // service), and the two flows do fill it.
    let max_owd = *owds.iter().max().unwrap();
    assert!(max_owd <= base_owd + 30 * SERIALISATION, "{max_owd}");
    assert!(max_owd >= base_owd + 25 * SERIALISATION, "{max_owd}");
    let rexmit = log.owd.iter().filter(|s| s.retransmission).count() as u64;
    assert!(rexmit > 0 && rexmit <= s0.retransmissions, "{rexmit} of {}", s0.retransmissions);

    // RTT samples: at least the base RTT (data serialisation, both pipes, the 40 B ACK's
    // serialisation on the reverse queue), in time order, one per new ACK at most.
    let ack_serialisation = SERIALISATION * 40 / 1500;
    assert_eq!(log.rtt.iter().map(|s| s.rtt).min(), Some(rtt + SERIALISATION + ack_serialisation));
    assert!(log.rtt.len() as u64 <= s0.acks_sent && log.rtt.len() as u64 > s0.delivered_packets / 2, "{}", log.rtt.len());
    assert!(log.rtt.windows(2).all(|w| w[0].at <= w[1].at));
}
