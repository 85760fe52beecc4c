//! One arithmetic, two homes: the integer arithmetic the BPF controllers run
//! (`bpf/pathpool_cc_math.h`, compiled on the host) against pathpool-cc's f64 controllers, on
//! the same ACK / loss / timeout event sequences. The sequences are generated here from
//! pathpool-cc's own windows (who sends is drawn in proportion to cwnd/RTT, losses at a fixed
//! probability per ACK, flight = the window), so both sides see what a sender would hand them.
//! docs/kernel.md, "One arithmetic, two homes", explains the bound:
//! `cargo test --release -p pathpool-kernel --test differential -- --nocapture` prints the table.

use pathpool_cc::{AckInfo, Balia, Connection, CongestionControl, Lia, MinSsthresh, Olia, Signal, SubflowSet, WindowConfig};
use pathpool_kernel::model::{Algo, Model};

/// xorshift64*: a fixed, dependency-free generator so the sequences are the same everywhere.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

struct Case {
    name: &'static str,
    rtts_us: &'static [u64],
    /// Loss probability per ACK event.
    p_loss: f64,
    /// Timeout probability per ACK event.
    p_timeout: f64,
    events: usize,
    /// Groups for the SBD case (group id per subflow), empty = all coupled.
    groups: &'static [u8],
    /// Per-subflow multiplier of `p_loss`, empty = 1 for all (a subflow held at a tiny window
    /// beside a large one, where OLIA's l1/l2 and path sets matter most).
    loss_scale: &'static [f64],
}

const CASES: &[Case] = &[
    Case { name: "1 subflow", rtts_us: &[20_000], p_loss: 0.01, p_timeout: 0.0005, events: 40_000, groups: &[], loss_scale: &[] },
    Case { name: "2 subflows, equal RTT", rtts_us: &[20_000, 20_000], p_loss: 0.01, p_timeout: 0.0005, events: 40_000, groups: &[], loss_scale: &[] },
    Case { name: "2 subflows, RTT 1:100", rtts_us: &[1_000, 100_000], p_loss: 0.005, p_timeout: 0.0005, events: 40_000, groups: &[], loss_scale: &[] },
    Case { name: "8 subflows, RTT 1..100 ms", rtts_us: &[1_000, 3_000, 7_000, 12_000, 20_000, 35_000, 60_000, 100_000], p_loss: 0.005, p_timeout: 0.0002, events: 80_000, groups: &[], loss_scale: &[] },
    Case { name: "tiny windows (loss 30 %)", rtts_us: &[10_000, 40_000, 25_000], p_loss: 0.3, p_timeout: 0.02, events: 40_000, groups: &[], loss_scale: &[] },
    Case { name: "large windows (loss 0.02 %)", rtts_us: &[30_000, 60_000], p_loss: 0.0002, p_timeout: 0.0, events: 200_000, groups: &[], loss_scale: &[] },
    Case { name: "SBD groups {0,1} {2,3}", rtts_us: &[20_000, 25_000, 30_000, 80_000], p_loss: 0.01, p_timeout: 0.0005, events: 60_000, groups: &[0, 0, 1, 1], loss_scale: &[] },
    Case { name: "one subflow held tiny (loss 20 % vs 0.05 %)", rtts_us: &[40_000, 45_000], p_loss: 0.0005, p_timeout: 0.0, events: 100_000, groups: &[], loss_scale: &[1.0, 400.0] },
];

#[derive(Clone, Copy, Debug, Default)]
struct Diff {
    /// Largest |C - Rust| / Rust over every window after every event.
    max_rel: f64,
    /// Largest |C - Rust| in segments.
    max_abs: f64,
    events: usize,
    /// Events after which some window differs by more than `TIGHT` (relative).
    beyond_tight: usize,
}

