//! Per-flow and per-queue statistics over the measurement window (since the warm-up mark,
//! or since time 0 if none was set).

use crate::time::{to_secs_f64, Time};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlowKind {
    Tcp,
    Udp,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FlowStats {
    pub kind: FlowKind,
    /// Length of the measurement window.
    pub window: Time,
    /// Packets delivered to the receiving application (TCP: in order, no duplicates), and
    /// their wire bytes.
    pub delivered_packets: u64,
    pub delivered_bytes: u64,
    /// delivered_bytes * 8 / window.
    pub throughput_bps: f64,
    /// Packets the sender put on the wire (TCP: including retransmissions).
    pub sent_packets: u64,
    pub retransmissions: u64,
    pub fast_retransmits: u64,
    pub timeouts: u64,
    /// TCP: longest run of back-to-back timeouts (ever, not just in the window).
    pub max_consecutive_timeouts: u32,
    /// TCP: ACKs the receiver sent.
    pub acks_sent: u64,
    /// TCP: congestion window (segments, with NewReno inflation) now and time-averaged
    /// over the window; 0 for UDP.
    pub cwnd: f64,
    pub mean_cwnd: f64,
    /// TCP: smoothed RTT now.
    pub srtt: Option<Time>,
    /// TCP `Bytes` transfers: when the last byte was acknowledged (absolute time).
    pub completed_at: Option<Time>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct QueueStats {
    pub window: Time,
    pub arrivals: u64,
    pub drops: u64,
    pub departed_packets: u64,
    pub departed_bytes: u64,
    /// Time spent transmitting.
    pub busy_time: Time,
    /// busy_time / window.
    pub utilisation: f64,
    /// Time-average occupancy (including the packet in service).
    pub mean_packets: f64,
    pub mean_bytes: f64,
    /// drops / arrivals (0 without arrivals).
    pub drop_rate: f64,
}

/// Additive counters of a flow at one instant; stats and probes take differences.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct FlowSnapshot {
    pub delivered_packets: u64,
    pub delivered_bytes: u64,
    pub sent_packets: u64,
    pub retransmissions: u64,
    pub fast_retransmits: u64,
    pub timeouts: u64,
    pub acks_sent: u64,
    pub cwnd_area: f64,
}

impl FlowSnapshot {
    pub fn minus(&self, o: &FlowSnapshot) -> FlowSnapshot {
        FlowSnapshot {
            delivered_packets: self.delivered_packets - o.delivered_packets,
            delivered_bytes: self.delivered_bytes - o.delivered_bytes,
            sent_packets: self.sent_packets - o.sent_packets,
            retransmissions: self.retransmissions - o.retransmissions,
            fast_retransmits: self.fast_retransmits - o.fast_retransmits,
            timeouts: self.timeouts - o.timeouts,
            acks_sent: self.acks_sent - o.acks_sent,
            cwnd_area: self.cwnd_area - o.cwnd_area,
        }
    }
}

pub(crate) fn rate_bps(bytes: u64, window: Time) -> f64 {
    if window == 0 {
        0.0
    } else {
        bytes as f64 * 8.0 / to_secs_f64(window)
    }
}

/// Jain's fairness index (Jain, Chiu, Hawe 1984): (sum x)^2 / (n sum x^2); 1 = equal shares.
pub fn jain_index(xs: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let s: f64 = xs.iter().sum();
    let s2: f64 = xs.iter().map(|x| x * x).sum();
    if s2 == 0.0 {
        1.0
    } else {
        s * s / (n * s2)
    }
}
