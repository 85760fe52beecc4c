//! The short version of the lying-receiver evaluation (docs/security.md, "Beyond S0's
//! scenarios"; the full one is `make liar-table`): on one shared 20 Mb/s drop-tail bottleneck
//! with a two-subflow MPTCP-SBD connection and one TCP flow, no liar gains more than 5 % over
//! the honest receiver from a checking sender (medians of seeds 1-5), under both host models;
//! with the subflows on disjoint bottlenecks the check costs an honest receiver at most 5 %,
//! there and on S0's NSB-4 under Linux hosts (where a comparison test that coupled on a
//! majority of its verdicts cost 18.7 %: docs/security.md, "What still fails"). Over seeds
//! 6-10 the check's RFC 8382 decisions' "not congested" cost there too until the comparison
//! test's evidence of two bottlenecks overrode them (every seed of 1-10 now runs as without
//! the check: docs/security.md, "Evidence of two bottlenecks"); this case runs seeds 1-5.

use pathpool_scenario::{load_str, progress::Progress, simulate, summary};

const SHARED: &str = include_str!("../../../scenarios/security/shared.toml");
const DISJOINT: &str = include_str!("../../../scenarios/security/disjoint.toml");
const NSB4: &str = include_str!("../../../scenarios/papers/ferlin2016/nsb-4.toml");
const SEEDS: u64 = 5;

/// The median over seeds 1-5 of `field` in the summary of `text` under `hosts`.
fn median(file: &str, text: &str, hosts: &str, receiver: &str, verify: bool, field: &str) -> f64 {
    let values = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for seed in 1..=SEEDS {
            let values = &values;
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
                let v = summary::summary(&run)[field].as_f64().unwrap();
                values.lock().unwrap().push(v);
            });
        }
    });
    let mut v = values.into_inner().unwrap();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

#[test]
fn no_liar_gains_from_a_checking_sender_on_a_shared_bottleneck() {
    for hosts in ["linux-6.18", "ideal"] {
        let honest = median("shared.toml", SHARED, hosts, "honest", true, "sum_ratio");
        for liar in ["separate", "random", "flapping"] {
            let lied = median("shared.toml", SHARED, hosts, liar, true, "sum_ratio");
            eprintln!("{hosts}: honest {honest:.3}, {liar} {lied:.3}");
            assert!(lied <= 1.05 * honest, "{hosts}: the {liar} receiver gains {:+.1} %", 100.0 * (lied / honest - 1.0));
        }
    }
}

#[test]
fn the_check_costs_an_honest_receiver_little_on_disjoint_bottlenecks() {
    for hosts in ["linux-6.18", "ideal"] {
        let off = median("disjoint.toml", DISJOINT, hosts, "honest", false, "mptcp_mbps");
        let on = median("disjoint.toml", DISJOINT, hosts, "honest", true, "mptcp_mbps");
        assert!(on >= 0.95 * off, "{hosts}: {on} Mb/s with the check against {off} without");
    }
}

#[test]
fn the_check_costs_an_honest_receiver_little_on_s0s_four_disjoint_bottlenecks_with_linux_hosts() {
    let off = median("nsb-4.toml", NSB4, "linux-6.18", "honest", false, "mptcp_mbps");
    let on = median("nsb-4.toml", NSB4, "linux-6.18", "honest", true, "mptcp_mbps");
    eprintln!("NSB-4, linux-6.18: {on:.2} Mb/s with the check, {off:.2} without");
    assert!(on >= 0.95 * off, "{on} Mb/s with the check against {off} without");
}
