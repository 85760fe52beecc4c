//! The recipe of docs/kernel.md ("Your own application"), run as it is written: its lines
//! between the `kernel-recipe` markers, each on the host its prompt names, on two namespaces
//! this test makes ("sender" and "receiver", joined by two 20 Mb/s paths). An unmodified
//! iperf3 under mptcpize must run over two subflows on pp_mptcp_sbd, `kernel status` must show
//! them with the SBD daemon's groups, and nothing may be left afterwards. Root only, and
//! iperf3 and mptcpize (`make deps` installs them); without them it says why and passes.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use support::two_paths::TwoPaths;

const PATHPOOL: &str = env!("CARGO_BIN_EXE_pathpool");

/// The two hosts, and whether pathpool's controllers were registered before the test.
struct Hosts {
    paths: TwoPaths,
    loaded_before: bool,
}

impl Drop for Hosts {
    fn drop(&mut self) {
        // Whatever a failed recipe left: its processes (by PID), the receiver fix, the
        // controllers (unless someone else had registered them); the namespaces go with
        // `paths`.
        self.paths.kill_processes();
        let _ = Command::new("ip").args(["netns", "exec", &self.paths.receiver, PATHPOOL, "kernel", "receiver", "off"]).output();
        if !self.loaded_before && !registered().is_empty() {
            let _ = Command::new(PATHPOOL).args(["kernel", "unload"]).output();
        }
    }
}

fn registered() -> Vec<String> {
    std::fs::read_to_string("/proc/sys/net/ipv4/tcp_available_congestion_control")
        .unwrap_or_default()
        .split_whitespace()
        .filter(|n| pathpool_kernel::controllers().contains(n))
        .map(str::to_string)
        .collect()
}

fn on_path(program: &str) -> bool {
    Command::new("sh").args(["-c", &format!("command -v {program}")]).output().is_ok_and(|o| o.status.success())
}

/// The recipe's lines as (host, command).
fn recipe() -> Vec<(String, String)> {
    let doc = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/kernel.md");
    let text = std::fs::read_to_string(&doc).expect("docs/kernel.md");
    let start = text.find("<!-- kernel-recipe:begin").expect("the recipe's begin marker");
    let end = text.find("<!-- kernel-recipe:end -->").expect("the recipe's end marker");
    let lines: Vec<(String, String)> = text[start..end]
        .lines()
        .filter_map(|l| l.split_once("# ").filter(|(h, _)| *h == "sender" || *h == "receiver"))
        .map(|(h, c)| (h.to_string(), c.trim().to_string()))
        .collect();
    assert!(!lines.is_empty() && lines.len() <= 10, "the recipe has 1 to 10 lines: {lines:?}");
    lines
}

/// One shell script that runs each line in its host's namespace. `wait` stays in the outer
/// shell, as it would in the user's own shell on that host; a trailing `&` puts the line in the
/// background there.
fn script(lines: &[(String, String)], hosts: &Hosts) -> String {
    let quote = |s: &str| format!("'{}'", s.replace('\'', r"'\''"));
    let mut out = String::from("set -e\n");
    for (host, command) in lines {
        let ns = if host == "sender" { &hosts.paths.sender } else { &hosts.paths.receiver };
        let (command, background) = match command.strip_suffix('&') {
            Some(c) => (c.trim(), " &"),
            None => (command.as_str(), ""),
        };
        let parts: Vec<String> = command
            .split("; ")
            .map(|p| if p.trim() == "wait" { "wait".to_string() } else { format!("ip netns exec {ns} sh -c {}", quote(p)) })
            .collect();
        out += &format!("{}{background}\n", parts.join("; "));
    }
    out
}

