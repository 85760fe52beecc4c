//! The short version of the lying-receiver evaluation (docs/security.md, "Beyond S0's
//! scenarios"; the full one is `make liar-table`): on one shared 20 Mb/s drop-tail bottleneck
//! with a two-subflow MPTCP-SBD connection and one TCP flow, no liar gains more than 5 % over
//! the honest receiver from a checking sender, under both host models; with the subflows on
//! disjoint bottlenecks the check costs an honest receiver at most 5 %, there and on S0's
//! NSB-4 under Linux hosts (where a comparison test that coupled on a majority of its
//! verdicts cost 18.7 %: docs/security.md, "What still fails"); and the sender couples the
//! subflows wherever the liar's own detector does.
//!
//! Each bound is decided as the table decides it (docs/security.md, "Deciding the bound";
//! scripts/paired_bound.py): per seed the liar's run over the honest receiver's on the same
//! seed, and the exact sign test at 5 % on the median of those ratios, seeds 1-5 first (all
//! five within the bound), then seeds 1-20 (at most 4 beyond) and seeds 1-50 (at most 16),
//! the level split between the looks. A bound that the runs cannot decide fails the test, as
//! one that is broken. The third look is for runs whose paired ratios spread although their
//! median sits well within the bound: since the sender holds its subflows coupled until its
//! own detector has decided twice, an honest receiver's runs with the check and without part
//! ways after the first seconds (docs/security.md, "Until the sender has looked").

use pathpool_scenario::{load_str, progress::Progress, simulate, summary};

const SHARED: &str = include_str!("../../../scenarios/security/shared.toml");
const DISJOINT: &str = include_str!("../../../scenarios/security/disjoint.toml");
const NSB4: &str = include_str!("../../../scenarios/papers/ferlin2016/nsb-4.toml");
/// The looks (seeds 1-5, 1-20, 1-50) and how many seeds each allows beyond the bound: the
/// largest k with P(Binomial(n, 1/2) <= k) within the look's level, 1/32 at five seeds (all
/// within) and half each of the 1.875 % left at twenty (P(X <= 4) = 0.59 %, P(X <= 5) =
/// 2.07 %) and fifty (P(X <= 16) = 0.77 %, P(X <= 17) = 1.64 %); scripts/paired_bound.py's
/// `levels` and `allowed` give the same.
const LOOKS: [(u64, usize); 3] = [(5, 0), (20, 4), (50, 16)];

