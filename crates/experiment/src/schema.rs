//! The scenario as decoded from its file: every value checked and in base units
//! (picoseconds, bits per second, bytes). `docs/scenarios.md` documents the file format.

use crate::fields::Located;

#[derive(Clone, Debug)]
pub struct Scenario {
    pub simulation: SimulationSpec,
    /// In file order.
    pub links: Vec<LinkSpec>,
    /// In file order.
    pub flows: Vec<FlowSpec>,
    /// `[fidelity]`: what the fidelity suite reads from the runs; no backend uses it.
    pub fidelity: Option<crate::fidelity::FidelitySpec>,
}

#[derive(Clone, Debug)]
pub struct SimulationSpec {
    pub duration: u64,
    /// Statistics in the summary cover [warmup, duration).
    pub warmup: u64,
    pub seed: u64,
    /// The seed was chosen (`seed` in the file or by `--set`/`--seed`), not the default.
    pub seed_given: bool,
    pub probe_interval: u64,
    /// Where probe_interval was set (or the [simulation] table), for `limits`' message.
    pub probe_interval_at: Located<u64>,
    /// The link whose forward direction the summary's `bottleneck_*` keys describe.
    pub bottleneck: Option<Located<String>>,
    /// Simulator only: each receiving host's processing latency is one constant per run,
    /// uniform in [0, this), added to every ACK it sends (`host_latency`, docs/fidelity.md);
    /// 0 = none. None: the host model's (`host_model::HostModel::host_latency`, one packet
    /// time at the narrowest link into each host under Linux hosts).
    pub host_latency: Option<u64>,
    /// `hosts`: the end hosts' behaviour every TCP flow and subflow defaults to.
    pub hosts: crate::host_model::HostModel,
}

/// A link template: one link, or `count` copies whose names and node names have `{i}`
/// replaced by the copy's index.
#[derive(Clone, Debug)]
pub struct LinkSpec {
    pub name: Located<String>,
    pub count: Option<u32>,
    pub from: Located<String>,
    pub to: Located<String>,
    pub forward: DirectionSpec,
    /// The `to -> from` direction; `None` for a one-way link.
    pub reverse: Option<DirectionSpec>,
}

