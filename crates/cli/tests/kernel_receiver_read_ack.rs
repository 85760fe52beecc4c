//! `pathpool kernel receiver on --mode read-ack` (docs/kernel.md, "The receiver fix") on two
//! namespaces this test creates. A sender writes one 1000-byte segment every 10 ms to a
//! receiver whose application does not read, so the MPTCP connection's receive memory is never
//! empty and Linux holds every lone pushed segment's ACK (`mptcp_cleanup_rbuf`): about one
//! ACK per two segments. With the programs on, the subflow sends the read-time ACK TCP's
//! receiver sends for a pushed segment, at once (the fix assumes an application that reads at
//! once): one ACK per segment. TCP beside it keeps Linux's receiver. Without ECN at the sender
//! the programs cannot act, and `status` says so instead of claiming the subflow covered.
//! `off` unregisters both congestion controls and leaves no pin. Root only; without root it
//! says why and passes.

mod support;

use support::netns_pair::{in_ns, pathpool, Pair};

/// Accepts one connection and does not read until the sender is done (PROTO: 262 for MPTCP,
/// 6 for TCP).
const SERVER: &str = "import socket,sys\ns=socket.socket(socket.AF_INET,socket.SOCK_STREAM,int(sys.argv[1]))\ns.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEADDR,1)\ns.bind(('10.78.1.1',5001))\ns.listen()\nprint('ready',flush=True)\nc,_=s.accept()\nsys.stdin.readline()\n";

/// 100 writes of 1000 bytes, 10 ms apart: one pushed segment each.
const CLIENT: &str = "import socket,sys,time\ns=socket.socket(socket.AF_INET,socket.SOCK_STREAM,int(sys.argv[1]))\ns.setsockopt(socket.IPPROTO_TCP,socket.TCP_NODELAY,1)\ns.connect(('10.78.1.1',5001))\nfor _ in range(100):\n    s.sendall(b'x'*1000); time.sleep(0.01)\ntime.sleep(0.1)\ns.close()\n";

fn acks_per_segment(receiver: &str, sender: &str, proto: &str) -> f64 {
    support::netns_pair::acks_per_segment(receiver, sender, proto, SERVER, CLIENT)
}

fn pins() -> Vec<String> {
    std::fs::read_dir("/sys/fs/bpf").map(|d| d.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).filter(|n| n.starts_with("pathpool-read-ack")).collect()).unwrap_or_default()
}

fn registered() -> Vec<String> {
    std::fs::read_to_string("/proc/sys/net/ipv4/tcp_available_congestion_control").unwrap_or_default().split_whitespace().filter(|n| n.starts_with("pp_ra_")).map(String::from).collect()
}

fn set_ecn(ns: &str, value: &str) {
    let out = in_ns(ns, "sysctl", &["-qw", &format!("net.ipv4.tcp_ecn={value}")]);
    assert!(out.status.success(), "sysctl: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn read_ack_sends_the_subflows_read_time_ack_and_leaves_nothing_behind() {
    // The read-ack mode registers BPF congestion controls, which needs root.
    if !pathpool_testbed::skip::root_or_skip("read_ack_sends_the_subflows_read_time_ack_and_leaves_nothing_behind") {
        return;
    }
    assert!(pins().is_empty() && registered().is_empty(), "the read-ack programs are on before the test: {:?} {:?}", pins(), registered());
    let pair = Pair::new("ra", "10.78.1", true);
    let (sender, receiver) = (pair.sender.clone(), pair.receiver.clone());
    set_ecn(&sender, "1");

    let held = acks_per_segment(&receiver, &sender, "262");
    let on = pathpool(&receiver, &["kernel", "receiver", "on", "--mode", "read-ack"]);
    assert!(on.contains("receiver fix on (read-ack)"), "{on}");
    let again = in_ns(&receiver, env!("CARGO_BIN_EXE_pathpool"), &["kernel", "receiver", "on", "--mode", "read-ack"]);
    assert!(!again.status.success() && String::from_utf8_lossy(&again.stderr).contains("already on"), "a second `on` is refused");
    let fixed = acks_per_segment(&receiver, &sender, "262");
    let tcp = acks_per_segment(&receiver, &sender, "6");
    let status = pathpool(&receiver, &["kernel", "receiver", "status"]);
    eprintln!("{status}");
    eprintln!("ACKs per data segment: MPTCP {held:.2} without the programs, {fixed:.2} with them; TCP beside it {tcp:.2}");
    assert!(status.contains("read-ack: on: 1 subflow(s) on"), "{status}");
    assert!(status.contains("1 TCP socket(s) left alone"), "{status}");
    assert!(!status.contains("NOT covered"), "{status}");
    // Linux holds the lone segment's ACK until the next segment: about one ACK per two
    // segments; the read-time ACK makes it one per segment. TCP keeps Linux's receiver.
    assert!(held < 0.75, "without the programs the subflow holds its ACKs: {held:.2}");
    assert!(fixed > 0.9, "with them the subflow ACKs each pushed segment: {fixed:.2}");
    assert!(tcp < 0.75, "TCP's receiver is left as Linux has it: {tcp:.2}");

    // A sender that does not ask for ECN (Linux's default): the subflow is not covered, and
    // status says so.
    set_ecn(&sender, "2");
    let uncovered = acks_per_segment(&receiver, &sender, "262");
    let status = pathpool(&receiver, &["kernel", "receiver", "status"]);
    assert!(status.contains("NOT covered: 1 subflow(s) whose sender did not negotiate ECN"), "{status}");
    assert!(uncovered < 0.75, "without ECN the programs cannot act: {uncovered:.2}");

    let off = pathpool(&receiver, &["kernel", "receiver", "off"]);
    assert!(off.contains("receiver fix off (read-ack)"), "{off}");
    assert!(pathpool(&receiver, &["kernel", "receiver", "status"]).contains("read-ack: off"));
    assert!(pins().is_empty(), "no pin left: {:?}", pins());
    assert!(registered().is_empty(), "no congestion control left registered: {:?}", registered());
}
