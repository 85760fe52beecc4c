//! `delayed_ack = "linux-proposed"`: Linux's receiver with the kernel change docs/kernel.md
//! proposes to its maintainers (a subflow's read-time ACK no longer waits for the connection's
//! out-of-order data). It must leave plain TCP exactly as "linux" has it, and give two
//! uncoupled subflows on one bottleneck about the two TCP shares theory gives them, which
//! Linux's held subflow ACKs take away.

use pathpool_scenario::{load_str, simulate, summary, progress::Progress};
use serde_json::Value;

const SHARED: &str = include_str!("../../../scenarios/fidelity/mptcp-shared.toml");
const RENO_CUBIC: &str = include_str!("../../../scenarios/fidelity/reno-cubic.toml");

fn summary_of(text: &str, seed: u64, receiver: &str) -> std::collections::BTreeMap<String, Value> {
    let sets = vec![format!("simulation.seed={seed}"), format!("flows.*.delayed_ack=\"{receiver}\"")];
    let loaded = load_str("case.toml", text, &sets).unwrap();
    summary::summary(&simulate(&loaded, &Progress::hidden()).unwrap())
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 { xs[n / 2] } else { (xs[n / 2 - 1] + xs[n / 2]) / 2.0 }
}

fn mptcp_over_tcp(receiver: &str) -> f64 {
    median(
        (1..=10)
            .map(|seed| {
                let s = summary_of(SHARED, seed, receiver);
                s["mptcp_mbps"].as_f64().unwrap() / s["tcp_mbps"].as_f64().unwrap()
            })
            .collect(),
    )
}

#[test]
fn plain_tcp_is_as_linux_has_it() {
    for seed in [1, 2] {
        // Everything but the wall-clock figures.
        let measured = |s: std::collections::BTreeMap<String, Value>| s.into_iter().filter(|(k, _)| !k.starts_with("wall_")).collect::<Vec<_>>();
        let (a, b) = (measured(summary_of(RENO_CUBIC, seed, "linux")), measured(summary_of(RENO_CUBIC, seed, "linux-proposed")));
        assert_eq!(a, b, "seed {seed}: a TCP receiver has no connection-level queue to wait for");
    }
}

#[test]
fn uncoupled_subflows_get_back_the_share_the_held_acks_took() {
    // Measured (10 seeds, medians): about 1.6 with Linux's receiver, 2.0 with the change;
    // theory: two Reno subflows take two Reno shares.
    let linux = mptcp_over_tcp("linux");
    let proposed = mptcp_over_tcp("linux-proposed");
    assert!(proposed > 1.8 && proposed < 2.3, "MPTCP / TCP with the proposed receiver: {proposed:.2}");
    assert!(proposed - linux > 0.15, "the change gives the subflows back their share: {linux:.2} -> {proposed:.2}");
}
