//! The scenario-file form of the RTT 1:2 validation case (docs/validation.md, "Simulator" and
//! "Cross-check against ns-3"): two Reno flows with base RTTs 20 and 40 ms behind RED, which
//! gives both about the same drop probability p, so with throughput ~ 1 / (RTT sqrt(p)) the
//! short-RTT flow gets about twice the long one's.

use pathpool_scenario::progress::Progress;
use pathpool_scenario::{load, simulate};
use std::path::Path;

#[test]
fn rtt_1to2_scenario_shares_in_inverse_proportion_to_rtt() {
    // 320 simulated seconds take about a second in a release build.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/validation/rtt-1to2-reno.toml");
    let l = load(&path, &[]).unwrap();
    let outcome = simulate(&l, &Progress::hidden()).unwrap();
    let s = pathpool_scenario::summary::summary(&outcome);
    let short = s["flow.short.throughput_mbps"].as_f64().unwrap();
    let long = s["flow.long.throughput_mbps"].as_f64().unwrap();
    assert!((1.5..=2.5).contains(&(short / long)), "throughput ratio {short} / {long} = {}, expected about 2", short / long);
    assert!(s["bottleneck_drops"].as_u64().unwrap() > 100, "RED must be dropping");
}
