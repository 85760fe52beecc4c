//! RFC 8382 statistics on tiny traces, computed by hand (RFC 8382 §3.2; docs/sbd.md "Statistics").

use pathpool_trace::gen::{generate, TraceConfig};
use pathpool_sbd::{Rfc8382Detector, SbdParams};

const S: u64 = 1_000_000_000;

/// T = 1 s, N = M = F = 4, no weighting, no noise removal, an observation every interval.
fn tiny() -> SbdParams {
    SbdParams { t_ns: S, n: 4, m: 4, f: 4, min_intervals: 1, noise_removal: false, ..SbdParams::mptcp_sbd() }
}

fn feed(det: &mut Rfc8382Detector, t_ns: u64, owd: &[i64]) {
    while det.poll(t_ns).is_some() {}
    for &o in owd {
        det.on_owd_sample(0, t_ns, o);
    }
}

#[test]
fn skew_mad_crossings_and_loss_by_hand() {
    let mut det = Rfc8382Detector::new(tiny(), 1);
    // Interval 0: no mean yet, so no skew votes and no MAD samples. E_T = 20.
    feed(&mut det, 0, &[10, 20, 30]);
    // Interval 1 against mean_delay 20 and previous mean 20: votes +1 -1 -1 -1 = -2;
    // MAD sum 10 + 3·20 = 70 over 4 samples. E_T = 32.5.
    feed(&mut det, S, &[10, 40, 40, 40]);
    while det.poll(2 * S).is_some() {}
    let s = det.flow_stats()[0];
    assert!((s.skew_est - (-2.0 / 7.0)).abs() < 1e-12, "{s:?}");
    assert!((s.var_est - 17.5).abs() < 1e-12);
    // E_T = 32.5 is above mean 20 + 0.7·17.5 = 32.25: the first excursion, not a crossing.
    assert_eq!(s.freq_est, 0.0);
    // Interval 2 against mean_delay (20 + 32.5)/2 = 26.25 and previous mean 32.5: votes +2;
    // MAD 2·32.5 = 65 (rounded to whole ns: 65). One loss.
    feed(&mut det, 2 * S, &[0, 0]);
    det.on_loss(0, 2 * S);
    while det.poll(3 * S).is_some() {}
    let s = det.flow_stats()[0];
    assert!((s.skew_est - 0.0).abs() < 1e-12, "(0 - 2 + 2) / 9: {s:?}");
    assert!((s.var_est - 135.0 / 6.0).abs() < 1e-12);
    // E_T = 0 is below 26.25 - 0.7·22.5 = 10.5: a significant crossing; freq = 1 / N.
    assert_eq!(s.freq_est, 0.25);
    assert!((s.pkt_loss - 1.0 / 10.0).abs() < 1e-12);
    // Four more intervals without samples or crossings push the crossing out of N = 4.
    for k in 4..=7 {
        while det.poll(k * S).is_some() {}
    }
    assert_eq!(det.flow_stats()[0].freq_est, 0.0);
}

#[test]
fn skew_est_uses_the_responsiveness_weights() {
    // M = N = 3, F = 1: weights 3, 2, 1 from the newest interval (RFC 8382 §4.1).
    let p = SbdParams { m: 3, n: 3, f: 1, ..tiny() };
    let mut det = Rfc8382Detector::new(p, 1);
    feed(&mut det, 0, &[10, 10]); // no mean yet: 0 votes, 2 samples
    feed(&mut det, S, &[5, 20, 20]); // mean 10: +1 -1 -1
    feed(&mut det, 2 * S, &[0]); // mean (10 + 15) / 2: +1
    while det.poll(3 * S).is_some() {}
    let s = det.flow_stats()[0];
    // Σ w·votes = 3·(+1) + 2·(−1) + 1·0; Σ w·n = 3·1 + 2·3 + 1·2.
    let expected = (3.0 - 2.0) / (3.0 + 6.0 + 2.0);
    assert!((s.skew_est - expected).abs() < 1e-12, "{} vs {expected}", s.skew_est);
}