/// `field` in the summary of `text` under `hosts` for each of `seeds`.
fn runs(file: &str, text: &str, hosts: &str, receiver: &str, verify: bool, field: &str, seeds: std::ops::RangeInclusive<u64>) -> Vec<f64> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = seeds
            .map(|seed| {
                scope.spawn(move || {
                    let sets = vec![
                        // S0's files run OLIA unless told (`pathpool run --cc mptcp-sbd`).
                        "flows.mptcp.cc=\"mptcp-sbd\"".to_string(),
                        format!("simulation.hosts={hosts}"),
                        format!("simulation.seed={seed}"),
                        "flows.mptcp.sbd_detector=mptcp-sbd".to_string(),
                        format!("flows.mptcp.sbd_receiver={receiver}"),
                        format!("flows.mptcp.sbd_verify={verify}"),
                    ];
                    let run = simulate(&load_str(file, text, &sets).unwrap(), &Progress::hidden()).unwrap();
                    let value = &summary::summary(&run)[field];
                    value.as_f64().unwrap_or_else(|| panic!("{file}, {hosts}, {receiver}, seed {seed}: {field} is {value}"))
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

/// Whether the paired ratios `tested / reference` (one per seed) keep their median within
/// `within`, decided by the sign test over the looks; panics naming the ratios otherwise.
fn bound_holds(what: &str, within: impl Fn(f64) -> bool, pair: impl Fn(std::ops::RangeInclusive<u64>) -> (Vec<f64>, Vec<f64>)) {
    let mut ratios = Vec::new();
    for (n, allowed) in LOOKS {
        let (tested, reference) = pair(ratios.len() as u64 + 1..=n);
        ratios.extend(tested.iter().zip(&reference).map(|(t, r)| t / r));
        let beyond = ratios.iter().filter(|&&r| !within(r)).count();
        eprintln!("{what}: {beyond} of {n} seeds beyond the bound; ratios {ratios:.3?}");
        if beyond <= allowed {
            return;
        }
    }
    panic!("{what}: the bound is broken or cannot be decided with 50 seeds; ratios {ratios:.3?}");
}

#[test]
fn no_liar_gains_from_a_checking_sender_on_a_shared_bottleneck() {
    for hosts in ["linux-6.18", "ideal"] {
        for liar in ["separate", "random", "flapping"] {
            bound_holds(&format!("{hosts}, {liar}"), |gain| gain <= 1.05, |seeds| {
                let lied = runs("shared.toml", SHARED, hosts, liar, true, "sum_ratio", seeds.clone());
                (lied, runs("shared.toml", SHARED, hosts, "honest", true, "sum_ratio", seeds))
            });
        }
    }
}

/// The check at the level of the coupling (docs/security.md, "The coupling against the honest
/// detector"): the "separate" liar's receiver still runs the honest detector, and in every seed
/// the sender coupled its subflows wherever that detector did, while a sender that trusts the
/// liar leaves most of that time uncoupled (the audit sees the lie).
#[test]
fn the_checking_sender_couples_wherever_the_liars_own_detector_does() {
    for hosts in ["linux-6.18", "ideal"] {
        let checked = runs("shared.toml", SHARED, hosts, "separate", true, "coupling_missed", 1..=5);
        assert!(checked.iter().all(|&m| m <= 0.01), "{hosts}: the checking sender left uncoupled {checked:.3?} of the detector's coupled pair-time");
        let trusting = runs("shared.toml", SHARED, hosts, "separate", false, "coupling_missed", 1..=5);
        assert!(trusting.iter().all(|&m| m >= 0.5), "{hosts}: a sender trusting the liar left uncoupled only {trusting:.3?}");
        // The trusting sender's run says so; the checking sender's does not.
        for (verify, warned) in [(false, true), (true, false)] {
            let sets = ["flows.mptcp.cc=\"mptcp-sbd\"".to_string(), format!("simulation.hosts={hosts}"), "flows.mptcp.sbd_detector=mptcp-sbd".into(), "flows.mptcp.sbd_receiver=separate".into(), format!("flows.mptcp.sbd_verify={verify}")];
            let run = simulate(&load_str("shared.toml", SHARED, &sets).unwrap(), &Progress::hidden()).unwrap();
            let s = summary::summary(&run);
            let says = s.get("detector_warnings").and_then(|w| w.as_array()).is_some_and(|w| w.iter().any(|l| l.as_str().is_some_and(|l| l.contains("coupling_missed"))));
            assert_eq!(says, warned, "{hosts}, sbd_verify = {verify}: {:?}", s.get("detector_warnings"));
        }
    }
}

#[test]
fn the_check_costs_an_honest_receiver_little_on_disjoint_bottlenecks() {
    for hosts in ["linux-6.18", "ideal"] {
        bound_holds(&format!("disjoint, {hosts}"), |on_off| on_off >= 0.95, |seeds| {
            let on = runs("disjoint.toml", DISJOINT, hosts, "honest", true, "mptcp_mbps", seeds.clone());
            (on, runs("disjoint.toml", DISJOINT, hosts, "honest", false, "mptcp_mbps", seeds))
        });
    }
}

#[test]
fn the_check_costs_an_honest_receiver_little_on_s0s_four_disjoint_bottlenecks_with_linux_hosts() {
    bound_holds("NSB-4, linux-6.18", |on_off| on_off >= 0.95, |seeds| {
        let on = runs("nsb-4.toml", NSB4, "linux-6.18", "honest", true, "mptcp_mbps", seeds.clone());
        (on, runs("nsb-4.toml", NSB4, "linux-6.18", "honest", false, "mptcp_mbps", seeds))
    });
}
