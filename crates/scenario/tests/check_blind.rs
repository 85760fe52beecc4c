//! The sender's check says when it cannot see (docs/security.md, "The defence"). Under Linux
//! hosts with a 1-segment ssthresh floor (S0's, `min_ssthresh = 1`), a coupled subflow starves
//! at one segment per RTT and a delayed ACK: on five subflows (10 Mb/s, 10 ms, 2 BDP, three
//! TCP flows) and on the setup of "Why the check missed sharing" (20 Mb/s, 20 ms, two
//! subflows) its delay comparison test then gets a verdict in too few intervals for its
//! coupling rule, and the run warns that a liar may gain there. With Linux's own 2-segment
//! floor (the default under Linux hosts) and under idealised hosts no subflow starves, the
//! test decides, and the run does not warn.

use pathpool_scenario::{load_str, progress::Progress, simulate, summary};

const STARVED: &str = include_str!("../../../scenarios/security/starved.toml");
const SHARED: &str = include_str!("../../../scenarios/security/shared.toml");

/// (sender_comparison_share, the check's warning if any) of an honest receiver's run.
fn check_of(file: &str, text: &str, hosts: &str, extra: &[&str]) -> (f64, Option<String>) {
    let mut sets = vec!["flows.mptcp.sbd_verify=true".to_string(), "simulation.duration=60s".to_string(), format!("simulation.hosts={hosts}")];
    sets.extend(extra.iter().map(|s| s.to_string()));
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
fn subflows_starved_by_a_one_segment_floor_give_the_check_no_evidence_and_the_run_says_so() {
    for (file, text) in [("starved.toml", STARVED), ("shared.toml", SHARED)] {
        let (share, warning) = check_of(file, text, "linux-6.18", &["flows.mptcp.min_ssthresh=1"]);
        assert!(share < pathpool_sim::mptcp::EVIDENCE_SHARE, "{file}: share {share}");
        let warning = warning.unwrap_or_else(|| panic!("{file}: no warning at share {share}"));
        assert!(warning.contains("a receiver that lies may gain here"), "{warning}");
    }
}

#[test]
fn a_check_with_evidence_does_not_warn() {
    for (file, text, hosts) in [("shared.toml", SHARED, "ideal"), ("shared.toml", SHARED, "linux-6.18"), ("starved.toml", STARVED, "linux-6.18")] {
        let (share, warning) = check_of(file, text, hosts, &[]);
        assert!(share >= pathpool_sim::mptcp::EVIDENCE_SHARE, "{file}, {hosts}: share {share}");
        assert_eq!(warning, None, "{file}, {hosts}");
    }
}
