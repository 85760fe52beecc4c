//! Scenario files run every scheme of the scheme table (`pathpool_cc::Scheme`), by its one
//! name, with the detector preset the table gives it when a connection names none.

use pathpool_cc::{Backend, Scheme};
use pathpool_scenario::mptcp;
use pathpool_scenario::schema::FlowKind;

const TWO_PATHS: &str = include_str!("fixtures/two_paths_mptcp.toml");

#[test]
fn every_scheme_runs_in_scenario_files_with_the_tables_detector() {
    for scheme in Scheme::all() {
        assert!(scheme.runs_on(Backend::Sim), "{scheme}");
        let l = pathpool_scenario::load_str("schemes.toml", &format!("{TWO_PATHS}cc = \"{scheme}\"\n"), &[]).unwrap_or_else(|e| panic!("{scheme}: {e}"));
        let FlowKind::Mptcp(m) = &l.scenario.flows[0].kind else { panic!("an MPTCP flow") };
        // MPTCP-SBD's detector schemes report the preset they run; TR-LIA's trend lines are
        // no preset of RFC 8382's detector.
        let preset = mptcp::detector_preset(m);
        match scheme.detector() {
            Some("tr") | None => assert_eq!(preset, None, "{scheme}"),
            Some(d) => {
                assert_eq!(preset, Some(d), "{scheme}");
                assert!(pathpool_sbd::SbdParams::PRESETS.contains(&d), "{scheme}: {d} is no detector preset");
            }
        }
    }
}

#[test]
fn a_misspelt_or_renamed_scheme_is_refused_with_the_name_to_use() {
    let err = |cc: &str| pathpool_scenario::load_str("schemes.toml", &format!("{TWO_PATHS}cc = \"{cc}\"\n"), &[]).err().map(|e| e.to_string()).unwrap_or_default();
    let e = err("mptcp-sdb");
    assert!(e.contains("flows.mp.cc") && e.contains("did you mean 'mptcp-sbd'") && e.contains("mptcp-sbd-pairwise"), "{e}");
    let e = err("olia-sbd");
    assert!(e.contains("flows.mp.cc") && e.contains("is now called \"mptcp-sbd\""), "{e}");
}
