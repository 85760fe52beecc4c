//! Configuration of one TCP flow.

use pathpool_cc::{Algorithm, CcConfig, RtoRule};

use crate::time::{millis, secs, Time};
use crate::ElementId;

/// Loss recovery after three duplicate ACKs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recovery {
    /// RFC 6582, cumulative ACKs only (the receiver sends no SACK blocks).
    NewReno,
    /// RFC 6675 with SACK blocks from the receiver (RFC 2018).
    Sack,
}

/// What the sending application offers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TcpTraffic {
    /// Always has data.
    Bulk,
    /// Produces data at `bps` (wire bits of data segments per second) from the start time.
    RateLimited { bps: u64 },
    /// A transfer of this many bytes (rounded up to whole segments); its completion time is
    /// recorded in the flow's stats.
    Bytes(u64),
}

#[derive(Clone, Debug, PartialEq)]
pub struct TcpFlowConfig {
    /// Elements data packets cross, sender to receiver (the receiver is appended).
    pub fwd: Vec<ElementId>,
    /// Elements ACKs cross, receiver to sender (the sender is appended).
    pub rev: Vec<ElementId>,
    pub cc: Algorithm,
    /// Initial window, slow-start test and algorithm parameters live here.
    pub cc_config: CcConfig,
    pub recovery: Recovery,
    /// Delayed ACKs: ACK every second segment or after this timeout; None = ACK every segment.
    pub delayed_ack: Option<Time>,
    /// Size of a data segment on the wire (sequence numbers count segments).
    pub mss_bytes: u32,
    pub ack_bytes: u32,
    pub min_rto: Time,
    /// How the RTO follows from the RTT samples (RFC 6298 or Linux's rule).
    pub rto_rule: RtoRule,
    pub max_rto: Time,
    pub initial_rto: Time,
    /// SACK recovery: find a lost retransmission as Linux's RACK does (a later-sent segment
    /// was delivered) and send it again, instead of waiting for the RTO (tcp/rack.rs).
    pub rack_lost_retransmit: bool,
    /// Linux's receiver (scenario `delayed_ack = "linux"`): it ACKs a lone pushed segment
    /// when the application reads it, if that empties the receive memory (tcp/receiver.rs).
    /// Pair it with `delayed_ack = Some(LINUX_DELAYED_ACK)`; PSH comes from
    /// `linux_send_buffer`.
    pub linux_receiver: bool,
    /// With `linux_receiver`, for a subflow: its read-time ACK needs only the application's
    /// readable data to be gone, not the connection's out-of-order data (the kernel change
    /// proposed in docs/kernel.md; scenario `delayed_ack = "linux-proposed"`).
    pub subflow_read_alone: bool,
    /// With `linux_receiver`: the application reads only once this many in-order segments
    /// wait (SO_RCVLOWAT; scenario `receive_lowat`), so a lone pushed segment is ACKed at
    /// its read only when it completes that much. 0 or 1: every segment is read at once.
    pub read_lowat_segments: u32,
    /// Linux's send buffer (scenario `send_buffer = "linux"`; tcp/send_buffer.rs): the
    /// application's writes end with PSH, and an MPTCP subflow's buffer holds connection
    /// data ahead of sending.
    pub linux_send_buffer: bool,
    /// With `linux_send_buffer`: also Linux's next-ACK rule for a partial skb as the
    /// October 2025 kernels have it (scenario `send_buffer = "linux-6.18"`;
    /// `SendBuffer::with_linux_6_18`).
    pub linux_6_18: bool,
    pub traffic: TcpTraffic,
    pub start: Time,
    /// No new data is sent after this time (outstanding data is still recovered).
    pub stop: Option<Time>,
    /// Keep a per-packet delay log (`Simulation::delay_log`); costs memory per packet.
    pub log_delays: bool,
}

impl TcpFlowConfig {
    /// A bulk Reno flow with NewReno recovery, per-segment ACKs, 1500 B segments, 40 B
    /// ACKs, RTO min 200 ms (Linux) / initial 1 s / max 60 s (RFC 6298), starting at 0.
    pub fn new(fwd: Vec<ElementId>, rev: Vec<ElementId>) -> Self {
        TcpFlowConfig {
            fwd,
            rev,
            cc: Algorithm::Reno,
            cc_config: CcConfig::default(),
            recovery: Recovery::NewReno,
            delayed_ack: None,
            mss_bytes: 1500,
            ack_bytes: 40,
            min_rto: millis(200),
            rto_rule: RtoRule::Rfc6298,
            max_rto: secs(60),
            initial_rto: secs(1),
            rack_lost_retransmit: false,
            linux_receiver: false,
            subflow_read_alone: false,
            read_lowat_segments: 0,
            linux_send_buffer: false,
            linux_6_18: false,
            traffic: TcpTraffic::Bulk,
            start: 0,
            stop: None,
            log_delays: false,
        }
    }

    /// Default delayed-ACK timeout when delayed ACKs are switched on (RFC 5681 allows up to
    /// 500 ms; 200 ms is the classic BSD value).
    pub const DEFAULT_DELAYED_ACK: Time = millis(200);

    /// Linux's delayed-ACK timeout for a bulk receiver: TCP_ATO_MIN, 40 ms (include/net/tcp.h;
    /// `ss -ti` shows `ato:40` on the testbed's receivers).
    pub const LINUX_DELAYED_ACK: Time = millis(40);

    pub fn validate(&self) -> Result<(), String> {
        if self.fwd.is_empty() {
            return Err("tcp flow fwd route must name at least one element".into());
        }
        if self.mss_bytes == 0 {
            return Err("tcp flow mss_bytes must be > 0".into());
        }
        if self.ack_bytes == 0 {
            return Err("tcp flow ack_bytes must be > 0".into());
        }
        if self.min_rto == 0 || self.min_rto > self.max_rto {
            return Err(format!("tcp flow min_rto must be > 0 and <= max_rto ({} ps), got {} ps", self.max_rto, self.min_rto));
        }
        if self.initial_rto == 0 {
            return Err("tcp flow initial_rto must be > 0".into());
        }
        if let Some(stop) = self.stop {
            if stop < self.start {
                return Err(format!("tcp flow stop ({stop} ps) is before start ({} ps)", self.start));
            }
        }
        match self.traffic {
            TcpTraffic::RateLimited { bps: 0 } => Err("tcp flow rate-limited traffic needs bps > 0".into()),
            TcpTraffic::Bytes(0) => Err("tcp flow transfer size must be > 0 bytes".into()),
            _ => Ok(()),
        }
    }
}
