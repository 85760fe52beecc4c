//! `pathpool run --pcap` then `pathpool detect --pcap` end to end: the simulator's capture of
//! a shared bottleneck is read back, the MPTCP subflows are grouped into one connection and
//! found to share it, every output is written; captures that cannot be analysed exit 2 with a
//! message naming the file and what it held.

use std::path::PathBuf;
use std::process::Command;

fn temp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pathpool-cli-pcap-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn pathpool(args: &[&str]) -> (Option<i32>, String, String) {
    let r = Command::new(env!("CARGO_BIN_EXE_pathpool")).args(args).output().unwrap();
    (r.status.code(), String::from_utf8_lossy(&r.stdout).into_owned(), String::from_utf8_lossy(&r.stderr).into_owned())
}

#[test]
fn a_simulated_shared_bottleneck_is_found_in_its_capture() {
    let dir = temp("sb");
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let scenario = root.join("scenarios/examples/mptcp-shared-bottleneck.toml");
    let caps = dir.join("pcap");
    let (code, _, err) = pathpool(&["run", scenario.to_str().unwrap(), "--out", dir.join("run").to_str().unwrap(), "--set", "simulation.duration=40s", "--pcap", caps.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    // The receiving host of the MPTCP connection.
    let receiver = std::fs::read_dir(&caps).unwrap().map(|e| e.unwrap().path()).find(|p| p.file_stem().is_some_and(|s| s == "server")).expect("server.pcap");
    let out = dir.join("detect");
    let (code, stdout, err) = pathpool(&["detect", "--pcap", receiver.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(stdout.contains("connection mptcp-") && stdout.contains("(2 subflows)"), "{stdout}");
    for f in ["decisions.csv", "decisions.json", "observations.csv", "summary.json", "summary.txt", "timeline.png"] {
        assert!(out.join(f).exists(), "{f} missing");
    }
    let last = stdout.lines().find(|l| l.starts_with("last decision")).unwrap();
    // The TCP competitor reaches the same host through the same bottleneck: all in one group.
    assert!(last.split('{').any(|g| g.contains(".sf0") && g.contains(".sf1") && g.contains("tcp-")), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn captures_that_cannot_be_analysed_exit_2_and_say_why() {
    let dir = temp("bad");
    std::fs::create_dir_all(&dir).unwrap();
    let empty = dir.join("empty.pcap");
    std::fs::write(&empty, b"").unwrap();
    let (code, _, err) = pathpool(&["detect", "--pcap", empty.to_str().unwrap(), "--out", dir.join("o").to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(err.contains("empty.pcap") && err.contains("empty"), "{err}");
    // One UDP datagram over raw IPv4.
    let mut udp = Vec::new();
    for w in [0xa1b2_c3d4u32, 0x0004_0002, 0, 0, 65535, 101] {
        udp.extend_from_slice(&w.to_le_bytes());
    }
    let ip = [0x45, 0, 0, 28, 0, 0, 0, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2, 0, 53, 0, 53, 0, 8, 0, 0];
    for w in [1u32, 0, 28, 28] {
        udp.extend_from_slice(&w.to_le_bytes());
    }
    udp.extend_from_slice(&ip);
    let f = dir.join("udp.pcap");
    std::fs::write(&f, &udp).unwrap();
    let (code, _, err) = pathpool(&["detect", "--pcap", f.to_str().unwrap(), "--out", dir.join("o").to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(err.contains("udp.pcap") && err.contains("no TCP data flow") && err.contains("1 IP packets that are not TCP"), "{err}");
    assert!(!dir.join("o").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
