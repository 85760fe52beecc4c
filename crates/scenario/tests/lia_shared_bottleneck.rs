//! LIA's two subflows with equal RTTs through one bottleneck shared with Reno flows: RFC 6356
//! §2 goal 2 (and the fluid model: equal loss per packet gives w_total = sqrt(2/p), one TCP's
//! window) says the connection takes about one TCP flow's rate. That holds when loss is
//! independent of the flow (RED); at a tail-drop queue the drops fall on the flows whose
//! windows grow, and LIA's subflows, growing by ~1/4 packet per RTT each instead of 1, get
//! about half of TCP's window halvings per packet and so more than one TCP's rate
//! (docs/mptcp.md, "LIA above one TCP at a tail-drop bottleneck").

use pathpool_scenario::{load_str, mptcp, progress::Progress, simulate, summary};
use serde_json::Value;
use std::collections::BTreeMap;

const TCP_FLOWS: usize = 6;

fn scenario(queue: &str) -> String {
    format!(
        r#"
[simulation]
hosts = "ideal"
duration = "90s"
warmup = "15s"

[links.bn]
from = "l"
to = "r"
rate = "24Mbps"
delay = "10ms"
buffer = 60
{queue}

[links.a]
from = "s"
to = "l"
rate = "1Gbps"
delay = "10ms"
buffer = 1000

[links.b]
from = "s"
to = "m"
rate = "1Gbps"
delay = "5ms"
buffer = 1000

[links.b2]
from = "m"
to = "l"
rate = "1Gbps"
delay = "5ms"
buffer = 1000

[links.t]
from = "t"
to = "l"
rate = "1Gbps"
delay = "10ms"
buffer = 1000

[[flows]]
name = "tcp"
count = {TCP_FLOWS}
route = ["t", "l", "r"]
recovery = "sack"
start_spacing = "10ms"

[[flows]]
name = "mp"
kind = "mptcp"
recovery = "sack"
subflows = [["s", "l", "r"], ["s", "m", "l", "r"]]
"#
    )
}

const RED: &str = "queue = \"red\"\nred_min = 10\nred_max = 40";
const RANDOM_TAIL: &str = "queue = \"random-tail-drop\"";

#[derive(Debug)]
struct Shares {
    /// Connection rate over the mean TCP flow's.
    ratio: f64,
    /// Window halvings (fast retransmits) per delivered packet: subflows over TCP flows.
    halvings_per_packet: f64,
}

fn run(queue: &str, cc: &str, seed: u64) -> Shares {
    let mut l = load_str("lia.toml", &scenario(queue), &[format!("simulation.seed={seed}")]).unwrap();
    mptcp::override_cc(&mut l, cc).unwrap();
    let s: BTreeMap<String, Value> = summary::summary(&simulate(&l, &Progress::hidden()).unwrap());
    let get = |k: String| s[&k].as_f64().unwrap();
    let (mut tcp_rate, mut tcp_halvings, mut tcp_packets) = (0.0, 0.0, 0.0);
    for i in 0..TCP_FLOWS {
        tcp_rate += get(format!("flow.tcp.{i}.throughput_mbps")) / TCP_FLOWS as f64;
        tcp_halvings += get(format!("flow.tcp.{i}.fast_retransmits"));
        tcp_packets += get(format!("flow.tcp.{i}.delivered_bytes"));
    }
    let (mut mp_rate, mut mp_halvings, mut mp_packets) = (0.0, 0.0, 0.0);
    for sf in ["sf0", "sf1"] {
        mp_rate += get(format!("flow.mp.{sf}.throughput_mbps"));
        mp_halvings += get(format!("flow.mp.{sf}.fast_retransmits"));
        mp_packets += get(format!("flow.mp.{sf}.delivered_bytes"));
    }
    Shares { ratio: mp_rate / tcp_rate, halvings_per_packet: (mp_halvings / mp_packets) / (tcp_halvings / tcp_packets) }
}

fn mean(queue: &str, cc: &str) -> Shares {
    let runs: Vec<Shares> = (1..=2).map(|seed| run(queue, cc, seed)).collect();
    let n = runs.len() as f64;
    Shares {
        ratio: runs.iter().map(|r| r.ratio).sum::<f64>() / n,
        halvings_per_packet: runs.iter().map(|r| r.halvings_per_packet).sum::<f64>() / n,
    }
}

#[test]
fn lia_takes_one_tcp_share_when_loss_is_independent_of_the_flow() {
    let lia = mean(RED, "lia");
    let uncoupled = mean(RED, "uncoupled");
    eprintln!("RED: lia {lia:?}, uncoupled {uncoupled:?}");
    assert!(uncoupled.ratio > 1.6, "uncoupled: MPTCP / TCP = {}", uncoupled.ratio);
    assert!((0.75..1.25).contains(&lia.ratio), "lia: MPTCP / TCP = {} (uncoupled {})", lia.ratio, uncoupled.ratio);
    assert!(
        (0.9..1.6).contains(&lia.halvings_per_packet),
        "RED: subflow / TCP halvings per packet = {}",
        lia.halvings_per_packet
    );
}

#[test]
fn at_a_tail_drop_queue_lia_subflows_are_halved_less_per_packet_than_tcp() {
    let lia = mean(RANDOM_TAIL, "lia");
    let uncoupled = mean(RANDOM_TAIL, "uncoupled");
    eprintln!("random tail drop: lia {lia:?}, uncoupled {uncoupled:?}");
    // Reno subflows grow like TCP and are halved like TCP; LIA's grow slower and are halved
    // less often per packet, which lifts the connection above one TCP's rate.
    assert!((0.75..1.33).contains(&uncoupled.halvings_per_packet), "uncoupled halvings ratio {}", uncoupled.halvings_per_packet);
    assert!(lia.halvings_per_packet < 0.9, "lia halvings ratio {}", lia.halvings_per_packet);
    assert!(lia.ratio > 1.15, "lia: MPTCP / TCP = {}", lia.ratio);
}