/// One direction of a link: a queue served at `rate_bps`, then `delay` of propagation.
#[derive(Clone, Debug, PartialEq)]
pub struct DirectionSpec {
    pub rate_bps: u64,
    pub delay: u64,
    pub buffer: Located<Buffer>,
    pub queue: QueueSpec,
    /// Independent random loss probability applied after the queue.
    pub loss: f64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Buffer {
    Packets(u64),
    Bytes(u64),
}

#[derive(Clone, Debug, PartialEq)]
pub enum QueueSpec {
    DropTail,
    /// Floyd and Jacobson's RED on the average queue in packets; `gentle` ramps the drop
    /// probability from max_p to 1 between max_threshold and twice it.
    Red { min_threshold: f64, max_threshold: f64, max_p: f64, weight: f64, gentle: bool },
    /// Drop-tail, plus a drop with `probability` for an arrival that finds the queue within
    /// `slots` packets of full (S1's queue used 3 slots and 1/3).
    RandomTailDrop { slots: u32, probability: f64 },
}

/// A flow template: one flow, or `count` identical copies (`{i}` in route node names is
/// replaced by the copy's index).
#[derive(Clone, Debug)]
pub struct FlowSpec {
    pub name: Located<String>,
    pub count: Option<u32>,
    /// Node names from sender to receiver.
    pub route: Located<Vec<String>>,
    /// Node names from receiver to sender; by default the route reversed.
    pub reverse_route: Option<Located<Vec<String>>>,
    pub start: u64,
    /// Copy i starts at `start + i * start_spacing`.
    pub start_spacing: u64,
    pub stop: Option<u64>,
    pub kind: FlowKind,
}

#[derive(Clone, Debug)]
pub enum FlowKind {
    Tcp(TcpSpec),
    Udp(UdpSpec),
    Mptcp(MptcpSpec),
}

/// A multipath TCP connection: one subflow per route, all bulk data of one connection.
#[derive(Clone, Debug)]
pub struct MptcpSpec {
    /// Segment size, ACK size, recovery, initial window and min RTO of every subflow
    /// (its `cc` and `traffic` are unused).
    pub tcp: TcpSpec,
    /// Node names from sender to receiver, one list per subflow.
    pub subflows: Vec<Located<Vec<String>>>,
    pub cc: Located<String>,
    pub scheduler: Scheduler,
    /// Connection-level receive buffer in packets (None: unlimited).
    pub receive_buffer: Option<u64>,
    /// `sbd_feedback`: what an MPTCP-SBD sender does with the decisions (None: key absent,
    /// the decisions drive the coupling).
    pub sbd_feedback: Option<Located<SbdFeedback>>,
    /// `sbd_sample_spacing` in picoseconds (None: the MPTCP-SBD default).
    pub sbd_sample_spacing: Option<Located<u64>>,
    /// `sbd_corr_min`: the receiver's detector also splits groups whose subflows' interval
    /// means correlate less than this (an extension, not S0's; None: off).
    pub sbd_corr_min: Option<Located<f64>>,
    /// `sbd_detector`: the receiver's detector preset, "mptcp-sbd" ([S0]) or "pathpool" (with
    /// the correlation split and the change detector; docs/sbd.md). None: "mptcp-sbd".
    pub sbd_detector: Option<Located<String>>,
    /// `sbd_receiver`: what the receiver reports, its decisions or a lie (docs/security.md).
    pub sbd_receiver: Option<Located<ReceiverReport>>,
    /// `sbd_verify`: the sender checks the decisions with a detector of its own.
    pub sbd_verify: Option<Located<bool>>,
    /// `sbd_verify_follow`: when the sender's coupling sets take up a change in what its check
    /// allows, "decisions", "intervals" or "rises" (None: "decisions"; docs/security.md).
    pub sbd_verify_follow: Option<Located<String>>,
    /// `sbd_verify_start`: until when the checking sender keeps pairs coupled at the start,
    /// "decisions" or "evidence" (None: the default; docs/security.md).
    pub sbd_verify_start: Option<Located<String>>,
}

#[derive(Clone, Debug)]
pub struct TcpSpec {
    pub cc: pathpool_cc::Algorithm,
    /// RFC 9438's CUBIC (the default) or Linux's (`cubic_rules = "linux"`, docs/fidelity.md).
    pub cubic_rules: pathpool_cc::CubicRules,
    pub recovery: Recovery,
    pub delayed_ack: bool,
    /// `delayed_ack = "linux"`: Linux's receiver, its 40 ms timer and its read-time ACK of a
    /// pushed segment (docs/fidelity-notes.md, MPTCP).
    pub linux_receiver: bool,
    /// `delayed_ack = "linux-proposed"`: Linux's receiver with the kernel change proposed in
    /// docs/kernel.md ("For the kernel's maintainers"): a subflow's read-time ACK needs only
    /// what the application can read to be empty, not the connection's out-of-order data. No
    /// kernel has it: the testbed emulates it on MPTCP flows with the receiver fix's `read-ack`
    /// programs (`pathpool kernel receiver on --mode read-ack`).
    pub subflow_read_alone: bool,
    /// `delayed_ack = "linux-delack-max"` (MPTCP only): Linux's receiver with the subflows'
    /// delayed-ACK timer capped at 2 jiffies by the receiver fix's sock_ops program
    /// (`pathpool kernel receiver on --mode delack-max`; docs/kernel.md, "The receiver fix").
    pub delack_max: bool,
    /// Data packet size on the wire.
    pub packet_size: u64,
    pub ack_size: u64,
    pub initial_window: f64,
    /// Floor of ssthresh after a decrease, in segments (`min_ssthresh`); None keeps each
    /// algorithm's own (pathpool_cc::MinSsthresh::Auto, MPTCP-SBD's 1 segment).
    pub min_ssthresh: Option<f64>,
    pub min_rto: u64,
    /// RFC 6298's RTO (the default) or Linux's (`rto = "linux"`, docs/fidelity.md).
    pub rto: pathpool_cc::RtoRule,
    /// SACK recovery finds a lost retransmission as Linux's RACK does instead of waiting for
    /// the RTO (`lost_retransmit = "rack"`, docs/fidelity.md).
    pub rack_lost_retransmit: bool,
    /// Simulator only: each data packet waits a uniform random time in [0, this) before it
    /// enters the network, in order (`send_jitter`, docs/fidelity.md); 0 = none.
    pub send_jitter: u64,
    /// `send_buffer = "linux"`: Linux's send buffer, filled by the application's writes,
    /// each ending with PSH (docs/fidelity-notes.md, MPTCP); simulator only.
    pub linux_send_buffer: bool,
    /// `send_buffer = "linux-6.18"`: each transmission cut as Linux 6.18's `tcp_write_xmit`
    /// cuts it (docs/fidelity-notes.md, "A partial skb and the next ACK: Linux 6.18's
    /// transmissions").
    pub linux_6_18: bool,
    /// SO_RCVLOWAT on a TCP flow's receiving socket, so the application reads (and Linux
    /// sends its read-time ACKs) only once this many bytes wait (`receive_lowat`,
    /// docs/fidelity.md); the simulator models it with `delayed_ack = "linux"`.
    pub receive_lowat: Option<u64>,
    pub traffic: TcpTraffic,
    /// A competing TCP flow the MPTCP metrics compare with (`tcp_mbps`, `sum_ratio`).
    pub competitor: bool,
    /// Keep per-packet one-way delays and RTT samples (written as owd.csv and rtt.csv).
    pub log_delays: bool,
}

#[derive(Clone, Debug)]
pub struct UdpSpec {
    pub packet_size: u64,
    pub pattern: UdpPattern,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum UdpPattern {
    Constant { rate_bps: u64 },
    Poisson { rate_bps: u64 },
    /// Pareto-distributed on periods at `rate_bps`, exponential off periods.
    OnOff { rate_bps: u64, mean_on: u64, mean_off: u64, pareto_shape: f64 },
}

/// Loss recovery after three duplicate ACKs (`recovery`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recovery {
    /// RFC 6582, cumulative ACKs only (the receiver sends no SACK blocks).
    NewReno,
    /// RFC 6675 with SACK blocks from the receiver (RFC 2018).
    Sack,
}

/// What the sending application offers (`traffic`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TcpTraffic {
    /// Always has data.
    Bulk,
    /// Produces data at `bps` (wire bits of data segments per second) from the start time.
    RateLimited { bps: u64 },
    /// A transfer of this many bytes (rounded up to whole segments).
    Bytes(u64),
}

/// Which subflow gets the next segment of connection data when several have window room
/// (`scheduler`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheduler {
    /// The subflow with the smallest smoothed RTT (the Linux MPTCP default scheduler).
    LowestRtt,
    /// Subflows in turn.
    RoundRobin,
}

/// What an MPTCP-SBD sender does with the receiver's decisions (`sbd_feedback`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SbdFeedback {
    /// Couple as the decisions say (S0).
    Decisions,
    /// Open loop, for studying the detector: OLIA over all subflows whatever the decisions.
    FixedOlia,
    /// Open loop: Reno on every subflow whatever the decisions.
    FixedReno,
    /// S2 §5.2's harness (algorithms.md §8.5): uncoupled at first; a decision that groups
    /// subflows couples all of them, until `hold` (picoseconds) passes without another.
    Switch { hold: u64 },
}

/// What an MPTCP-SBD receiver reports (`sbd_receiver`; docs/security.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReceiverReport {
    /// Its detector's decisions.
    Honest,
    /// Every subflow in a bottleneck group of its own, whatever was detected.
    Separate,
    /// Every decision, each subflow in a group drawn at random from 1..=n.
    Random,
    /// Decisions alternate between all subflows together and every subflow apart.
    Flapping,
}
