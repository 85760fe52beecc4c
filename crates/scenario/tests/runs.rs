//! Runs of short scenarios: the outputs are deterministic, complete, and agree with what the
//! topology allows; the fairness validation scenario meets its target.

use pathpool_scenario::progress::Progress;
use pathpool_scenario::{load, load_str, output, simulate, Loaded};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Every source of randomness the simulator has (RED, random tail drop, random loss,
/// Poisson and on-off UDP) and both loss recoveries, in 5 simulated seconds.
const MIXED: &str = r#"
[simulation]
duration = "5s"
warmup = "1s"
probe_interval = "250ms"
bottleneck = "bottleneck"

[links.bottleneck]
from = "left"
to = "right"
rate = "20Mbps"
delay = "10ms"
buffer = 60
queue = "red"
red_min = 10
red_max = 30

[links.access]
count = 3
from = "src{i}"
to = "left"
rate = "100Mbps"
delay = "2ms"
buffer = 100
queue = "random-tail-drop"
loss = 0.001

[[flows]]
name = "reno"
count = 3
route = ["src{i}", "left", "right"]
start_spacing = "100ms"

[[flows]]
name = "sack"
route = ["src0", "left", "right"]
recovery = "sack"
delayed_ack = true
log_delays = true

[[flows]]
name = "poisson"
kind = "udp"
traffic = "poisson"
rate = "1Mbps"
route = ["src1", "left", "right"]

[[flows]]
name = "onoff"
kind = "udp"
traffic = "on-off"
rate = "4Mbps"
mean_on = "200ms"
mean_off = "300ms"
route = ["src2", "left", "right"]
"#;

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pathpool-scenario-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run_into(l: &Loaded, dir: &Path) -> BTreeMap<String, Value> {
    let outcome = simulate(l, &Progress::hidden()).unwrap();
    output::write_all(dir, &outcome).unwrap()
}

fn without_wall_keys(text: &str) -> BTreeMap<String, Value> {
    let mut m: BTreeMap<String, Value> = serde_json::from_str(text).unwrap();
    m.retain(|k, _| !k.starts_with("wall_"));
    m
}

#[test]
fn same_file_and_seed_give_byte_identical_outputs() {
    let l = load_str("mixed.toml", MIXED, &[]).unwrap();
    let (a, b) = (temp_dir("det-a"), temp_dir("det-b"));
    run_into(&l, &a);
    run_into(&l, &b);
    for f in ["flows.csv", "links.csv", "owd.csv", "rtt.csv"] {
        assert_eq!(std::fs::read(a.join(f)).unwrap(), std::fs::read(b.join(f)).unwrap(), "{f} differs");
    }
    let sa = std::fs::read_to_string(a.join("summary.json")).unwrap();
    let sb = std::fs::read_to_string(b.join("summary.json")).unwrap();
    let strip = |s: &str| s.lines().filter(|l| !l.trim_start().starts_with("\"wall_")).collect::<Vec<_>>().join("\n");
    assert_eq!(strip(&sa), strip(&sb));
    // Keys are written sorted.
    let keys: Vec<&str> = sa.lines().filter_map(|l| l.trim_start().strip_prefix('"')?.split('"').next()).collect();
    assert!(keys.windows(2).all(|w| w[0] < w[1]), "keys not sorted");

    // A different seed changes what the random elements draw, so the results differ.
    let other = load_str("mixed.toml", MIXED, &["simulation.seed=2".into()]).unwrap();
    let c = temp_dir("det-c");
    run_into(&other, &c);
    let sc = std::fs::read_to_string(c.join("summary.json")).unwrap();
    assert_ne!(without_wall_keys(&sa), without_wall_keys(&sc));
    for d in [a, b, c] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn the_summary_has_every_key_and_consistent_values() {
    let l = load_str("mixed.toml", MIXED, &[]).unwrap();
    let dir = temp_dir("keys");
    let s = run_into(&l, &dir);
    let num = |k: &str| s.get(k).and_then(Value::as_f64).unwrap_or_else(|| panic!("missing numeric key {k}"));
    for flow in ["reno.0", "reno.1", "reno.2", "sack", "poisson", "onoff"] {
        for key in ["throughput_mbps", "retransmissions", "timeouts", "delivered_bytes"] {
            num(&format!("flow.{flow}.{key}"));
        }
    }
    for link in ["bottleneck", "bottleneck.reverse", "access.0", "access.2.reverse"] {
        for key in ["utilization", "drops", "mean_queue_packets"] {
            num(&format!("link.{link}.{key}"));
        }
    }
    for key in ["jain_index", "bottleneck_utilization", "data_packets", "wall_seconds", "wall_packets_per_second", "events"] {
        num(key);
    }
    // Goodput through a 20 Mb/s link cannot exceed 20 Mb/s (small slack: packets queued at
    // the warm-up mark are delivered inside the window).
    let total: f64 = ["reno.0", "reno.1", "reno.2", "sack", "poisson", "onoff"].iter().map(|f| num(&format!("flow.{f}.throughput_mbps"))).sum();
    assert!(total <= 20.0 * 1.02, "total goodput {total} Mb/s on a 20 Mb/s link");
    assert!(num("bottleneck_utilization") > 0.8 && num("bottleneck_utilization") <= 1.0);
    // Data packets over the whole run: at most what 20 Mb/s carries in 5 s, at least what
    // the measured utilisation carries after the warm-up.
    let packets = num("data_packets");
    assert!(packets <= 20e6 * 5.0 / (1500.0 * 8.0) + 1.0, "{packets}");
    assert!(packets >= num("bottleneck_utilization") * 20e6 * 4.0 / (1500.0 * 8.0) - 60.0, "{packets}");
    let j = num("jain_index");
    assert!(j > 0.0 && j <= 1.0);
    // Time series: one row per interval and flow (5 s / 250 ms = 20 intervals, 6 flows).
    let rows = std::fs::read_to_string(dir.join("flows.csv")).unwrap().lines().count();
    assert_eq!(rows, 1 + 20 * 6);
    for png in ["throughput.png", "queue.png"] {
        assert_eq!(&std::fs::read(dir.join(png)).unwrap()[1..4], b"PNG");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn fairness_validation_scenario_meets_its_target() {
    // The whole 300 s scenario takes well under a second in a release build.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/validation/fairness-10-reno.toml");
    let l = load(&path, &[]).unwrap();
    let outcome = simulate(&l, &Progress::hidden()).unwrap();
    let s = pathpool_scenario::summary::summary(&outcome);
    let j = s["jain_index"].as_f64().unwrap();
    assert!(j >= 0.98, "Jain's index {j} < 0.98");
    assert!(s["bottleneck_utilization"].as_f64().unwrap() >= 0.99);
}
