//! The quic backend refuses, before anything is built, what multipath QUIC cannot run,
//! naming the file, line and key; and takes what it can (no root needed: `check` builds
//! nothing).

use pathpool_experiment::Backend;
use pathpool_quic::{Quic, QuicCc};

/// A two-path OLIA connection and a Reno flow beside it.
const BASE: &str = include_str!("../../../scenarios/netlab/two-paths.toml");

fn check(overrides: &[&str]) -> Result<Vec<pathpool_quic::QuicFlow>, String> {
    let o: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    let l = pathpool_experiment::load_str("two-paths.toml", BASE, &o).expect("the scenario loads");
    pathpool_quic::check_scenario(&l)
}

#[test]
fn takes_a_coupled_connection_and_a_reno_flow() {
    let flows = check(&[]).expect("runs on QUIC");
    assert_eq!(flows.len(), 2);
    assert_eq!((flows[0].cc, flows[0].paths, flows[0].single), (QuicCc::Olia, 2, false));
    assert_eq!((flows[1].cc, flows[1].paths, flows[1].single), (QuicCc::Uncoupled, 1, true));
    let l = pathpool_experiment::load_str("two-paths.toml", BASE, &[]).unwrap();
    assert_eq!(Quic { progress: false }.check(&l), Ok(()));
}

#[test]
fn refuses_what_quic_cannot_run_naming_the_key() {
    for (set, key, why) in [
        (&["flows.mp.cc=wvegas"][..], "flows.mp.cc", "wvegas"),
        (&["flows.tcp.cc=cubic"][..], "flows.tcp.cc", "cubic"),
        (&["flows.mp.sbd_verify=true", "flows.mp.cc=mptcp-sbd"][..], "flows.mp.sbd_verify", "sender"),
        (&["flows.tcp.initial_window=4"][..], "flows.tcp.initial_window", "10"),
        (&["links.ar.queue=red", "links.ar.red_min=5", "links.ar.red_max=15"][..], "links.ar.queue", "red"),
    ] {
        let e = check(set).expect_err(&format!("{set:?} runs on QUIC"));
        assert!(e.contains("two-paths.toml") && e.contains(key) && e.contains(why), "{set:?}: {e}");
    }
}
