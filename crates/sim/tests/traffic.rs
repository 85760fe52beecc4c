//! Traffic sources send what they are configured to send.

mod common;

use common::*;
use pathpool_sim::time::{secs, to_secs_f64};
use pathpool_sim::*;

fn udp_rate(pattern: UdpPattern, seconds: u64, stop: Option<Time>) -> (f64, FlowStats) {
    let mut sim = Simulation::new(5);
    let p = sim.add_pipe(ms(1));
    let f = sim.add_udp_source(UdpConfig { route: vec![p], packet_bytes: 1000, pattern, start: secs(1), stop }).unwrap();
    sim.run_until(secs(1 + seconds) + ms(2), &mut |_| {});
    let s = sim.flow_stats(f);
    (s.delivered_bytes as f64 * 8.0 / seconds as f64, s)
}

#[test]
fn constant_rate_udp_sends_exactly_its_rate() {
    let (_, s) = udp_rate(UdpPattern::Constant { bps: MBPS }, 10, None);
    // One 1000-byte packet every 8 ms from t = 1 s, through t = 11 s inclusive.
    assert_eq!(s.delivered_packets, 1251);
    let (_, s) = udp_rate(UdpPattern::Constant { bps: MBPS }, 10, Some(secs(6)));
    assert_eq!(s.delivered_packets, 625, "nothing is sent from the stop time on");
}

#[test]
fn poisson_udp_has_the_requested_mean_rate() {
    let (bps, _) = udp_rate(UdpPattern::Poisson { pps: 500.0 }, 200, None);
    assert!((bps / 4.0e6 - 1.0).abs() < 0.02, "{bps}");
}

#[test]
fn on_off_udp_sends_at_rate_times_the_on_fraction() {
    let pattern = UdpPattern::OnOff { rate_bps: 2 * MBPS, mean_on: ms(500), pareto_shape: 2.5, mean_off: ms(1500) };
    let (bps, _) = udp_rate(pattern, 2000, None);
    assert!((bps / 0.5e6 - 1.0).abs() < 0.06, "{bps}");
}

#[test]
fn rate_limited_tcp_sends_at_its_application_rate() {
    let mut sim = Simulation::new(1);
    let q = sim.add_queue(QueueConfig::drop_tail(100 * MBPS, Buffer::Packets(100))).unwrap();
    let p = sim.add_pipe(ms(10));
    let b = sim.add_pipe(ms(10));
    let mut cfg = TcpFlowConfig::new(vec![q, p], vec![b]);
    cfg.traffic = TcpTraffic::RateLimited { bps: 12 * MBPS };
    let f = sim.add_tcp_flow(cfg).unwrap();
    run_measured(&mut sim, secs(2), secs(20));
    let s = sim.flow_stats(f);
    assert!((s.throughput_bps / 12.0e6 - 1.0).abs() < 0.01, "{}", s.throughput_bps);
    assert_eq!(s.retransmissions, 0);
}

#[test]
fn a_finite_transfer_completes_and_records_its_time() {
    let mut sim = Simulation::new(1);
    let q = sim.add_queue(QueueConfig::drop_tail(10 * MBPS, Buffer::Packets(1000))).unwrap();
    let p = sim.add_pipe(ms(10));
    let b = sim.add_pipe(ms(10));
    let mut cfg = TcpFlowConfig::new(vec![q, p], vec![b]);
    cfg.traffic = TcpTraffic::Bytes(1_500_000);
    cfg.start = secs(1);
    let f = sim.add_tcp_flow(cfg).unwrap();
    sim.run_until(secs(30), &mut |_| {});
    let s = sim.flow_stats(f);
    assert_eq!(s.delivered_packets, 1000);
    // 1000 packets at 10 Mb/s take 1.2 s; slow start from 10 adds a few RTTs.
    let took = to_secs_f64(s.completed_at.unwrap() - secs(1));
    assert!((1.2..1.5).contains(&took), "{took}");
}

#[test]
fn bad_configurations_are_rejected_with_the_field_named() {
    let mut sim = Simulation::new(1);
    let err = sim.add_queue(QueueConfig::drop_tail(0, Buffer::Packets(5))).unwrap_err();
    assert!(err.0.contains("rate_bps"), "{err}");
    let red = RedParams { max_th: 1.0, ..RedParams::default() };
    let err = sim.add_queue(QueueConfig { rate_bps: 1, buffer: Buffer::Packets(5), discipline: Discipline::Red(red) }).unwrap_err();
    assert!(err.0.contains("max_th"), "{err}");
    assert!(sim.add_random_loss(1.5).unwrap_err().0.contains("probability"));
    let p = sim.add_pipe(ms(1));
    let f = sim.add_tcp_flow(TcpFlowConfig::new(vec![p], vec![p])).unwrap();
    let _ = f;
    let err = sim.add_tcp_flow(TcpFlowConfig::new(vec![ElementId(99)], vec![])).unwrap_err();
    assert!(err.0.contains("fwd") && err.0.contains("99"), "{err}");
    // Element 1 is the first flow's sender: endpoints cannot be route hops.
    let err = sim.add_tcp_flow(TcpFlowConfig::new(vec![p, ElementId(1)], vec![])).unwrap_err();
    assert!(err.0.contains("endpoint"), "{err}");
    let mut cfg = TcpFlowConfig::new(vec![p], vec![]);
    cfg.mss_bytes = 0;
    assert!(sim.add_tcp_flow(cfg).unwrap_err().0.contains("mss_bytes"));
    let bad = UdpConfig { route: vec![p], packet_bytes: 100, pattern: UdpPattern::OnOff { rate_bps: 1, mean_on: 1, pareto_shape: 1.0, mean_off: 1 }, start: 0, stop: None };
    assert!(sim.add_udp_source(bad).unwrap_err().0.contains("pareto_shape"));
    assert!(sim.set_probe_interval(0).is_err());
}
