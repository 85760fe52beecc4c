//! Helpers shared by the integration tests.
#![allow(dead_code)]

use pathpool_cc::{AckInfo, Algorithm, CcConfig, Controller, Nanos, SubflowSet};

pub const MS: Nanos = 1_000_000;

pub fn ack(segments: f64, rtt: Nanos) -> AckInfo {
    AckInfo {
        newly_acked: segments,
        rtt_sample: Some(rtt),
        cwnd_limited: true,
    }
}

/// A controller whose subflows have the given RTTs (ms) and windows, all in congestion
/// avoidance (ssthresh 1, so no slow start) and out of recovery.
pub fn with_windows(
    algo: Algorithm,
    cfg: CcConfig,
    rtts_ms: &[u64],
    windows: &[f64],
) -> Controller {
    let n = rtts_ms.len();
    let cfg = CcConfig {
        initial_ssthresh: 1.0,
        initial_cwnd: 1.0,
        ..cfg
    };
    let mut c = Controller::new(algo, cfg, n);
    // Seed RTTs without growing the windows (not cwnd-limited).
    for (i, &r) in rtts_ms.iter().enumerate() {
        { c.set_coupling(i, SubflowSet::all(n)); c.on_ack(i, 0, AckInfo {
                newly_acked: 0.0,
                rtt_sample: Some(r * MS),
                cwnd_limited: false,
            }) };
    }
    set_windows(&mut c, windows);
    c
}

/// Sets each subflow's cwnd to `windows[i]`, in congestion avoidance.
pub fn set_windows(c: &mut Controller, windows: &[f64]) {
    for (i, &w) in windows.iter().enumerate() {
        c.set_window(i, w, 1.0);
    }
}

/// A tiny deterministic generator (xorshift64*), so the tests need no extra dependency.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_f64(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// ACKs that carry only an RTT sample (not cwnd-limited: windows do not move).
pub struct AckNoGrowth;

impl AckNoGrowth {
    pub fn with_rtt(rtt: Nanos) -> AckInfo {
        AckInfo {
            newly_acked: 1.0,
            rtt_sample: Some(rtt),
            cwnd_limited: false,
        }
    }
}
