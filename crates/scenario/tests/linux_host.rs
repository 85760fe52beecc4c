//! `send_buffer = "linux"` and `delayed_ack = "linux"` (docs/fidelity-notes.md, MPTCP): senders
//! and receivers as Linux hosts are. A TCP receiver acknowledges a lone pushed segment when
//! the application reads it; an MPTCP subflow's receiver only when its connection holds no
//! out-of-order data, which Linux's send buffers (filled with connection data ahead of
//! sending) make rare. That costs MPTCP against TCP what it costs it on real Linux.

use pathpool_scenario::progress::Progress;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

fn run(file: &str, sets: &[String]) -> Result<BTreeMap<String, Value>, String> {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/fidelity").join(file);
    let l = pathpool_scenario::load(&file, sets).map_err(|e| e.to_string())?;
    Ok(pathpool_scenario::summary::summary(&pathpool_scenario::simulate(&l, &Progress::hidden()).unwrap()))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Median over `seeds` of `num / den` from `file`'s summary, with `sets` and the seed.
fn median_ratio(file: &str, seeds: std::ops::RangeInclusive<u64>, sets: &[String], num: &str, den: &str) -> f64 {
    let ratios = seeds
        .map(|seed| {
            let mut all = sets.to_vec();
            all.push(format!("simulation.seed={seed}"));
            let s = run(file, &all).unwrap();
            s[num].as_f64().unwrap() / s[den].as_f64().unwrap()
        })
        .collect();
    median(ratios)
}

/// MPTCP / TCP on the disjoint case over seeds 1-5, with the scenario's Linux hosts or with
/// the simulator's idealised ones.
fn disjoint_ratio(linux: bool) -> f64 {
    let mut sets = Vec::new();
    if !linux {
        for f in ["mp", "tcp1", "tcp2"] {
            sets.push(format!("flows.{f}.delayed_ack=true"));
            sets.push(format!("flows.{f}.send_buffer=unlimited"));
        }
    }
    median_ratio("mptcp-disjoint.toml", 1..=5, &sets, "mptcp_mbps", "tcp_mbps")
}

#[test]
fn linux_hosts_cost_mptcp_what_real_linux_costs_it() {
    // Real Linux on the testbed: MPTCP / TCP 0.766 [0.707, 0.804] over 5 runs
    // (docs/fidelity.md, the table); the idealised hosts give the subflows TCP's share.
    let linux = disjoint_ratio(true);
    let ideal = disjoint_ratio(false);
    assert!(ideal > 0.9, "idealised hosts: {ideal}");
    assert!((linux / 0.766 - 1.0).abs() < 0.15, "Linux hosts: {linux} against real Linux's 0.766");
}

#[test]
fn tcp_alone_keeps_its_rate_with_linux_hosts() {
    // One Reno flow with a BDP of buffer fills its link either way: the model changes whom
    // the queue drops, not what a lone flow gets.
    let s = run("reno-alone.toml", &[]).unwrap();
    let u = s["bottleneck_utilization"].as_f64().unwrap();
    assert!(u > 0.98, "utilisation {u}");
}

#[test]
fn bad_values_are_named() {
    let e = run("reno-alone.toml", &["flows.reno.delayed_ack=linx".to_string()]).unwrap_err();
    assert!(e.contains("delayed_ack") && e.contains("linux"), "{e}");
    let e = run("reno-alone.toml", &["flows.reno.delayed_ack=3".to_string()]).unwrap_err();
    assert!(e.contains("delayed_ack") && e.contains("true, false, \"linux\", \"linux-proposed\" or \"linux-delack-max\""), "{e}");
    let e = run("reno-alone.toml", &["flows.reno.send_buffer=huge".to_string()]).unwrap_err();
    assert!(e.contains("send_buffer") && e.contains("unlimited, linux"), "{e}");
}

/// far / near on reno-phase with both paths 1 ms (so only the receivers differ) over seeds
/// 1-10, with `sets` added.
fn equal_paths_ratio(sets: &[&str]) -> f64 {
    let mut all = vec!["links.far.delay=1ms".to_string()];
    all.extend(sets.iter().map(|s| s.to_string()));
    median_ratio("reno-phase.toml", 1..=10, &all, "flow.far.throughput_mbps", "flow.near.throughput_mbps")
}

#[test]
fn a_receiver_reading_at_a_low_water_mark_loses_share_as_on_linux() {
    // Real Linux on the testbed, 5 runs of 60 s each (docs/fidelity-notes.md, "Reads"): with
    // SO_RCVLOWAT of 32 KB on one receiver its flow gets 0.846 [0.718, 0.955] of the other's;
    // without, 0.985 [0.958, 1.154]. The receivers' model is what this holds to Linux, so the
    // senders cut their transmissions as kernels before 6.18 do (`send_buffer = "linux"`), as
    // the model's did when this comparison was made; with 6.18's cuts the loss is smaller,
    // a gap docs/fidelity-notes.md ("A partial skb and the next ACK") records.
    let sender = r#"flows.*.send_buffer="linux""#;
    let lowat = equal_paths_ratio(&["flows.far.receive_lowat=32KB", sender]);
    let plain = equal_paths_ratio(&[sender]);
    assert!(lowat < plain, "with SO_RCVLOWAT {lowat}, without {plain}");
    assert!((lowat / 0.846 - 1.0).abs() < 0.15, "with SO_RCVLOWAT {lowat} against real Linux's 0.846");
    assert!((plain / 0.985 - 1.0).abs() < 0.15, "without {plain} against real Linux's 0.985");
}

/// Median loss recoveries of the shared case's flows (subflow 0, subflow 1, TCP) and median
/// MPTCP / TCP over seeds 1-10, TCP acknowledging every segment, every sender's buffer
/// `send_buffer`.
fn connection_step(send_buffer: &str) -> ([f64; 3], f64) {
    let runs: Vec<_> = (1..=10)
        .map(|seed| {
            let sets = ["flows.tcp.delayed_ack=false".to_string(), format!("flows.*.send_buffer=\"{send_buffer}\""), format!("simulation.seed={seed}")];
            run("mptcp-shared.toml", &sets).unwrap()
        })
        .collect();
    let of = |key: &str| median(runs.iter().map(|s| s[key].as_f64().unwrap()).collect());
    let recoveries = ["flow.mp.sf0.fast_retransmits", "flow.mp.sf1.fast_retransmits", "flow.tcp.fast_retransmits"].map(of);
    (recoveries, median(runs.iter().map(|s| s["mptcp_mbps"].as_f64().unwrap() / s["tcp_mbps"].as_f64().unwrap()).collect()))
}

#[test]
fn with_linux_6_18_transmissions_tcp_acknowledging_every_segment_escapes_drops_as_on_linux() {
    // Real Linux on the testbed, TCP acknowledging every segment beside one connection's two
    // subflows (docs/fidelity-notes.md, "The connection's step"; 60 s runs): the subflows enter
    // recovery 37-39 times each and TCP 24-26, and MPTCP / TCP is 1.10-1.24. Cut as Linux 6.18
    // cuts them (its next-ACK rule above all), TCP's transmissions leave one segment at a
    // time as often as on Linux; the first model held them back to pairs.
    let ([sf0, sf1, tcp], linux_6_18) = connection_step("linux-6.18");
    assert!(tcp < sf0.min(sf1), "recoveries with 6.18's transmissions: subflows {sf0} and {sf1}, TCP {tcp}");
    let (_, first_model) = connection_step("linux");
    assert!(linux_6_18 < 0.85 * first_model, "MPTCP / TCP with 6.18's transmissions {linux_6_18}, with the first model {first_model}");
    // 1.17: the middle of the two real runs. Since the connection's data goes to its
    // subflows as Linux's scheduler sends it (64 KB bursts to the subflow whose queue drains
    // soonest), this case reads 1.45 (+24 %), where the suite's own MPTCP cases came closer
    // to Linux (docs/fidelity-notes.md, "The MPTCP scheduler and Linux's send buffers").
    assert!((linux_6_18 / 1.17 - 1.0).abs() < 0.25, "MPTCP / TCP {linux_6_18} against real Linux's 1.10-1.24");
}