fn run<A: CongestionControl>(algo: A, which: Algo, case: &Case, seed: u64) -> Diff {
    let n = case.rtts_us.len();
    // The kernel controllers floor ssthresh at 2 segments (pathpool_cc_math.h PP_MIN_SSTHRESH).
    let window = WindowConfig { min_ssthresh: MinSsthresh::Fixed(2.0), ..WindowConfig::default() };
    let mut rust = Connection::new(algo, window, n);
    let mut c = Model::new(which, n).expect("1..=8 subflows");
    if !case.groups.is_empty() {
        for i in 0..n {
            let mask: u64 = (0..n).filter(|&j| case.groups[j] == case.groups[i]).map(|j| 1u64 << j).sum();
            rust.set_coupling(i, SubflowSet(mask));
            c.set_coupling(i, mask);
        }
    }
    let mut rng = Rng(seed);
    let mut d = Diff::default();
    let mut now = 0u64;
    for _ in 0..case.events {
        // Who acts next: in proportion to the subflows' rates cwnd / RTT.
        let rates: Vec<f64> = (0..n).map(|i| rust.cwnd(i) / case.rtts_us[i] as f64).collect();
        let total: f64 = rates.iter().sum();
        let mut x = rng.unit() * total;
        let mut sf = n - 1;
        for (i, r) in rates.iter().enumerate() {
            if x < *r {
                sf = i;
                break;
            }
            x -= r;
        }
        now += 1_000;
        let flight = rust.cwnd(sf).floor().max(1.0) as u32;
        let u = rng.unit();
        let p_loss = case.p_loss * case.loss_scale.get(sf).copied().unwrap_or(1.0);
        if u < case.p_timeout {
            rust.on_congestion(sf, now, Signal::Timeout, flight as f64);
            c.timeout(sf, flight);
        } else if u < case.p_timeout + p_loss {
            rust.on_congestion(sf, now, Signal::Loss, flight as f64);
            c.loss(sf, flight);
        } else if rust.in_recovery(sf) && rng.unit() < 0.2 {
            rust.on_recovery_exit(sf, now);
            c.recovery_exit(sf);
        } else {
            let acked = 1 + (rng.next() % 2) as u32;
            let limited = rng.unit() < 0.95;
            let rtt = case.rtts_us[sf];
            rust.on_ack(sf, now, AckInfo { newly_acked: acked as f64, rtt_sample: Some(rtt * 1_000), cwnd_limited: limited });
            c.ack(sf, acked, rtt, limited);
        }
        let mut worst = 0.0f64;
        for i in 0..n {
            let (r, k) = (rust.cwnd(i), c.cwnd(i));
            let abs = (r - k).abs();
            d.max_abs = d.max_abs.max(abs);
            worst = worst.max(abs / r);
        }
        d.max_rel = d.max_rel.max(worst);
        d.beyond_tight += (worst > TIGHT) as usize;
        d.events += 1;
    }
    d
}

fn algo_name(a: Algo) -> &'static str {
    match a {
        Algo::Lia => "LIA",
        Algo::Olia => "OLIA",
        Algo::Balia => "BALIA",
    }
}

/// The bound docs/kernel.md states for the arithmetic itself: windows within 1e-5 (relative)
/// of pathpool-cc's after every event.
const TIGHT: f64 = 1e-5;
#[test]
fn bpf_arithmetic_matches_pathpool_cc_within_the_documented_bound() {
    println!("| case | algorithm | events | max relative difference | max absolute difference (segments) | events beyond 1e-5 |");
    println!("|---|---|---|---|---|---|");
    let mut failures = Vec::new();
    for case in CASES {
        for which in [Algo::Lia, Algo::Olia, Algo::Balia] {
            if !case.groups.is_empty() && which != Algo::Olia {
                continue; // pp_mptcp_sbd is OLIA within groups
            }
            let mut d = Diff::default();
            for seed in 1..=3u64 {
                let r = match which {
                    Algo::Lia => run(Lia, which, case, seed),
                    Algo::Olia => run(Olia::default(), which, case, seed),
                    Algo::Balia => run(Balia::default(), which, case, seed),
                };
                d.max_rel = d.max_rel.max(r.max_rel);
                d.max_abs = d.max_abs.max(r.max_abs);
                d.events += r.events;
                d.beyond_tight += r.beyond_tight;
            }
            println!(
                "| {} | {} | {} | {:.2e} | {:.2e} | {} |",
                case.name, algo_name(which), d.events, d.max_rel, d.max_abs, d.beyond_tight
            );
            if d.max_rel > TIGHT {
                failures.push(format!("{} / {}: {:?}", case.name, algo_name(which), d));
            }
        }
    }
    assert!(failures.is_empty(), "beyond the documented bound: {failures:#?}");
}