#[test]
fn the_recipe_runs_an_unmodified_program_on_pp_mptcp_sbd_and_leaves_nothing_behind() {
    // The recipe registers BPF controllers and changes routes, which needs root.
    let test = "the_recipe_runs_an_unmodified_program_on_pp_mptcp_sbd_and_leaves_nothing_behind";
    if !pathpool_testbed::skip::root_or_skip(test) {
        return;
    }
    let skip = |why: &str| pathpool_testbed::skip::skip(test, why);
    if pathpool_kernel_unbuilt() {
        return skip("this build has no BPF controllers (make build-kernel)");
    }
    if !(on_path("iperf3") && on_path("mptcpize")) {
        return skip("iperf3 and mptcpize are needed (`make deps` as root installs them)");
    }
    let loaded_before = !registered().is_empty();
    if loaded_before {
        return skip("pathpool's controllers are registered by someone else, and the recipe ends by unregistering them");
    }
    let id = std::process::id();
    // Two 20 Mb/s paths.
    let hosts = Hosts { paths: TwoPaths::new("kq", ["20mbit", "20mbit"]), loaded_before };
    let routes = |ns: &str| Command::new("ip").args(["-n", ns, "route"]).output().map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap();
    let before = routes(&hosts.paths.receiver);

    let dir = std::env::temp_dir().join(format!("pathpool-kernel-recipe-{id}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let bin_dir = Path::new(PATHPOOL).parent().unwrap();
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default());
    let text = script(&recipe(), &hosts);
    let out = Command::new("sh").args(["-c", &text]).current_dir(&dir).env("PATH", &path).output().expect("sh runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let iperf = std::fs::read_to_string(dir.join("iperf3.log")).unwrap_or_default();
    let sbd = std::fs::read_to_string(dir.join("sbd.log")).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success(), "the recipe failed:\n{text}\nstdout:\n{stdout}\nstderr:\n{}", String::from_utf8_lossy(&out.stderr));

    // kernel status, in the middle of the transfer: the connection on pp_mptcp_sbd, its two
    // subflows and their groups, and the receiver fix (off on the sender).
    let conn = stdout.lines().find(|l| l.contains("pp_mptcp_sbd subflows")).unwrap_or_else(|| panic!("kernel status shows no pp_mptcp_sbd connection:\n{stdout}"));
    assert!(conn.contains("subflows 2"), "two subflows: {conn}");
    assert!(conn.contains("groups"), "{conn}");
    assert!(stdout.contains("receiver fix (this network namespace): off"), "{stdout}");
    // receiver status, then: the read-ack fix covers both subflows (the sender negotiated
    // ECN) and has sent read-time ACKs; nothing is reported uncovered.
    let read_ack = stdout.lines().find(|l| l.starts_with("read-ack: on: ")).unwrap_or_else(|| panic!("receiver status shows no read-ack line:\n{stdout}"));
    let covered: u64 = read_ack["read-ack: on: ".len()..].split_whitespace().next().and_then(|n| n.parse().ok()).unwrap_or(0);
    assert!(covered >= 2, "both subflows on the read-ack twins: {read_ack}");
    assert!(!read_ack.contains("NOT covered") && !read_ack.contains(" 0 read-time ACK(s)"), "{read_ack}");
    // iperf3 moved data at about the two paths' 40 Mb/s, not one path's 20.
    let receiver_line = iperf.lines().rev().find(|l| l.trim_end().ends_with("receiver")).unwrap_or_else(|| panic!("iperf3's log has no result:\n{iperf}"));
    let mbps = mbits(receiver_line).unwrap_or_else(|| panic!("no rate in {receiver_line}"));
    assert!(mbps > 25.0, "iperf3 over both paths: {mbps} Mb/s ({receiver_line})");
    assert!(sbd.contains(" decision "), "the SBD daemon decided nothing:\n{sbd}");

    // Nothing left: controllers, routes of the receiver fix, processes.
    assert!(registered().is_empty(), "controllers left registered: {:?}", registered());
    let twins = std::fs::read_to_string("/proc/sys/net/ipv4/tcp_available_congestion_control").unwrap_or_default();
    assert!(!twins.split_whitespace().any(|n| pathpool_kernel::READ_ACK_CCS.contains(&n)), "the read-ack fix left registered: {twins}");
    assert_eq!(routes(&hosts.paths.receiver), before, "the receiver's routes are as they were");
    for ns in [&hosts.paths.sender, &hosts.paths.receiver] {
        let pids = Command::new("ip").args(["netns", "pids", ns]).output().unwrap();
        assert!(pids.stdout.is_empty(), "processes left in {ns}: {}", String::from_utf8_lossy(&pids.stdout));
    }
    eprintln!("recipe: {conn}; iperf3 {mbps:.1} Mb/s");
}

/// The rate in an iperf3 result line ("... 38.2 Mbits/sec ...").
fn mbits(line: &str) -> Option<f64> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| w.ends_with("bits/sec"))?;
    let v: f64 = words.get(i.checked_sub(1)?)?.parse().ok()?;
    Some(match words[i] {
        "Gbits/sec" => v * 1000.0,
        "Kbits/sec" => v / 1000.0,
        _ => v,
    })
}

fn pathpool_kernel_unbuilt() -> bool {
    let out = Command::new(PATHPOOL).args(["kernel", "status"]).output().expect("pathpool runs");
    String::from_utf8_lossy(&out.stderr).contains("built without the BPF controllers")
}
