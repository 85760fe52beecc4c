//! scripts/ack_reasons.sh, the probe of why a Linux receiver sent each ACK
//! (docs/fidelity-notes.md, "Drift"), on a loopback transfer: it counts the receiver's ACKs and
//! removes its program afterwards. Needs root; without it the test prints why and passes.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A bulk transfer of 4 MB over loopback to a receiver that reads at once, in segments of
/// 1400 bytes (the sender's TCP_MAXSEG).
const TRANSFER: &str = r#"
import socket, threading
srv = socket.socket(); srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", 5998)); srv.listen(1)
def serve():
    c, _ = srv.accept()
    while c.recv(65536): pass
    c.close()
t = threading.Thread(target=serve); t.start()
s = socket.socket(); s.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 1400)
s.connect(("127.0.0.1", 5998))
for _ in range(2860): s.sendall(b"x" * 1400)
s.close(); t.join()
"#;

#[test]
fn the_ack_probe_counts_a_receivers_acks_and_leaves_no_program_behind() {
    let test = "the_ack_probe_counts_a_receivers_acks_and_leaves_no_program_behind";
    // It loads a BPF program.
    if !pathpool_testbed::skip::root_or_skip(test) {
        return;
    }
    for tool in ["clang", "bpftool", "python3"] {
        if Command::new("sh").args(["-c", &format!("command -v {tool}")]).output().map(|o| !o.status.success()).unwrap_or(true) {
            return pathpool_testbed::skip::skip(test, &format!("no {tool} on PATH (`make deps` installs clang and bpftool)"));
        }
    }
    let out = std::env::temp_dir().join(format!("pathpool-ack-reasons-{}.json", std::process::id()));
    let status = Command::new("sh")
        .current_dir(repo())
        .args(["scripts/ack_reasons.sh", out.to_str().unwrap(), "5998", "--", "python3", "-c", TRANSFER])
        .status()
        .expect("sh runs");
    assert!(status.success(), "ack_reasons.sh failed: {status}");

    let cgroup = std::fs::read_to_string("/proc/mounts").unwrap().lines().find_map(|l| {
        let f: Vec<&str> = l.split_whitespace().collect();
        (f.get(2) == Some(&"cgroup2")).then(|| f[1].to_string())
    });
    let attached = Command::new("bpftool").args(["cgroup", "show", &cgroup.unwrap()]).output().unwrap();
    assert!(!String::from_utf8_lossy(&attached.stdout).contains("ack_reasons"), "the program is still attached");
    let pins: Vec<_> = std::fs::read_dir("/sys/fs/bpf").unwrap().filter_map(|e| e.ok()).filter(|e| e.file_name().to_string_lossy().starts_with("pathpool_ack_reasons")).collect();
    assert!(pins.is_empty(), "pins left behind: {pins:?}");

    let summary = Command::new("python3").current_dir(repo()).args(["scripts/ack_reasons.py", out.to_str().unwrap(), "--min", "1"]).output().unwrap();
    std::fs::remove_file(&out).ok();
    assert!(summary.status.success(), "ack_reasons.py: {}", String::from_utf8_lossy(&summary.stderr));
    let text = String::from_utf8_lossy(&summary.stdout);
    let total: u64 = text.lines().filter_map(|l| l.strip_prefix("flow from port ")?.split(": ").nth(1)?.split(' ').next()?.parse::<u64>().ok()).sum();
    // 2860 segments of 1400 bytes, but loopback carries the sender's GSO packets whole (up
    // to 64 KiB), and Linux ACKs per packet it receives: on a busy machine the sender builds
    // larger ones (135 pure ACKs in one `make test` here, 969-2325 in calm runs). The bound
    // asks for one pure ACK per 64 KiB, the most loopback carries in one packet: fewer would
    // mean the probe misses ACKs, or Linux ACKing less than once per packet, seen in no run.
    assert!(total >= 2860 * 1400 / 65_536, "{total} pure ACKs counted:\n{text}");
    // A connection starts in quick-ACK mode (tcp_event_data_recv: the first data segment
    // calls tcp_incr_quickack), so its first ACKs are counted as such.
    assert!(text.contains("quick-ACK mode"), "no quick-ACK mode ACK:\n{text}");
}

#[test]
fn the_ack_probe_refuses_a_port_that_is_not_a_number() {
    let out = Command::new("sh").current_dir(repo()).args(["scripts/ack_reasons.sh", "x.json", "fifty", "--", "true"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("PORT 'fifty'") && err.contains("port number"), "{err}");
}
