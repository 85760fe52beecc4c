//! The probes: every `probe_interval` the bytes each receiver has read, TCP_INFO of each
//! sender (per subflow for MPTCP), and the counters of every queue (tc's statistics of each
//! link direction's root tbf: bytes and packets sent, drops, packets queued).

use crate::tcp_info::{self, TcpInfo};
use crate::traffic::FlowCounters;
pub use pathpool_netlab::{queues, QueueSample};
use std::collections::BTreeMap;
use std::net::Ipv4Addr;
use std::sync::atomic::Ordering;
use std::sync::Arc;

#[derive(Clone, Debug, Default)]
pub struct FlowSample {
    pub received: u64,
    /// One entry for TCP; for MPTCP one per subflow of the plan, in its order (None until
    /// the subflow exists); none for UDP.
    pub subflows: Vec<Option<TcpInfo>>,
}

#[derive(Clone, Debug, Default)]
pub struct Sample {
    /// Seconds since the run's start.
    pub time_s: f64,
    pub flows: Vec<FlowSample>,
    /// Per (namespace, device): the root queue's counters.
    pub queues: BTreeMap<(String, String), QueueSample>,
    /// Per namespace: TcpExt recoveries entered so far (SACK + Reno).
    pub recoveries: BTreeMap<String, u64>,
}

/// `sources[i]`: flow i's source addresses, one per subflow for MPTCP, empty otherwise.
pub fn flows(counters: &[Arc<FlowCounters>], sources: &[Vec<Ipv4Addr>]) -> Vec<FlowSample> {
    counters
        .iter()
        .zip(sources)
        .map(|(c, src)| {
            let fd = c.sender_fd.load(Ordering::SeqCst);
            let subflows = if fd < 0 {
                Vec::new()
            } else if !src.is_empty() {
                let found = tcp_info::mptcp_subflows(fd).unwrap_or_default();
                src.iter().map(|a| found.iter().find(|(b, _)| b == a).map(|(_, t)| *t)).collect()
            } else {
                vec![tcp_info::tcp(fd)]
            };
            FlowSample { received: c.received.load(Ordering::SeqCst), subflows }
        })
        .collect()
}

/// Recoveries (fast retransmits) the namespace's TCP has entered, from its TcpExt MIB; read
/// by a thread inside the namespace because /proc/thread-self/net follows the thread's.
pub fn recoveries_here() -> u64 {
    let Ok(text) = std::fs::read_to_string("/proc/thread-self/net/netstat") else { return 0 };
    let mut lines = text.lines();
    while let (Some(head), Some(values)) = (lines.next(), lines.next()) {
        if !head.starts_with("TcpExt:") {
            continue;
        }
        return head
            .split_whitespace()
            .zip(values.split_whitespace())
            .filter(|(k, _)| matches!(*k, "TCPSackRecovery" | "TCPRenoRecovery"))
            .filter_map(|(_, v)| v.parse::<u64>().ok())
            .sum();
    }
    0
}
