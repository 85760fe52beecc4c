//! `simulation.hosts`: the behaviour of the end hosts, in one key. "linux-6.18" (the default)
//! is the model the fidelity suite holds against real Linux (docs/fidelity.md): every TCP
//! flow and MPTCP subflow takes Linux's RTO rule, SACK with RACK for a lost retransmission,
//! a host's per-packet send jitter, Linux 6.18's send buffer and transmissions, Linux's
//! delayed ACKs, Linux's ssthresh floor of 2 segments, and (for CUBIC) Linux's CUBIC; each
//! receiving host's latency is unknown to within one packet time at the bottleneck. "ideal"
//! is the idealised host of packet simulators such as htsim and ns-3's defaults: NewReno, an
//! ACK per segment, RFC 6298's RTO, no jitter, every segment sent the moment the window
//! allows, each algorithm's own ssthresh floor. A flow's own keys
//! (`recovery`, `delayed_ack`, ...) override what the model sets.

use crate::error::Result;
use crate::fields::Fields;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostModel {
    Ideal,
    Linux618,
}

pub const HOST_MODELS: &[&str] = &["linux-6.18", "ideal"];

/// The send jitter the fidelity suite measured as a Linux host's (docs/fidelity-notes.md, "Send
/// jitter"): each data packet waits uniform [0, 350 µs) before it enters the network.
const LINUX_SEND_JITTER_PS: u64 = 350_000_000;

/// Linux's ssthresh floor, in segments (`tcp_reno_ssthresh`: max(cwnd / 2, 2)).
const LINUX_MIN_SSTHRESH: f64 = 2.0;

impl HostModel {
    pub const DEFAULT: HostModel = HostModel::Linux618;

    pub fn decode(f: &Fields) -> Result<HostModel> {
        Ok(match f.choice("hosts", HOST_MODELS)?.as_ref().map(|c| c.value.as_str()) {
            Some("ideal") => HostModel::Ideal,
            _ => HostModel::DEFAULT,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            HostModel::Ideal => "ideal",
            HostModel::Linux618 => "linux-6.18",
        }
    }

    pub fn linux(self) -> bool {
        self == HostModel::Linux618
    }

    /// `recovery`'s default: Linux negotiates SACK.
    pub fn sack(self) -> bool {
        self.linux()
    }

    /// `delayed_ack`'s default: (delayed ACKs, Linux's receiver).
    pub fn delayed_ack(self) -> (bool, bool) {
        (self.linux(), self.linux())
    }

    /// `rto`'s default.
    pub fn rto(self) -> pathpool_cc::RtoRule {
        if self.linux() {
            pathpool_cc::RtoRule::Linux
        } else {
            pathpool_cc::RtoRule::Rfc6298
        }
    }

    /// `lost_retransmit`'s default: RACK where the flow has a SACK scoreboard to read.
    pub fn rack(self, sack: bool) -> bool {
        self.linux() && sack
    }

    /// `send_jitter`'s default, in picoseconds.
    pub fn send_jitter(self) -> u64 {
        if self.linux() {
            LINUX_SEND_JITTER_PS
        } else {
            0
        }
    }

    /// `send_buffer`'s default: (Linux's send buffer, 6.18's transmissions).
    pub fn send_buffer(self) -> (bool, bool) {
        (self.linux(), self.linux())
    }

    /// `min_ssthresh`'s default, in segments: Linux floors ssthresh at 2 segments whatever the
    /// controller (`tcp_reno_ssthresh`, CUBIC's `bictcp_recalc_ssthresh`, the out-of-tree
    /// `mptcp_olia`), and so do the testbed's kernel controllers (docs/kernel.md, "Why the
    /// floor is 2 segments"); idealised hosts keep each algorithm's own floor (1 segment for a
    /// coupled subflow: OLIA-05 §3, BALIA-04 §2, S0 Remark 1).
    pub fn min_ssthresh(self) -> Option<f64> {
        self.linux().then_some(LINUX_MIN_SSTHRESH)
    }

    /// `cubic_rules`' default for a CUBIC flow.
    pub fn cubic_rules(self) -> pathpool_cc::CubicRules {
        if self.linux() {
            pathpool_cc::CubicRules::Linux
        } else {
            pathpool_cc::CubicRules::Rfc9438
        }
    }

    /// `simulation.host_latency`'s default for a host: one packet time of `packet_bytes` at
    /// `bottleneck_bps` under Linux hosts (the receiving host's latency is unknown to within
    /// that: docs/fidelity-notes.md, "Phase: the hosts' latency"), none for ideal hosts.
    pub(crate) fn host_latency(self, packet_bytes: u64, bottleneck_bps: u64) -> u64 {
        if !self.linux() || bottleneck_bps == 0 {
            return 0;
        }
        let ps = packet_bytes as u128 * 8 * crate::units::PS_PER_SEC as u128 / bottleneck_bps as u128;
        ps.min(u64::MAX as u128) as u64
    }
}
