//! `pathpool kernel receiver on --mode delack-max` (docs/kernel.md, "The receiver fix") on two
//! namespaces this test creates: the program caps the timer of the MPTCP subflow established
//! there at the kernel's floor (2 jiffies) and leaves the TCP socket beside it alone, a second
//! `on` is refused, and `off` detaches it and leaves no pin behind. A sender writes a small
//! segment every 10 ms to a receiver that does not read; the receiver's ACKs per segment are
//! printed with and without the program. Root only; without root it says why and passes.

mod support;

use support::netns_pair::{in_ns, pathpool, Pair};

/// Accepts one connection and does not read until the sender is done (PROTO: 262 for MPTCP,
/// 6 for TCP).
const SERVER: &str = "import socket,sys\ns=socket.socket(socket.AF_INET,socket.SOCK_STREAM,int(sys.argv[1]))\ns.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEADDR,1)\ns.bind(('10.79.1.1',5001))\ns.listen()\nprint('ready',flush=True)\nc,_=s.accept()\nsys.stdin.readline()\n";

/// 400 writes of 100 bytes, 10 ms apart.
const CLIENT: &str = "import socket,sys,time\ns=socket.socket(socket.AF_INET,socket.SOCK_STREAM,int(sys.argv[1]))\ns.connect(('10.79.1.1',5001))\ns.setsockopt(socket.IPPROTO_TCP,socket.TCP_NODELAY,1)\nfor _ in range(400):\n    s.sendall(b'x'*100); time.sleep(0.01)\ntime.sleep(0.1)\ns.close()\n";

fn acks_per_segment(receiver: &str, sender: &str, proto: &str) -> f64 {
    support::netns_pair::acks_per_segment(receiver, sender, proto, SERVER, CLIENT)
}

fn bpf_pins() -> Vec<String> {
    std::fs::read_dir("/sys/fs/bpf").map(|d| d.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).filter(|n| n.starts_with("pathpool-receiver")).collect()).unwrap_or_default()
}

#[test]
fn delack_max_caps_the_subflows_timer_only_and_leaves_nothing_behind() {
    // The delack-max mode attaches a BPF program, which needs root.
    if !pathpool_testbed::skip::root_or_skip("delack_max_caps_the_subflows_timer_only_and_leaves_nothing_behind") {
        return;
    }
    let pair = Pair::new("rd", "10.79.1", false);
    let (sender, receiver) = (pair.sender.clone(), pair.receiver.clone());
    let pins_before = bpf_pins();

    let held = acks_per_segment(&receiver, &sender, "262");
    let on = pathpool(&receiver, &["kernel", "receiver", "on", "--mode", "delack-max"]);
    assert!(on.contains("sock_ops program attached"), "{on}");
    let again = in_ns(&receiver, env!("CARGO_BIN_EXE_pathpool"), &["kernel", "receiver", "on", "--mode", "delack-max"]);
    assert!(!again.status.success() && String::from_utf8_lossy(&again.stderr).contains("already on"), "a second `on` is refused");
    let capped = acks_per_segment(&receiver, &sender, "262");
    let tcp = acks_per_segment(&receiver, &sender, "6");
    let status = pathpool(&receiver, &["kernel", "receiver", "status"]);
    assert!(status.contains("delack-max: on: 1 subflow(s) capped"), "{status}");
    assert!(status.contains("1 other TCP socket(s) left alone"), "{status}");
    eprintln!("{status}");
    eprintln!("ACKs per data segment: MPTCP {held:.2} without the program, {capped:.2} with it; TCP beside it {tcp:.2}");
    // Measured: MPTCP 0.88 without the program and 0.55 with it, TCP 0.88 (docs/kernel.md):
    // not the one-per-segment the cap was expected to give; why is not established, so the
    // ratios are reported, not asserted.
    let off = pathpool(&receiver, &["kernel", "receiver", "off"]);
    assert!(off.contains("sock_ops program detached"), "{off}");
    assert!(pathpool(&receiver, &["kernel", "receiver", "status"]).contains("delack-max: off"));
    assert_eq!(bpf_pins(), pins_before, "no pin left");
}
