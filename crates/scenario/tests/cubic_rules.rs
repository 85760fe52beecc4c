//! `cubic_rules` (docs/scenarios.md): Linux's tcp_cubic.c rules under the default Linux hosts,
//! RFC 9438's CUBIC under idealised ones, either by name (crates/cc/tests/cubic_linux.rs
//! checks the rules themselves).

use pathpool_scenario::progress::Progress;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

fn run(sets: &[&str]) -> Result<BTreeMap<String, Value>, String> {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/examples/dumbbell.toml");
    let mut o: Vec<String> = vec!["simulation.duration=40s".into(), "simulation.warmup=5s".into()];
    o.extend(sets.iter().map(|s| s.to_string()));
    let l = pathpool_scenario::load(&file, &o).map_err(|e| e.to_string())?;
    let mut s = pathpool_scenario::summary::summary(&pathpool_scenario::simulate(&l, &Progress::hidden()).unwrap());
    s.retain(|k, _| !k.starts_with("wall_"));
    Ok(s)
}

#[test]
fn the_host_model_chooses_the_rules_and_they_change_the_run() {
    let ideal = run(&["simulation.hosts=ideal"]).unwrap();
    assert_eq!(ideal, run(&["simulation.hosts=ideal", "flows.cubic.cubic_rules=rfc9438"]).unwrap());
    let linux = run(&["simulation.hosts=ideal", "flows.cubic.cubic_rules=linux"]).unwrap();
    assert_ne!(ideal["flow.cubic.delivered_bytes"], linux["flow.cubic.delivered_bytes"]);
    assert_eq!(run(&[]).unwrap(), run(&["flows.cubic.cubic_rules=linux"]).unwrap());
}

#[test]
fn only_a_tcp_flow_with_cc_cubic_takes_it() {
    let e = run(&["flows.reno.cubic_rules=linux"]).unwrap_err();
    assert!(e.contains("cubic_rules") && e.contains("cc = \"cubic\""), "{e}");
    let e = run(&["flows.cubic.cubic_rules=bsd"]).unwrap_err();
    assert!(e.contains("cubic_rules") && e.contains("linux"), "{e}");
}
