//! Two network namespaces joined by a veth pair, for the receiver fix's root tests: a sender
//! at NET.2 and a receiver at NET.1. Dropping them takes the receiver fix off in the receiver
//! (its state outlives a namespace) and deletes both, also after a failed assertion.

use std::process::{Child, Command, Output, Stdio};

pub struct Pair {
    pub sender: String,
    pub receiver: String,
}

impl Pair {
    /// `tag` names the namespaces (`pp-TAGs-PID`, `pp-TAGr-PID`); `net` is a /24's first
    /// three octets; `one_segment_per_packet` turns GSO off, so that nstat counts segments.
    pub fn new(tag: &str, net: &str, one_segment_per_packet: bool) -> Pair {
        let id = std::process::id();
        // Deleting a namespace that was never made is harmless: the guard comes first.
        let pair = Pair { sender: format!("pp-{tag}s-{id}"), receiver: format!("pp-{tag}r-{id}") };
        ip(&["netns", "add", &pair.sender]);
        ip(&["netns", "add", &pair.receiver]);
        ip(&["link", "add", "vs", "netns", &pair.sender, "type", "veth", "peer", "name", "vr", "netns", &pair.receiver]);
        ip(&["-n", &pair.sender, "addr", "add", &format!("{net}.2/24"), "dev", "vs"]);
        ip(&["-n", &pair.receiver, "addr", "add", &format!("{net}.1/24"), "dev", "vr"]);
        for (ns, dev) in [(&pair.sender, "vs"), (&pair.receiver, "vr")] {
            let mut up = vec!["-n", ns.as_str(), "link", "set", dev, "up"];
            if one_segment_per_packet {
                up.extend(["gso_max_segs", "1"]);
            }
            ip(&up);
            ip(&["-n", ns, "link", "set", "lo", "up"]);
        }
        pair
    }
}

impl Drop for Pair {
    fn drop(&mut self) {
        let _ = Command::new("ip").args(["netns", "exec", &self.receiver, env!("CARGO_BIN_EXE_pathpool"), "kernel", "receiver", "off"]).output();
        for ns in [&self.sender, &self.receiver] {
            let _ = Command::new("ip").args(["netns", "del", ns]).status();
        }
    }
}

/// A process killed and reaped on drop.
pub struct Server(pub Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn ip(args: &[&str]) -> String {
    let out = Command::new("ip").args(args).output().expect("ip runs");
    assert!(out.status.success(), "ip {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn in_ns(ns: &str, program: &str, args: &[&str]) -> Output {
    Command::new("ip").args(["netns", "exec", ns, program]).args(args).output().expect("ip netns exec runs")
}

/// `pathpool ARGS` inside `ns`, which must succeed; its stdout.
pub fn pathpool(ns: &str, args: &[&str]) -> String {
    let out = in_ns(ns, env!("CARGO_BIN_EXE_pathpool"), args);
    assert!(out.status.success(), "pathpool {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// nstat's TcpOutSegs / TcpInSegs in `ns` since its last `nstat -n` there.
pub fn out_per_in_segment(ns: &str) -> f64 {
    let counters = String::from_utf8_lossy(&in_ns(ns, "nstat", &["-z", "TcpInSegs", "TcpOutSegs"]).stdout).into_owned();
    let value = |name: &str| -> f64 { counters.lines().find(|l| l.starts_with(name)).and_then(|l| l.split_whitespace().nth(1)).and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("nstat has no {name}:\n{counters}")) };
    value("TcpOutSegs") / value("TcpInSegs")
}

/// The receiver's ACKs per data segment over one transfer: `server` (a Python program that
/// prints "ready" once listening and exits when its stdin closes) runs in `receiver`, `client`
/// in `sender`, both given PROTO (262 for MPTCP, 6 for TCP) as their argument.
pub fn acks_per_segment(receiver: &str, sender: &str, proto: &str, server: &str, client: &str) -> f64 {
    let mut child = Command::new("ip")
        .args(["netns", "exec", receiver, "python3", "-c", server, proto])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("server starts");
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(child.stdout.as_mut().unwrap()), &mut line).unwrap();
    assert_eq!(line.trim(), "ready");
    let mut server = Server(child);
    assert!(in_ns(receiver, "nstat", &["-n"]).status.success());
    let out = in_ns(sender, "python3", &["-c", client, proto]);
    assert!(out.status.success(), "client: {}", String::from_utf8_lossy(&out.stderr));
    let ratio = out_per_in_segment(receiver);
    drop(server.0.stdin.take());
    let _ = server.0.wait();
    ratio
}
