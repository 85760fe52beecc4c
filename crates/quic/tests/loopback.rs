//! Multipath QUIC over two loopback paths shaped in user space (no root): bytes arrive
//! intact, the coupled windows on a shared bottleneck stay within RFC 6356's bound, a path
//! that dies mid-transfer fails over cleanly, and bad input is an error, not a panic.

use pathpool_quic::loopback::{run, Experiment, FlowSpec, LinkSpec, PathSpec, DATAGRAM};
use pathpool_quic::QuicCc;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The transfers run one at a time: two at once on a small machine would disturb each
/// other's timing.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

const RATE_MBPS: f64 = 10.0;
const DELAY: Duration = Duration::from_millis(10);
/// One bandwidth-delay product at 10 Mb/s and a 20 ms RTT.
const BDP: u64 = 25_000;

fn shared(cc: QuicCc, seconds: u64) -> Experiment {
    Experiment {
        links: vec![LinkSpec { name: "shared".into(), rate_mbps: RATE_MBPS, buffer_bytes: BDP }],
        flows: vec![FlowSpec { name: "mp".into(), cc, paths: vec![PathSpec { link: 0, delay: DELAY }, PathSpec { link: 0, delay: DELAY }] }],
        duration: Duration::from_secs(seconds),
        warmup: Duration::from_secs(1),
        probe: Duration::from_millis(10),
        kill: None,
        grace: Duration::from_secs(5),
    }
}

#[test]
fn two_coupled_paths_deliver_intact_bytes_within_rfc6356s_bound() {
    let _serial = serial();
    let t = Instant::now();
    let r = run(&shared(QuicCc::Lia, 4)).expect("the experiment runs");
    let f = &r.flows[0];
    assert_eq!(f.error, None);
    assert!(f.intact, "sent {} received {}", f.sent_bytes, f.received_bytes);
    assert!(f.received_bytes > 1_000_000, "received {}", f.received_bytes);
    // Both paths carried data.
    for (k, p) in f.path_bytes.iter().enumerate() {
        assert!(*p.last().unwrap() > 100_000, "path {k} carried {:?}", p.last());
    }
    // RFC 6356 §2 goal 2 / §3: on a shared bottleneck the paths together take no more than
    // one TCP flow there: between window reductions the window sum grows by at most what one
    // Reno flow on the fastest path would, one datagram per smoothed RTT (10 % for the probes'
    // timing); two uncoupled paths grow about twice that (measured: 1.25x the bound, where LIA
    // stays at 0.45-0.7x). Checked from the time every path has reduced its window once (slow
    // start overshoots before that, for any controller). The window sum itself is printed
    // beside the bottleneck's capacity (BDP + buffer) but not asserted: on a loaded machine
    // the relay's delay line runs late, the pipe holds more than its BDP, and windows
    // legitimately grow past it.
    let n = r.times.len();
    let sums: Vec<f64> = (0..n).map(|i| f.cwnd_bytes.iter().map(|c| c[i]).sum()).collect();
    let cut = |c: &Vec<f64>| (1..c.len()).find(|&i| c[i] < c[i - 1] * 0.75).expect("every path saw a loss");
    let first_cut = f.cwnd_bytes.iter().map(cut).max().unwrap();
    let (mut grown, mut reno) = (0.0, 0.0);
    for i in first_cut + 1..n {
        if f.cwnd_bytes.iter().all(|c| c[i] >= c[i - 1]) {
            let dt = r.times[i] - r.times[i - 1];
            let srtt = f.srtt_ms.iter().map(|s| s[i]).fold(f64::INFINITY, f64::min) / 1e3;
            grown += sums[i] - sums[i - 1];
            reno += DATAGRAM as f64 * dt / srtt;
        }
    }
    let capacity = 2 * BDP;
    let worst = sums[first_cut..].iter().cloned().fold(0.0, f64::max);
    eprintln!("coupled growth {grown:.0} B vs one Reno flow's {reno:.0} B; window sum max {worst:.0} B, BDP + buffer {capacity} B; goodput {:.2} Mb/s; {:?}", f.goodput_mbps, t.elapsed());
    assert!(grown <= 1.1 * reno, "coupled paths grew {grown} B, one Reno flow {reno} B");
    // The link was used: the shared bottleneck carried most of its capacity.
    assert!(f.goodput_mbps > 0.4 * RATE_MBPS, "goodput {}", f.goodput_mbps);
    // The ACK delays inferred from noq's RTT estimator are ACK delays: some were seen, and
    // none exceeds the 25 ms noq caps them at (RFC 9000 §18.2 max_ack_delay's default).
    // noq's `smoothed = (7 smoothed + adjusted) / 8` truncates to whole nanoseconds, so
    // `8 smoothed - 7 before` is up to 7 ns below `adjusted` and an inferred delay up to 7 ns
    // above the true one (25.000004 ms was seen at the cap).
    const TRUNCATION_NS: u64 = 7;
    let d = f.ack_delay;
    eprintln!("ACK delay: {} samples, mean {:.1} us, max {:.3} ms, {} over 1 ms", d.samples, d.sum_ns as f64 / d.samples.max(1) as f64 / 1e3, d.max_ns as f64 / 1e6, d.over_1ms);
    assert!(d.samples > 100 && d.max_ns <= 25_000_000 + TRUNCATION_NS, "{d:?}");
}

#[test]
fn a_path_that_dies_mid_transfer_fails_over_to_the_other() {
    let _serial = serial();
    let mut e = shared(QuicCc::Olia, 4);
    e.kill = Some((0, 1, Duration::from_millis(1500)));
    let r = run(&e).expect("the experiment runs");
    let f = &r.flows[0];
    assert_eq!(f.error, None);
    assert!(f.intact, "sent {} received {}", f.sent_bytes, f.received_bytes);
    // After the kill, path 0 carried on: it moved data in the last second. How much depends
    // on how far OLIA's window on it has regrown and on the machine's load (1.6-2 Mb/s seen on
    // a 10 Mb/s link), so the bound only tells a live path (over 0.4 Mb/s) from a stalled one.
    let p0 = &f.path_bytes[0];
    let n = p0.len();
    assert!(p0[n - 1] - p0[n - 100] > 50_000, "path 0 after the failure: {}", p0[n - 1] - p0[n - 100]);
}

#[test]
fn bad_input_is_an_error_naming_the_field() {
    let mut e = shared(QuicCc::Lia, 1);
    e.flows[0].paths.clear();
    let err = run(&e).unwrap_err();
    assert!(err.contains("flows[0] (mp).paths") && err.contains("at least one path"), "{err}");
    let mut e = shared(QuicCc::Lia, 1);
    e.flows[0].paths[1].link = 3;
    assert!(run(&e).unwrap_err().contains("paths[1].link"));
    let mut e = shared(QuicCc::Lia, 1);
    e.links[0].rate_mbps = f64::NAN;
    assert!(run(&e).unwrap_err().contains("rate_mbps"));
    e.flows.clear();
    assert!(run(&e).unwrap_err().contains("flows"));
}
