//! Arbitrary event sequences over 1-4 subflows, every algorithm and the knobs that matter:
//! windows stay finite and >= 1 segment, ssthresh stays at or above its floor, probes stay
//! consistent, and the controller is deterministic.

use pathpool_cc::{Signal, 
    AckCounting, AckInfo, Algorithm, CcConfig, Controller, MinSsthresh, OliaBestPath,
    SlowStartTest, SubflowSet,
};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Event {
    Ack {
        sf: usize,
        acked: f64,
        rtt: Option<u64>,
        limited: bool,
        set: u64,
    },
    FastRetransmit {
        sf: usize,
        flight: f64,
        set: u64,
    },
    RecoveryExit {
        sf: usize,
    },
    Timeout {
        sf: usize,
        flight: f64,
    },
    Ecn {
        sf: usize,
        flight: f64,
        set: u64,
    },
    RoundEnd {
        sf: usize,
        set: u64,
    },
    Usable {
        sf: usize,
        usable: bool,
    },
}

fn amount() -> impl Strategy<Value = f64> {
    prop_oneof![8 => 0.0..64.0f64, 1 => Just(0.0), 1 => Just(f64::NAN), 1 => Just(-3.0), 1 => 1e3..1e6f64]
}

fn event() -> impl Strategy<Value = Event> {
    let sf = 0..4usize;
    let set = any::<u64>();
    let rtt = prop_oneof![
        Just(None),
        (0u64..2_000_000_000).prop_map(Some),
        (1_000_000u64..300_000_000).prop_map(Some)
    ];
    prop_oneof![
        30 => (sf.clone(), amount(), rtt, any::<bool>(), set)
            .prop_map(|(sf, acked, rtt, limited, set)| Event::Ack { sf, acked, rtt, limited, set }),
        4 => (sf.clone(), amount(), set).prop_map(|(sf, flight, set)| Event::FastRetransmit { sf, flight, set }),
        4 => sf.clone().prop_map(|sf| Event::RecoveryExit { sf }),
        2 => (sf.clone(), amount()).prop_map(|(sf, flight)| Event::Timeout { sf, flight }),
        2 => (sf.clone(), amount(), set).prop_map(|(sf, flight, set)| Event::Ecn { sf, flight, set }),
        6 => (sf.clone(), set).prop_map(|(sf, set)| Event::RoundEnd { sf, set }),
        1 => (sf, any::<bool>()).prop_map(|(sf, usable)| Event::Usable { sf, usable }),
    ]
}

fn config() -> impl Strategy<Value = CcConfig> {
    (
        prop_oneof![
            Just(MinSsthresh::Auto),
            Just(MinSsthresh::Fixed(1.0)),
            Just(MinSsthresh::Fixed(2.0))
        ],
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        prop_oneof![Just(None), (0.1..4.0f64).prop_map(Some)],
        prop_oneof![Just(10.0), 1.0..100.0f64],
    )
        .prop_map(
            |(min_ssthresh, le, per_ack, draft_olia, int_balia, a, iw)| CcConfig {
                initial_cwnd: iw,
                min_ssthresh,
                slow_start: if le {
                    SlowStartTest::LessOrEqual
                } else {
                    SlowStartTest::Less
                },
                counting: if per_ack {
                    AckCounting::PerAckEvent
                } else {
                    AckCounting::PerSegment
                },
                olia_best_path: if draft_olia {
                    OliaBestPath::LossSquaredOverRtt
                } else {
                    OliaBestPath::LossOverRttSquared
                },
                balia_integer_alpha: int_balia,
                linked_increases_a: a,
                ..CcConfig::default()
            },
        )
}

fn apply(c: &mut Controller, now: u64, e: &Event) {
    let n = c.n_subflows();
    match *e {
        Event::Ack {
            sf,
            acked,
            rtt,
            limited,
            set,
        } => { c.set_coupling(sf % n, SubflowSet(set)); c.on_ack(sf % n, now, AckInfo {
                newly_acked: acked,
                rtt_sample: rtt,
                cwnd_limited: limited,
            }) },
        Event::FastRetransmit { sf, flight, set } => {
            { c.set_coupling(sf % n, SubflowSet(set)); c.on_congestion(sf % n, now, Signal::Loss, flight) }
        }
        Event::RecoveryExit { sf } => c.on_recovery_exit(sf % n, now),
        Event::Timeout { sf, flight } => c.on_congestion(sf % n, now, Signal::Timeout, flight),
        Event::Ecn { sf, flight, set } => { c.set_coupling(sf % n, SubflowSet(set)); c.on_congestion(sf % n, now, Signal::Ecn, flight) },
        Event::RoundEnd { sf, set } => { c.set_coupling(sf % n, SubflowSet(set)); c.on_round_end(sf % n, now) },
        Event::Usable { sf, usable } => c.set_usable(sf % n, usable),
    }
}

fn ssthresh_floor(algo: Algorithm, cfg: &CcConfig) -> f64 {
    match cfg.min_ssthresh {
        MinSsthresh::Fixed(m) => m,
        MinSsthresh::Auto if algo.is_coupled() => 1.0,
        MinSsthresh::Auto => 2.0,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn windows_stay_finite_and_at_least_one_segment(
        algo_index in 0..10usize,
        n in 1..=4usize,
        cfg in config(),
        events in prop::collection::vec((0u64..50_000_000, event()), 1..300),
    ) {
        let algo = Algorithm::all().nth(algo_index).unwrap();
        let mut c = Controller::new(algo, cfg.clone(), n);
        let mut twin = Controller::new(algo, cfg.clone(), n);
        let floor = ssthresh_floor(algo, &cfg);
        let mut alphas = vec![0.0; n];
        let mut now = 0u64;
        for (dt, e) in &events {
            now += dt;
            apply(&mut c, now, e);
            apply(&mut twin, now, e);
            for sf in 0..n {
                let (w, s) = (c.cwnd(sf), c.ssthresh(sf));
                prop_assert!(w.is_finite() && w >= 1.0, "{algo}: cwnd {w} after {e:?}");
                prop_assert!(!s.is_nan() && s >= floor, "{algo}: ssthresh {s} < floor {floor} after {e:?}");
                prop_assert_eq!(w.to_bits(), twin.cwnd(sf).to_bits());
                prop_assert_eq!(s.to_bits(), twin.ssthresh(sf).to_bits());
            }
            let a = c.lia_alpha();
            prop_assert!(a.is_finite() && a > 0.0, "{algo}: alpha {a}");
            c.olia_alphas(SubflowSet::all(n), &mut alphas);
            prop_assert!(alphas.iter().all(|x| x.is_finite()) && alphas.iter().sum::<f64>().abs() < 1e-9);
        }
    }
}
