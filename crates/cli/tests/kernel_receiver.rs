//! `pathpool kernel receiver on|off|status` (docs/kernel.md, "The receiver fix") on two
//! namespaces this test creates: with the fix on, the receiver acknowledges every segment of
//! an MPTCP transfer (Linux otherwise holds and coalesces them), and off restores its routes
//! exactly, leaving no state behind. Root only; without root it says why and passes.

mod support;

use std::process::{Command, Stdio};
use support::netns_pair::{in_ns, ip, out_per_in_segment, pathpool, Pair, Server};

const SERVER: &str = "import socket\ns=socket.socket(socket.AF_INET,socket.SOCK_STREAM,262)\ns.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEADDR,1)\ns.bind(('10.79.0.1',5001))\ns.listen()\nprint('ready',flush=True)\nc,_=s.accept()\nwhile c.recv(65536): pass\n";

/// Pairs of segments, 1 ms apart, over MPTCP (IPPROTO_MPTCP = 262).
const CLIENT: &str = "import socket,time\ns=socket.socket(socket.AF_INET,socket.SOCK_STREAM,262)\ns.connect(('10.79.0.1',5001))\ns.setsockopt(socket.IPPROTO_TCP,socket.TCP_NODELAY,1)\nfor _ in range(400):\n    s.sendall(b'x'*2896); time.sleep(0.001)\ns.close()\n";

/// The receiver's ACKs per data segment over one transfer (nstat's TcpOutSegs / TcpInSegs).
fn acks_per_segment(receiver: &str, sender: &str) -> f64 {
    let mut server = Command::new("ip").args(["netns", "exec", receiver, "python3", "-c", SERVER]).stdout(Stdio::piped()).spawn().expect("server starts");
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(server.stdout.as_mut().unwrap()), &mut line).unwrap();
    assert_eq!(line.trim(), "ready");
    let server = Server(server);
    assert!(in_ns(receiver, "nstat", &["-n"]).status.success());
    let client = in_ns(sender, "python3", &["-c", CLIENT]);
    assert!(client.status.success(), "client: {}", String::from_utf8_lossy(&client.stderr));
    let mut server = server;
    let _ = server.0.wait();
    out_per_in_segment(receiver)
}

#[test]
fn the_receiver_fix_acknowledges_every_segment_and_leaves_nothing_behind() {
    // The receiver fix changes routes, which needs root.
    if !pathpool_testbed::skip::root_or_skip("the_receiver_fix_acknowledges_every_segment_and_leaves_nothing_behind") {
        return;
    }
    // One segment per packet (no ethtool here): the counters then count segments.
    let pair = Pair::new("rf", "10.79.0", true);
    let (sender, receiver) = (pair.sender.clone(), pair.receiver.clone());
    let routes = |ns: &str| ip(&["-n", ns, "route"]) + &ip(&["-n", ns, "-6", "route"]);
    let before = routes(&receiver);

    // Linux's delayed ACKs: about one ACK per two segments of each pair.
    let held = acks_per_segment(&receiver, &sender);
    assert!(pathpool(&receiver, &["kernel", "receiver", "status"]).contains("receiver fix: off"));
    let on = pathpool(&receiver, &["kernel", "receiver", "on", "--mode", "route"]);
    assert!(on.contains("  10.79.0.0/24 dev vr"), "{on}");
    assert!(ip(&["-n", &receiver, "route"]).contains("quickack 1"));
    let changed = on.lines().filter(|l| l.starts_with("  ")).count();
    let again = in_ns(&receiver, env!("CARGO_BIN_EXE_pathpool"), &["kernel", "receiver", "on", "--mode", "route"]);
    assert!(!again.status.success() && String::from_utf8_lossy(&again.stderr).contains("already on"), "a second `on` is refused");
    let quick = acks_per_segment(&receiver, &sender);
    // Measured: 0.60 and 1.00 (beside a testbed run).
    assert!(held < 0.75 && quick > 0.9, "ACKs per data segment: {held:.2} with Linux's delayed ACKs, {quick:.2} with the fix");

    let off = pathpool(&receiver, &["kernel", "receiver", "off"]);
    assert!(off.contains(&format!("{changed} route(s) restored")), "{off}");
    assert_eq!(routes(&receiver), before, "the routes are as they were");
    assert!(pathpool(&receiver, &["kernel", "receiver", "status"]).contains("receiver fix: off"), "no state left");
    eprintln!("ACKs per data segment: {held:.2} without the fix, {quick:.2} with it");
}
