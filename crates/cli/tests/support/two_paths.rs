//! Two network namespaces joined by two veth pairs, a sender and a receiver with one address
//! on each path (10.9.1.0/24 on eth0, 10.9.2.0/24 on eth1), each path a tbf bottleneck of its
//! own rate in both directions; traffic from the sender's second address leaves by eth1. For
//! the root tests that run MPTCP over two paths. Dropping them kills what still runs there
//! (by PID) and deletes both, also after a failed assertion.

use std::process::Command;

pub struct TwoPaths {
    pub sender: String,
    pub receiver: String,
}

impl TwoPaths {
    /// `tag` names the namespaces (`pp-TAGs-PID`, `pp-TAGr-PID`); `rates` are the two paths'
    /// tbf rates (e.g. "20mbit").
    pub fn new(tag: &str, rates: [&str; 2]) -> TwoPaths {
        let id = std::process::id();
        let hosts = TwoPaths { sender: format!("pp-{tag}s-{id}"), receiver: format!("pp-{tag}r-{id}") };
        let (s, r) = (hosts.sender.as_str(), hosts.receiver.as_str());
        ip(&["netns", "add", s]);
        ip(&["netns", "add", r]);
        for (k, dev) in ["eth0", "eth1"].iter().enumerate() {
            let (a, b) = (format!("pp{tag}{id}s{k}"), format!("pp{tag}{id}r{k}"));
            ip(&["link", "add", &a, "netns", s, "type", "veth", "peer", "name", &b, "netns", r]);
            ip(&["-n", s, "link", "set", &a, "name", dev]);
            ip(&["-n", r, "link", "set", &b, "name", dev]);
            let net = k + 1;
            ip(&["-n", s, "addr", "add", &format!("10.9.{net}.1/24"), "dev", dev]);
            ip(&["-n", r, "addr", "add", &format!("10.9.{net}.2/24"), "dev", dev]);
            for ns in [s, r] {
                ip(&["-n", ns, "link", "set", dev, "up"]);
                ip(&["netns", "exec", ns, "tc", "qdisc", "add", "dev", dev, "root", "tbf", "rate", rates[k], "burst", "5kb", "latency", "50ms"]);
            }
        }
        for ns in [s, r] {
            ip(&["-n", ns, "link", "set", "lo", "up"]);
            // In a network namespace Linux takes only an unrestricted default (reno, not
            // cubic or bbr); the hosts start from it.
            ip(&["netns", "exec", ns, "sysctl", "-qw", "net.ipv4.tcp_congestion_control=reno"]);
        }
        // The receiver answers ARP for 10.9.1.2 on eth1 too, as Linux does for any local
        // address.
        ip(&["-n", s, "rule", "add", "from", "10.9.2.1", "table", "102"]);
        ip(&["-n", s, "route", "add", "default", "dev", "eth1", "table", "102"]);
        hosts
    }
}

impl TwoPaths {
    /// Kills every process still running in either namespace (by PID).
    pub fn kill_processes(&self) {
        for ns in [&self.sender, &self.receiver] {
            let pids = Command::new("ip").args(["netns", "pids", ns]).output().map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap_or_default();
            for pid in pids.split_whitespace() {
                let _ = Command::new("kill").args(["-KILL", pid]).status();
            }
        }
    }
}

impl Drop for TwoPaths {
    fn drop(&mut self) {
        self.kill_processes();
        for ns in [&self.sender, &self.receiver] {
            let _ = Command::new("ip").args(["netns", "del", ns]).status();
        }
    }
}

fn ip(args: &[&str]) {
    let out = Command::new("ip").args(args).output().expect("ip runs");
    assert!(out.status.success(), "ip {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}
