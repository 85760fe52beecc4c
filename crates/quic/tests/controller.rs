//! The per-path controllers of one factory share one coupled state: driven by hand with noq's
//! callbacks (no network), they behave as pathpool-cc's multipath controller does, and the
//! slots of dropped paths are freed.

use std::sync::Arc;
use std::time::{Duration, Instant};

use noq::congestion::{Controller, ControllerFactory};
use pathpool_cc::{AckInfo, CcConfig, Connection, Lia};
use pathpool_quic::{CoupledFactory, PathCc, QuicCc};

const MTU: u16 = 1200;

fn path(f: &Arc<CoupledFactory>, now: Instant) -> Box<PathCc> {
    f.clone().build(now, MTU).into_any().downcast::<PathCc>().expect("a PathCc")
}

/// One round: every packet of the window acked in its own ACK frame, `rtt` after sending.
fn round(p: &mut PathCc, pn: &mut u64, start: Instant, rtt: Duration) -> Instant {
    let packets = p.window() / MTU as u64;
    let mut now = start;
    for _ in 0..packets {
        *pn += 1;
        let sent = now;
        now += rtt / packets as u32;
        p.on_packet_acked(sent, MTU as u64, *pn);
        p.on_batch_end(sent + rtt, false);
    }
    start + rtt
}

#[test]
fn two_paths_of_one_connection_run_lia_as_pathpool_cc_does() {
    let t0 = Instant::now();
    let f = CoupledFactory::new(QuicCc::Lia);
    let (mut a, mut b) = (path(&f, t0), path(&f, t0));
    assert_eq!((a.slot(), b.slot()), (0, 1));
    assert_eq!(a.initial_window(), 10 * MTU as u64);
    // The same events on pathpool-cc's LIA directly (segments, nanoseconds from t0).
    let mut lia = Connection::new(Lia, CcConfig::default().window(), 2);
    let (mut pa, mut pb) = (0, 0);
    let mut now = t0;
    for _ in 0..5 {
        now = round(&mut a, &mut pa, now, Duration::from_millis(20));
        now = round(&mut b, &mut pb, now, Duration::from_millis(60));
    }
    // Replay: the window followed byte counting (slow start: doubling per round).
    assert_eq!(a.window(), 320 * MTU as u64, "slow start doubles per round");
    a.on_congestion(now, now - Duration::from_millis(1), false, false);
    assert_eq!(a.window(), 160 * MTU as u64, "a loss halves the window (RFC 9002 §7.3.2)");
    // A second loss of a packet sent before the recovery started: one reduction per window.
    a.on_congestion(now + Duration::from_millis(5), now - Duration::from_millis(2), false, false);
    assert_eq!(a.window(), 160 * MTU as u64);
    // In congestion avoidance the coupled increase is LIA's: compare with pathpool-cc.
    let ms = 1_000_000u64;
    lia.set_window(0, 160.0, 160.0);
    lia.set_window(1, 320.0, f64::INFINITY);
    for _ in 0..8 {
        lia.on_ack(0, 0, AckInfo { newly_acked: 0.0, rtt_sample: Some(20 * ms), cwnd_limited: true });
        lia.on_ack(1, 0, AckInfo { newly_acked: 0.0, rtt_sample: Some(60 * ms), cwnd_limited: true });
    }
    let cwnd0 = |f: &CoupledFactory| f.snapshot()[0].cwnd_bytes / MTU as f64;
    let before = cwnd0(&f);
    let after_recovery = now + Duration::from_millis(10);
    a.on_packet_acked(after_recovery, MTU as u64, 10_000);
    a.on_batch_end(after_recovery + Duration::from_millis(20), false);
    lia.on_ack(0, 0, AckInfo { newly_acked: 1.0, rtt_sample: Some(20 * ms), cwnd_limited: true });
    let grown = cwnd0(&f) - before;
    let expected = lia.cwnd(0) - 160.0;
    assert!(grown > 0.0 && grown < 1.0 / 160.0, "coupled increase below Reno's 1/w: {grown}");
    // The same arithmetic on the same windows and RTTs.
    assert!((grown - expected).abs() < 1e-9, "{grown} vs pathpool-cc's {expected}");
    // The connection's state sees both paths.
    let snap = f.snapshot();
    assert_eq!(snap.len(), 2);
    assert!(snap[0].srtt_ns.is_some() && snap[1].srtt_ns.is_some());
}

#[test]
fn uncoupled_paths_grow_as_reno_and_coupled_ones_slower() {
    let t0 = Instant::now();
    let grow = |kind: QuicCc| {
        let f = CoupledFactory::new(kind);
        let (mut a, mut b) = (path(&f, t0), path(&f, t0));
        let mut now = t0;
        let (mut pa, mut pb) = (0, 0);
        now = round(&mut a, &mut pa, now, Duration::from_millis(20));
        now = round(&mut b, &mut pb, now, Duration::from_millis(20));
        for p in [&mut a, &mut b] {
            p.on_congestion(now, now - Duration::from_millis(1), false, false);
        }
        now += Duration::from_millis(1);
        let before = a.window() + b.window();
        for _ in 0..10 {
            now = round(&mut a, &mut pa, now, Duration::from_millis(20));
            now = round(&mut b, &mut pb, now, Duration::from_millis(20));
        }
        (a.window() + b.window() - before) as f64 / MTU as f64
    };
    let reno = grow(QuicCc::Uncoupled);
    // Two Reno paths: about one segment per path per round, 10 rounds.
    assert!((reno - 20.0).abs() < 2.5, "uncoupled: {reno}");
    for kind in [QuicCc::Lia, QuicCc::Olia, QuicCc::Balia] {
        let coupled = grow(kind);
        // RFC 6356 §3 goal 2: together no more aggressive than one TCP on the shared path
        // (about one segment per round in total); BALIA and OLIA likewise on equal paths.
        assert!(coupled > 0.0 && coupled < 0.65 * reno, "{kind}: {coupled} vs uncoupled {reno}");
    }
}

#[test]
fn persistent_congestion_gives_the_minimum_window_and_dropped_paths_free_their_slot() {
    let t0 = Instant::now();
    let f = CoupledFactory::new(QuicCc::Olia);
    let mut a = path(&f, t0);
    let b = path(&f, t0);
    a.on_congestion(t0 + Duration::from_secs(1), t0, true, false);
    assert_eq!(a.window(), 2 * MTU as u64, "RFC 9002 kMinimumWindow");
    assert_eq!(f.snapshot().len(), 2);
    drop(b);
    assert_eq!(f.snapshot().len(), 1);
    let c = path(&f, t0);
    assert_eq!(c.slot(), 1, "the freed slot is reused");
    assert_eq!(c.window(), 10 * MTU as u64, "fresh state in a reused slot");
    // More paths than slots: the extra ones run alone instead of failing.
    let many: Vec<_> = (0..pathpool_quic::SLOTS + 3).map(|_| path(&f, t0)).collect();
    assert!(many.iter().all(|p| p.window() == 10 * MTU as u64));
    // MTU changes keep the window in segments.
    a.on_mtu_update(1400);
    assert_eq!(a.window(), 2 * 1400);
}
