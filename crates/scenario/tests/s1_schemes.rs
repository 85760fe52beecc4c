//! S1's FULLY COUPLED and LINKED INCREASES as multipath schemes (`--cc fully-coupled`,
//! `--cc linked-increases`): both couple the subflows, so at a bottleneck the two subflows
//! share with one TCP flow they take about one TCP's share (S1 §2, §3), where uncoupled
//! subflows take about two.

use pathpool_scenario::{load_str, mptcp, progress::Progress, simulate, summary};

const SHARED: &str = r#"
[simulation]
hosts = "ideal"
duration = "40s"
warmup = "10s"

[links.bn]
from = "l"
to = "r"
rate = "10Mbps"
delay = "10ms"
buffer = 17
queue = "random-tail-drop"

[links.a]
from = "s"
to = "l"
rate = "1Gbps"
delay = "1ms"
buffer = 1000

[links.b]
from = "s"
to = "m"
rate = "1Gbps"
delay = "1ms"
buffer = 1000

[links.b2]
from = "m"
to = "l"
rate = "1Gbps"
delay = "0.1ms"
buffer = 1000

[links.t]
from = "t"
to = "l"
rate = "1Gbps"
delay = "1ms"
buffer = 1000

[[flows]]
name = "tcp"
route = ["t", "l", "r"]
competitor = true

[[flows]]
name = "mp"
kind = "mptcp"
cc = "uncoupled"
subflows = [["s", "l", "r"], ["s", "m", "l", "r"]]
"#;

fn sum_ratio(cc: &str, seed: u64) -> f64 {
    let mut l = load_str("shared.toml", SHARED, &[format!("simulation.seed={seed}")]).unwrap();
    mptcp::override_cc(&mut l, cc).unwrap();
    let s = summary::summary(&simulate(&l, &Progress::hidden()).unwrap());
    s["sum_ratio"].as_f64().unwrap()
}

#[test]
fn s1_schemes_are_accepted_by_name() {
    for name in ["fully-coupled", "linked-increases"] {
        assert!(pathpool_cc::Scheme::names().any(|n| n == name));
        pathpool_scenario::scheme::scheme(name).unwrap();
    }
}

#[test]
fn s1_coupled_schemes_take_one_share_at_a_shared_bottleneck() {
    let mean = |cc: &str| (1..=2).map(|s| sum_ratio(cc, s)).sum::<f64>() / 2.0;
    let uncoupled = mean("uncoupled");
    assert!(uncoupled > 1.5, "uncoupled {uncoupled}");
    for cc in ["fully-coupled", "linked-increases"] {
        let r = mean(cc);
        // One TCP's share is 1; two Reno flows' share would be 2.
        assert!((0.6..1.45).contains(&r), "{cc}: MPTCP / TCP = {r} (uncoupled {uncoupled})");
    }
}
