//! `pathpool detect --pcap` on real Linux captures of a known topology (docs/pcap.md, "Real
//! captures at both ends and in the middle"): two TCP flows from s to d through SB-2's
//! shared bottleneck on the testbed, captured on the sender, the bottleneck's router and the
//! receiver (`testbed run --capture-host`). The tool must place each capture, choose the
//! delay signal valid there, drop the router's second copy of every packet, and answer "both
//! flows share a bottleneck" or say it cannot tell. Root only; without root it says why and
//! passes. The testbed run removes its own namespaces; the test checks that none is left.

use std::path::{Path, PathBuf};
use std::process::Command;

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))).unwrap()
}

/// Runs `detect --pcap FILE` into DIR/NAME and returns its summary.json.
fn detect(file: &Path, out: &Path) -> serde_json::Value {
    let r = Command::new(env!("CARGO_BIN_EXE_pathpool")).args(["detect", "--pcap", file.to_str().unwrap(), "--out", out.to_str().unwrap()]).output().unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    json(&out.join("summary.json"))
}

/// (vantage, delay) of every analysed subflow.
fn places(s: &serde_json::Value) -> Vec<(String, String)> {
    let subs = s["connections"].as_array().unwrap().iter().flat_map(|c| c["subflows"].as_array().unwrap().iter());
    subs.map(|f| (f["vantage"].as_str().unwrap().to_string(), f["delay"].as_str().unwrap().to_string())).collect()
}

/// Bottleneck utilisation below which a run of the scenario counts as starved.
const HEALTHY_UTILISATION: f64 = 0.95;

/// Runs the scenario on the testbed for 35 s with captures on s, l0 and d into DIR/run and
/// returns the bottleneck's utilisation; checks that no namespace is left.
fn testbed_run(root: &Path, dir: &Path) -> f64 {
    let _ = std::fs::remove_dir_all(dir);
    let scenario = root.join("scenarios/pcap/sb-2-testbed-tcp.toml");
    let child = Command::new(env!("CARGO_BIN_EXE_pathpool"))
        .args(["testbed", "run", scenario.to_str().unwrap(), "--set", "simulation.duration=35s", "--set", "simulation.warmup=5s", "--out", dir.join("run").to_str().unwrap()])
        .args(["--capture-host", "s", "--capture-host", "l0", "--capture-host", "d"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let r = child.wait_with_output().unwrap();
    let left: Vec<String> = std::fs::read_dir("/run/netns")
        .map(|d| d.filter_map(|e| e.ok()?.file_name().into_string().ok()).filter(|n| n.starts_with(&format!("pathpool-{pid}-"))).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "namespaces left behind: {left:?}");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    json(&dir.join("run/summary.json"))["bottleneck_utilization"].as_f64().unwrap()
}

#[test]
fn real_captures_at_the_sender_router_and_receiver_are_placed_and_answered() {
    if !pathpool_testbed::skip::root_or_skip("real_captures_at_the_sender_router_and_receiver_are_placed_and_answered") {
        return;
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = std::env::temp_dir().join(format!("pathpool-cli-pcap-testbed-{}", std::process::id()));
    // A testbed whose relays the machine starves holds packets for milliseconds on the way
    // to the bottleneck and leaves it idle between: the topology is then not the one whose
    // answer is known. Runs of this scenario on a 2-core machine with the bottleneck 0.959-0.997
    // busy answered one group at both ends (4 of 35 s, the 5 of docs/pcap.md's 140 s table);
    // of 3 at 0.931-0.942, one read "cannot tell" at the sender and one, in a `make test`,
    // "not bottlenecked" at both ends, settled, with about one packet in ten held 2-8 ms on
    // its way to the router (docs/pcap.md, "Real captures at both ends and in the middle").
    // Such a run is run once more, and the answers are judged only on a run above the bound.
    let mut healthy = false;
    for attempt in 1..=2 {
        let utilisation = testbed_run(&root, &dir);
        healthy = utilisation >= HEALTHY_UTILISATION;
        if healthy {
            break;
        }
        eprintln!("attempt {attempt}: the bottleneck was {utilisation:.3} busy (a healthy run keeps it at least {HEALTHY_UTILISATION}): the machine starved the testbed");
    }
    let cap = dir.join("run/capture");
    let sender = detect(&cap.join("host-s.pcap"), &dir.join("s"));
    let router = detect(&cap.join("host-l0.pcap"), &dir.join("l0"));
    let receiver = detect(&cap.join("host-d.pcap"), &dir.join("d"));
    // The sender's capture has no queue before it: round trips from the ACKs. The receiver's
    // has the bottleneck's queue before it and the ACKs right after: one-way delay.
    assert_eq!(places(&sender), vec![("sender".to_string(), "rtt-ts-echo".to_string()); 2], "{sender}");
    assert_eq!(places(&receiver), vec![("receiver".to_string(), "owd-tsval".to_string()); 2], "{receiver}");
    // The router records every packet it forwards on the way in and on the way out: about
    // half its records are copies (fewer: what its queue dropped arrived but never left).
    let (records, copies) = (router["records"].as_f64().unwrap(), router["duplicates_dropped"].as_f64().unwrap());
    assert!(copies > 0.4 * records && copies <= 0.5 * records, "{copies} copies of {records} records");
    // The first copy is the one before the queue: the router's capture reads as a sender's.
    assert!(places(&router).iter().all(|p| p.0 == "sender"), "{router}");
    // Both flows share the bottleneck: the answer says so, or that it cannot tell.
    if healthy {
        for s in [&sender, &receiver] {
            let a = &s["answer_all_flows"];
            let grouping = a["grouping"].as_str().unwrap();
            assert!(!a["settled"].as_bool().unwrap() || (grouping.matches('{').count() == 1 && !grouping.contains("not bottlenecked")), "{a}");
            assert!(a["decisions"].as_u64().unwrap() >= 3, "{a}");
        }
    } else {
        eprintln!("the answers are not judged: both runs were starved (placement and copies were)");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
