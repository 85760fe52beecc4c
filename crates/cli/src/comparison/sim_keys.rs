//! A real Linux run of a fidelity case has every key the simulator's runs of it have (and
//! more): a comparison that lost one would compare less than it says. Left out: what says
//! what ran rather than what was measured, counters Linux cannot attribute, and the
//! simulator's own detector where the SBD daemon decided instead.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// The keys of the simulator's own detector, scored against its topology's truth; a real
/// MPTCP-SBD run has the SBD daemon's decisions instead (`sbd_daemon.*`).
fn simulator_detector_key(k: &str) -> bool {
    matches!(k, "observations" | "observation_accuracy" | "decisions" | "decision_accuracy") || k.strip_prefix("groups_").is_some_and(|n| n.parse::<u32>().is_ok())
}

/// Keys that say what ran rather than what was measured (the host model, the detector
/// preset, warnings): real runs kept from before they were written lack them.
fn description_key(k: &str) -> bool {
    matches!(k, "hosts" | "sbd_detector" | "phase_lock_warnings")
}

/// Counters the testbed leaves out where it cannot attribute them: a flow's fast retransmits
/// when other TCP senders share its namespace, as every MPTCP subflow does (Linux counts
/// recoveries per namespace; docs/testbed.md).
fn unattributed_counter(k: &str) -> bool {
    k.starts_with("flow.") && k.ends_with(".fast_retransmits")
}

pub fn has_sim_keys(summary: &BTreeMap<String, Value>, sim_keys: &[String], file: &Path) -> Result<(), String> {
    let daemon = summary.contains_key("sbd_daemon.decisions");
    let missing: Vec<&String> = sim_keys.iter().filter(|k| !summary.contains_key(*k) && !description_key(k) && !unattributed_counter(k) && !(daemon && simulator_detector_key(k))).collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(format!("'{}' lacks keys the simulator writes: {missing:?}", file.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_real_sbd_run_needs_not_the_simulators_detector_keys() {
        let sim: Vec<String> = ["mptcp_mbps", "decisions", "decision_accuracy", "groups_2"].iter().map(|k| k.to_string()).collect();
        let mut real: BTreeMap<String, Value> = [("mptcp_mbps".to_string(), serde_json::json!(1.0))].into();
        let e = has_sim_keys(&real, &sim, Path::new("x")).unwrap_err();
        assert!(e.contains("decision_accuracy") && e.contains("groups_2"), "{e}");
        real.insert("sbd_daemon.decisions".into(), serde_json::json!(11));
        has_sim_keys(&real, &sim, Path::new("x")).unwrap();
        real.remove("mptcp_mbps");
        assert!(has_sim_keys(&real, &sim, Path::new("x")).unwrap_err().contains("mptcp_mbps"));
    }

    /// A subflow's fast retransmits, which Linux cannot attribute to it (absent from the
    /// testbed's summary), are no missing key; its retransmissions, which TCP_INFO gives, are.
    #[test]
    fn a_subflows_fast_retransmits_may_be_absent_on_the_testbed() {
        let sim: Vec<String> = ["flow.mp.sf0.fast_retransmits", "flow.mp.sf0.retransmissions"].iter().map(|k| k.to_string()).collect();
        let mut real: BTreeMap<String, Value> = [("flow.mp.sf0.retransmissions".to_string(), serde_json::json!(3))].into();
        has_sim_keys(&real, &sim, Path::new("x")).unwrap();
        real.remove("flow.mp.sf0.retransmissions");
        assert!(has_sim_keys(&real, &sim, Path::new("x")).unwrap_err().contains("flow.mp.sf0.retransmissions"));
    }

}