#[test]
fn a_silent_flow_is_not_bottlenecked_even_with_a_positive_c_s() {
    let mut det = Rfc8382Detector::new(SbdParams { min_intervals: 1, ..SbdParams::rfc8382() }, 2);
    for k in 0..5u64 {
        feed(&mut det, k * 350_000_000, &[20_000_000, 20_000_000]);
    }
    let o = det.poll(5 * 350_000_000).expect("an observation").clone();
    assert_eq!(o.groups[1], 0);
    assert!(!det.flow_stats()[1].bottlenecked);
}

#[test]
fn mad_samples_after_an_empty_interval_are_skipped() {
    let mut det = Rfc8382Detector::new(tiny(), 1);
    feed(&mut det, 0, &[10]);
    feed(&mut det, 2 * S, &[50, 50]); // interval 1 was empty
    while det.poll(3 * S).is_some() {}
    let s = det.flow_stats()[0];
    assert_eq!(s.var_est, 0.0, "no previous mean, no MAD sample");
    assert!((s.skew_est - (-2.0 / 3.0)).abs() < 1e-12, "mean_delay skips the empty interval");
}

#[test]
fn standing_queue_is_negatively_skewed_and_an_idle_path_positively() {
    // Mostly high with short dips (a standing queue) vs mostly low with short spikes.
    let run = |high_most: bool| {
        let mut det = Rfc8382Detector::new(SbdParams::mptcp_sbd(), 1);
        for i in 0..60_000u64 {
            let now = i * 1_000_000;
            while det.poll(now).is_some() {}
            let rare = i % 10 == 0;
            let owd = if high_most != rare { 60_000_000 } else { 20_000_000 };
            det.on_owd_sample(0, now, owd);
        }
        det.flow_stats()[0]
    };
    let queue = run(true);
    let idle = run(false);
    assert!(queue.skew_est < -0.5 && queue.bottlenecked, "{queue:?}");
    assert!(idle.skew_est > 0.5 && !idle.bottlenecked, "{idle:?}");
    assert!((0.0..=1.0).contains(&queue.freq_est));
}

#[test]
fn skew_removal_recovers_the_clock_drift_of_a_generated_trace() {
    let cfg = TraceConfig { flows: 1, duration_s: 60.0, clock_skew_ppm: -1000.0, seed: 5, ..TraceConfig::default() };
    let trace = generate(&cfg);
    let (events, _) = pathpool_trace::events::owd_events(&trace.owd, 1);
    let params = SbdParams { skew_removal: true, ..SbdParams::mptcp_sbd() };
    let mut det = Rfc8382Detector::new(params, 1);
    for e in &events {
        while det.poll(e.now_ns()).is_some() {}
        if let pathpool_sbd::replay::Event::Owd { flow, now_ns, owd_ns } = *e {
            det.on_owd_sample(flow, now_ns, owd_ns);
        }
    }
    let est = det.clock_skew(0) * 1e6;
    // The floor of a congested queue wanders by a few ms, so over the 70-s fit window the
    // estimate is good to about a tenth of this (large) skew.
    assert!((est - -1000.0).abs() < 100.0, "estimated {est} ppm");
}

#[test]
fn unsampled_packets_count_for_loss_only() {
    // Two flows see the same samples; flow 1 also receives 6 packets whose delay is not
    // sampled (a thinning receiver). Each has 2 losses.
    let mut det = Rfc8382Detector::new(tiny(), 2);
    for (k, owd) in [[10i64, 30], [20, 40], [10, 50]].iter().enumerate() {
        let t = k as u64 * S;
        while det.poll(t).is_some() {}
        for &o in owd {
            det.on_owd_sample(0, t, o);
            det.on_owd_sample(1, t, o);
        }
        det.on_unsampled_packet(1, t);
        det.on_unsampled_packet(1, t);
    }
    det.on_loss(0, 2 * S);
    det.on_loss(0, 2 * S);
    det.on_loss(1, 2 * S);
    det.on_loss(1, 2 * S);
    while det.poll(3 * S).is_some() {}
    let (a, b) = (det.flow_stats()[0], det.flow_stats()[1]);
    assert!((a.pkt_loss - 2.0 / 8.0).abs() < 1e-12, "{a:?}");
    assert!((b.pkt_loss - 2.0 / 14.0).abs() < 1e-12, "{b:?}");
    // The delay statistics ignore the unsampled packets.
    assert_eq!((a.skew_est, a.var_est, a.freq_est), (b.skew_est, b.var_est, b.freq_est));
}
