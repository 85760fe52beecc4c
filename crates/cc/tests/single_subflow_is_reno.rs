//! algorithms.md §12.2 item 1: every coupled controller with one subflow reproduces Reno
//! (LIA alpha = 1, OLIA alpha_r = 0, BALIA alpha = 1, S1's variants 1/w = 1/w_r): the same
//! event sequence gives the same windows, exactly. wVegas is excluded: with one subflow it is
//! Vegas (WV-05), a delay-based controller, not Reno.

mod common;

use common::{Rng, MS};
use pathpool_cc::{Signal, 
    AckCounting, AckInfo, Algorithm, CcConfig, Controller, MinSsthresh, SinglePath, SlowStartTest,
    SubflowSet,
};

const COUPLED_AS_RENO: [Algorithm; 6] = [
    Algorithm::Uncoupled(SinglePath::Reno),
    Algorithm::FullyCoupled,
    Algorithm::LinkedIncreases,
    Algorithm::Lia,
    Algorithm::Olia,
    Algorithm::Balia,
];

/// Drives `a` and `b` with the same pseudo-random events and compares after every event.
fn lockstep(a: &mut Controller, b: &mut Controller, seed: u64, events: usize) {
    let mut rng = Rng(seed);
    let one = SubflowSet::all(1);
    let mut now = 0;
    for step in 0..events {
        now += (rng.next_f64() * 20.0 * MS as f64) as u64;
        let x = rng.next_f64();
        let flight = a.cwnd(0) * (0.5 + rng.next_f64());
        match x {
            x if x < 0.80 => {
                let ack = AckInfo {
                    newly_acked: (rng.next_f64() * 3.0).floor(),
                    rtt_sample: (rng.next_f64() < 0.9)
                        .then(|| 10 * MS + (rng.next_f64() * 190.0 * MS as f64) as u64),
                    cwnd_limited: rng.next_f64() < 0.9,
                };
                { a.set_coupling(0, one); a.on_ack(0, now, ack) };
                { b.set_coupling(0, one); b.on_ack(0, now, ack) };
            }
            x if x < 0.85 => {
                { a.set_coupling(0, one); a.on_congestion(0, now, Signal::Loss, flight) };
                { b.set_coupling(0, one); b.on_congestion(0, now, Signal::Loss, flight) };
            }
            x if x < 0.93 => {
                a.on_recovery_exit(0, now);
                b.on_recovery_exit(0, now);
            }
            x if x < 0.95 => {
                a.on_congestion(0, now, Signal::Timeout, flight);
                b.on_congestion(0, now, Signal::Timeout, flight);
            }
            x if x < 0.97 => {
                { a.set_coupling(0, one); a.on_congestion(0, now, Signal::Ecn, flight) };
                { b.set_coupling(0, one); b.on_congestion(0, now, Signal::Ecn, flight) };
            }
            _ => {
                { a.set_coupling(0, one); a.on_round_end(0, now) };
                { b.set_coupling(0, one); b.on_round_end(0, now) };
            }
        }
        assert_eq!(
            (a.cwnd(0), a.ssthresh(0), a.in_recovery(0)),
            (b.cwnd(0), b.ssthresh(0), b.in_recovery(0)),
            "{} vs {} differ after event {step} (seed {seed})",
            a.algorithm(),
            b.algorithm()
        );
    }
}

fn configs() -> Vec<CcConfig> {
    vec![
        CcConfig::default(),
        CcConfig::s0_replication(),
        CcConfig {
            counting: AckCounting::PerAckEvent,
            ..CcConfig::default()
        },
        CcConfig {
            slow_start: SlowStartTest::LessOrEqual,
            min_ssthresh: MinSsthresh::Fixed(1.0),
            ..CcConfig::default()
        },
    ]
}

#[test]
fn every_coupled_controller_with_one_subflow_is_reno() {
    for cfg in configs() {
        for algo in COUPLED_AS_RENO {
            for seed in 1..=20 {
                let mut reno = Controller::new(Algorithm::Reno, cfg.clone(), 1);
                let mut other = Controller::new(algo, cfg.clone(), 1);
                lockstep(&mut reno, &mut other, seed, 3000);
            }
        }
    }
}

#[test]
fn lockstep_detects_a_different_controller() {
    // The comparison is strict enough to tell CUBIC from Reno.
    let result = std::panic::catch_unwind(|| {
        let mut reno = Controller::new(Algorithm::Reno, CcConfig::default(), 1);
        let mut cubic = Controller::new(Algorithm::Cubic, CcConfig::default(), 1);
        lockstep(&mut reno, &mut cubic, 1, 3000);
    });
    assert!(result.is_err());
}

#[test]
fn linked_increases_with_one_subflow_and_a_fixed_a_is_reno_too() {
    // |S| == 1 means "not coupled": Reno, whatever a (S0 §III-B.5 rule for a lone subflow).
    let cfg = CcConfig {
        linked_increases_a: Some(3.0),
        ..CcConfig::default()
    };
    let mut reno = Controller::new(Algorithm::Reno, cfg.clone(), 1);
    let mut li = Controller::new(Algorithm::LinkedIncreases, cfg, 1);
    lockstep(&mut reno, &mut li, 7, 3000);
}
