//! `simulation.hosts`: the default host model is the one the fidelity suite holds against
//! real Linux, and under it the getting-started example answers "is LIA fair to TCP on a
//! shared bottleneck?" as RFC 6356 §2 goal 2 says it should (about one TCP's share), where
//! idealised hosts lock into the drop-tail queue's phase and read LIA at about 3x TCP.

use pathpool_scenario::{load_str, mptcp, progress::Progress, simulate, summary, Loaded};
use serde_json::Value;
use std::collections::BTreeMap;

const EXAMPLE: &str = include_str!("../../../scenarios/examples/mptcp-shared-bottleneck.toml");
const FIDELITY_SHARED: &str = include_str!("../../../scenarios/fidelity/mptcp-shared.toml");

fn run(l: &Loaded) -> BTreeMap<String, Value> {
    summary::summary(&simulate(l, &Progress::hidden()).unwrap())
}

fn num(s: &BTreeMap<String, Value>, key: &str) -> f64 {
    s.get(key).and_then(Value::as_f64).unwrap_or_else(|| panic!("summary has no number '{key}'"))
}

fn load(text: &str, sets: &[String]) -> Loaded {
    load_str("example.toml", text, sets).unwrap()
}

/// The example with its MPTCP connection replaced by a second Reno flow like the TCP flow:
/// two identical flows.
fn two_reno() -> String {
    reno_pair(r#"["tcp_client", "left", "right", "server"]"#)
}

/// A Reno flow on `route` (r1) beside one on the TCP flow's path (r2), the example's links.
fn reno_pair(route: &str) -> String {
    let links = &EXAMPLE[..EXAMPLE.find("[[flows]]").unwrap()];
    format!("{links}\n[[flows]]\nname = \"r1\"\nroute = {route}\n\n[[flows]]\nname = \"r2\"\nroute = [\"tcp_client\", \"left\", \"right\", \"server\"]\n")
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 { xs[n / 2] } else { (xs[n / 2 - 1] + xs[n / 2]) / 2.0 }
}

fn sets(rate: u32, seed: u64, more: &[&str]) -> Vec<String> {
    let mut v = vec![format!("links.bottleneck.rate={rate}Mbps"), format!("simulation.seed={seed}")];
    v.extend(more.iter().map(|s| s.to_string()));
    v
}

/// LIA / TCP over seeds 1-5.
fn lia_ratios(rate: u32) -> Vec<f64> {
    (1..=5)
        .map(|seed| {
            let mut l = load(EXAMPLE, &sets(rate, seed, &[]));
            mptcp::override_cc(&mut l, "lia").unwrap();
            num(&run(&l), "sum_ratio")
        })
        .collect()
}

/// The median within [0.8, 1.3] at every rate, every seed within [0.6, 1.6] (the highest,
/// 1.47 at 20 Mb/s: docs/scenarios.md, "Host models"; before Linux hosts floored ssthresh at
/// 2 segments it read 1.62).
#[test]
fn lia_takes_about_one_tcp_share_under_the_default_hosts() {
    for rate in [20, 50, 100] {
        let r = lia_ratios(rate);
        let m = median(r.clone());
        assert!((0.8..=1.3).contains(&m), "{rate} Mb/s: LIA / TCP median {m:.2} over seeds 1-5 ({r:.2?}), expected within [0.8, 1.3]");
        for (i, x) in r.iter().enumerate() {
            assert!((0.6..=1.6).contains(x), "{rate} Mb/s, seed {}: LIA / TCP {x:.2}, expected within [0.6, 1.6] ({r:.2?})", i + 1);
        }
    }
}

#[test]
fn two_identical_reno_flows_share_evenly_under_the_default_hosts() {
    let text = two_reno();
    for rate in [20, 50, 100] {
        for queue in ["droptail", "random-tail-drop"] {
            let q = format!("links.bottleneck.queue={queue}");
            let r: Vec<f64> = (1..=5)
                .map(|seed| {
                    let s = run(&load(&text, &sets(rate, seed, &[&q])));
                    num(&s, "flow.r1.throughput_mbps") / num(&s, "flow.r2.throughput_mbps")
                })
                .collect();
            let m = median(r.clone());
            assert!((0.8..=1.25).contains(&m), "{rate} Mb/s, {queue}: Reno / Reno median {m:.2} ({r:.2?}), expected within [0.8, 1.25]");
        }
    }
}

#[test]
fn idealised_hosts_phase_lock_and_the_run_says_so() {
    // The getting-started example at 50 Mb/s: LIA reads about 3x TCP on idealised hosts.
    let mut l = load(EXAMPLE, &sets(50, 1, &["simulation.hosts=ideal"]));
    mptcp::override_cc(&mut l, "lia").unwrap();
    let s = run(&l);
    assert!(num(&s, "sum_ratio") > 2.0, "the idealised hosts were expected to lock into phase (sum_ratio {})", num(&s, "sum_ratio"));
    assert_eq!(s["hosts"], "ideal");
    // Uncoupled, its first subflow and the TCP flow are Reno flows of the same base RTT
    // through the same queue: the run names them.
    let mut l = load(EXAMPLE, &sets(50, 1, &["simulation.hosts=ideal"]));
    mptcp::override_cc(&mut l, "uncoupled").unwrap();
    let o = simulate(&l, &Progress::hidden()).unwrap();
    assert_eq!(o.warnings.len(), 1, "{:?}", o.warnings);
    assert!(o.warnings[0].contains("mptcp.sf0") && o.warnings[0].contains("tcp"), "{}", o.warnings[0]);
    let s = summary::summary(&o);
    assert!(s["phase_lock_warnings"].as_array().is_some_and(|a| a.len() == 1));

    // The same runs on the default hosts: no warning, and the model is recorded.
    let mut l = load(EXAMPLE, &sets(50, 1, &[]));
    mptcp::override_cc(&mut l, "uncoupled").unwrap();
    let o = simulate(&l, &Progress::hidden()).unwrap();
    assert!(o.warnings.is_empty(), "{:?}", o.warnings);
    assert_eq!(summary::summary(&o)["hosts"], "linux-6.18");
}

#[test]
fn two_reno_flows_locked_into_phase_are_named() {
    // A Reno flow on the first subflow's path beside one on the TCP flow's: the same base RTT
    // to 120 us (one more 100 Mb/s hop), which idealised hosts lock onto.
    let s = run(&load(&reno_pair(r#"["client", "a", "left", "right", "server"]"#), &sets(50, 1, &["simulation.hosts=ideal"])));
    let ratio = num(&s, "flow.r1.throughput_mbps") / num(&s, "flow.r2.throughput_mbps");
    assert!(ratio > 1.5, "expected the idealised hosts to lock the two flows ({ratio:.2})");
    let w = s["phase_lock_warnings"].as_array().expect("warned");
    assert!(w[0].as_str().unwrap().contains("r1") && w[0].as_str().unwrap().contains("r2"), "{w:?}");
}

/// The default model is exactly the fidelity suite's per-flow keys: stripping them from the
/// shared fidelity case (and its host latency, one packet time at 20 Mb/s) changes nothing.
#[test]
fn the_default_is_the_fidelity_suites_host_model() {
    let stripped: String = FIDELITY_SHARED
        .lines()
        .filter(|l| !["rto =", "lost_retransmit =", "send_jitter =", "recovery =", "delayed_ack =", "send_buffer =", "min_ssthresh =", "host_latency ="].iter().any(|k| l.starts_with(k)))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(stripped.len() < FIDELITY_SHARED.len() - 200, "the keys were expected in the fidelity file");
    for seed in [1, 2] {
        let seed = [format!("simulation.seed={seed}")];
        let mut a = run(&load(FIDELITY_SHARED, &seed));
        let mut b = run(&load(&stripped, &seed));
        for s in [&mut a, &mut b] {
            s.retain(|k, _| !k.starts_with("wall_"));
        }
        assert_eq!(a, b);
    }
}

#[test]
fn per_flow_keys_override_the_model() {
    let l = load(EXAMPLE, &["flows.tcp.recovery=newreno".into(), "flows.tcp.delayed_ack=false".into(), "flows.tcp.send_jitter=0s".into()]);
    let tcp = l.scenario.flows.iter().find(|f| f.name.value == "tcp").unwrap();
    let pathpool_scenario::schema::FlowKind::Tcp(t) = &tcp.kind else { panic!("tcp") };
    assert_eq!(t.recovery, pathpool_scenario::schema::Recovery::NewReno);
    assert!(!t.rack_lost_retransmit, "RACK needs SACK: the model must not ask for it on a NewReno flow");
    assert!(!t.delayed_ack && !t.linux_receiver && t.send_jitter == 0);
    assert!(t.linux_6_18, "keys the flow does not give still come from the model");
}

#[test]
fn each_receiving_host_waits_up_to_one_packet_time_at_its_narrowest_link() {
    use pathpool_scenario::host_latency::receiving_host_latencies;
    // Every flow of the example ends at "server", behind the 20 Mb/s bottleneck: 600 us.
    let bounds = |sets: &[&str]| receiving_host_latencies(&load(EXAMPLE, &sets.iter().map(|s| s.to_string()).collect::<Vec<_>>())).into_values().collect::<Vec<_>>();
    assert_eq!(bounds(&[]), vec![600_000_000]);
    assert_eq!(bounds(&["links.bottleneck.rate=50Mbps"]), vec![240_000_000]);
    assert_eq!(bounds(&["simulation.host_latency=0s"]), vec![0]);
    assert_eq!(bounds(&["simulation.hosts=ideal"]), vec![0]);
    assert_eq!(bounds(&["simulation.hosts=ideal", "simulation.host_latency=1ms"]), vec![1_000_000_000]);
}

#[test]
fn an_unknown_host_model_is_refused_with_the_choices() {
    let e = load_str("example.toml", EXAMPLE, &["simulation.hosts=linux".into()]).err().unwrap().to_string();
    assert!(e.contains("simulation.hosts") && e.contains("linux-6.18") && e.contains("ideal"), "{e}");
}

/// Linux floors ssthresh at 2 segments, and so do the testbed's kernel controllers: the
/// default hosts take that floor, idealised hosts each algorithm's own, and a flow's key wins.
#[test]
fn linux_hosts_floor_ssthresh_at_two_segments() {
    let floor = |sets: &[&str], flow: &str| {
        let l = load(EXAMPLE, &sets.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        match &l.scenario.flows.iter().find(|f| f.name.value == flow).unwrap().kind {
            pathpool_scenario::schema::FlowKind::Tcp(t) => t.min_ssthresh,
            pathpool_scenario::schema::FlowKind::Mptcp(m) => m.tcp.min_ssthresh,
            _ => panic!("{flow} is not TCP"),
        }
    };
    assert_eq!(floor(&[], "mptcp"), Some(2.0));
    assert_eq!(floor(&[], "tcp"), Some(2.0));
    assert_eq!(floor(&["simulation.hosts=ideal"], "mptcp"), None);
    assert_eq!(floor(&["flows.mptcp.min_ssthresh=1"], "mptcp"), Some(1.0));
    let e = load_str("example.toml", EXAMPLE, &["flows.tcp.min_ssthresh=0.5".into()]).err().unwrap().to_string();
    assert!(e.contains("min_ssthresh") && e.contains("from 1"), "{e}");
}
