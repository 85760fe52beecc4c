//! What a real network cannot build is refused before anything is built, naming the file,
//! the key and why in the network's own terms (netlab serves the linux and quic backends
//! alike, so no message names one of them as the only user).

use pathpool_netlab::plan::check_network;

const SCENARIO: &str = include_str!("../../../scenarios/netlab/two-paths.toml");

fn refusal(overrides: &[&str]) -> String {
    let o: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    let l = pathpool_experiment::load_str("two-paths.toml", SCENARIO, &o).expect("the scenario loads");
    check_network(&l).expect_err(&format!("{overrides:?} was built")).0
}

#[test]
fn refusals_name_the_key_and_the_real_network() {
    let l = pathpool_experiment::load_str("two-paths.toml", SCENARIO, &[]).unwrap();
    assert!(check_network(&l).is_ok());
    for (set, key, why) in [
        (&["simulation.probe_interval=5ms"][..], "simulation.probe_interval", "at most every 10ms"),
        (&["links.ar.queue=red", "links.ar.red_min=5", "links.ar.red_max=15"][..], "links.ar.queue", "sch_red"),
        (&["links.ar.queue=random-tail-drop"][..], "links.ar.queue", "only in the simulator"),
    ] {
        let e = refusal(set);
        assert!(e.contains("two-paths.toml") && e.contains(key) && e.contains(why), "{set:?}: {e}");
        assert!(e.contains("real network (backends linux and quic)") && !e.contains("testbed"), "{set:?}: {e}");
    }
}
