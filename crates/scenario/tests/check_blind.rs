//! The sender's check says when it cannot see (docs/security.md, "The defence"): on five
//! starved subflows (10 Mb/s, 10 ms, 2 BDP, three TCP flows, Linux hosts; "What still fails")
//! its delay comparison test gets a verdict in too few intervals for its coupling rule, and
//! the run warns that a liar may gain there. So it does on the setup of "Why the check missed
//! sharing" (20 Mb/s, 20 ms, two subflows) under Linux hosts, where one subflow carries 2 % of
//! the data and the test gives no verdict after its first seconds (docs/security.md, "The
//! defence"); under idealised hosts, where it decides, the run does not warn.

use pathpool_scenario::{load_str, progress::Progress, simulate, summary};

const STARVED: &str = include_str!("../../../scenarios/security/starved.toml");
const SHARED: &str = include_str!("../../../scenarios/security/shared.toml");

/// (sender_comparison_share, the check's warning if any) of an honest receiver's run.
fn check_of(file: &str, text: &str, hosts: &str) -> (f64, Option<String>) {
    let sets = ["flows.mptcp.sbd_verify=true".to_string(), "simulation.duration=60s".to_string(), format!("simulation.hosts={hosts}")];
    let run = simulate(&load_str(file, text, &sets).unwrap(), &Progress::hidden()).unwrap();
    let s = summary::summary(&run);
    let warning = s.get("detector_warnings").and_then(|w| w.as_array()).and_then(|w| w.iter().filter_map(|x| x.as_str()).find(|x| x.contains("sender's check")).map(String::from));
    (s["sender_comparison_share"].as_f64().unwrap(), warning)
}

#[test]
fn the_experiments_threshold_is_the_checks_own_rule() {
    assert_eq!(pathpool_experiment::check_blind::EVIDENCE_SHARE, pathpool_sim::mptcp::EVIDENCE_SHARE);
}

#[test]
fn starved_subflows_give_the_check_no_evidence_and_the_run_says_so() {
    for (file, text) in [("starved.toml", STARVED), ("shared.toml", SHARED)] {
        let (share, warning) = check_of(file, text, "linux-6.18");
        assert!(share < pathpool_sim::mptcp::EVIDENCE_SHARE, "{file}: share {share}");
        let warning = warning.unwrap_or_else(|| panic!("{file}: no warning at share {share}"));
        assert!(warning.contains("a receiver that lies may gain here"), "{warning}");
    }
}

#[test]
fn a_check_with_evidence_does_not_warn() {
    let (share, warning) = check_of("shared.toml", SHARED, "ideal");
    assert!(share >= pathpool_sim::mptcp::EVIDENCE_SHARE, "share {share}");
    assert_eq!(warning, None);
}
