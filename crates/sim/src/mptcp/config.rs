//! Configuration of one MPTCP connection.

use pathpool_cc::Algorithm;

use crate::tcp::TcpFlowConfig;
use crate::ElementId;

/// At most this many subflows: MP_GROUP's decision and the SBD grouping of S0 handle 8.
pub const MAX_SUBFLOWS: usize = 8;

/// Which subflow gets the next segment of connection data when several have window room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheduler {
    /// The subflow with the smallest smoothed RTT (the Linux MPTCP default scheduler);
    /// subflows without an RTT sample yet come first, in index order.
    LowestRtt,
    /// Subflows in turn.
    RoundRobin,
}

/// How the connection's windows are coupled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MultipathCc {
    /// One algorithm over all subflows (uncoupled Reno/CUBIC, LIA, OLIA, BALIA, wVegas, ...).
    Coupled(Algorithm),
    /// MPTCP-SBD (S0 §III): OLIA over the subflows the receiver's SBD decision puts in
    /// x's bottleneck group, Reno for a subflow alone (algorithms.md §7.5).
    MptcpSbd(SbdPolicy),
    /// TR-LIA (S2 §5.2): per-path Reno until the sender's trend-line detector says the
    /// subflows share a bottleneck, LIA over all while it does, uncoupled again after
    /// `hold` without a positive (algorithms.md §8.5).
    TrLia { hold: crate::Time },
}

/// MPTCP-SBD policy flags (algorithms.md §11 items 21 and 35).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SbdPolicy {
    /// Non-congested subflows (group 99) and subflows without decision data join every
    /// coupling set (the public code); false: they run alone.
    pub couple_non_congested: bool,
    /// Floor of ssthresh for every subflow, also one running Reno alone (the code: 1).
    pub min_ssthresh: f64,
    pub feedback: SbdFeedback,
    /// The receiver takes at most one OWD sample per subflow in each slot of this length
    /// (slots counted from the connection start; losses always count); 0 takes every
    /// sample. The public code's default is 5 ms (algorithms.md §7.3, "sample thinning").
    pub sample_spacing: crate::Time,
    /// The coupled controller within a detected group: OLIA (S0's MPTCP-SBD) or LIA (S2's
    /// SSC-LIA, §5.2).
    pub coupled: Algorithm,
    /// The receiver's detector also splits groups whose subflows' interval mean delays
    /// correlate less than this (`pathpool_sbd::correlation`, an extension, not S0's); None:
    /// off, as in S0.
    pub corr_min: Option<f64>,
    /// The receiver's detector restarts the memory of subflows whose bottleneck changed
    /// (`pathpool_sbd::change`, an extension, not S0's; the `pathpool` detector preset).
    pub change_detect: bool,
    /// The receiver's detector starts from RFC 8382's parameters (`SbdParams::rfc8382`)
    /// instead of [S0]'s.
    pub rfc8382: bool,
    /// What the receiver reports: its decisions, or a lie (S0 §VII's open question).
    pub report: ReceiverReport,
    /// The sender checks the receiver's decisions against a detector of its own on RTT
    /// samples and couples what either says is shared (`verify`; docs/security.md).
    pub verify: bool,
    /// When the sender's coupling sets take up a change in what the check allows
    /// (`verify_follow`; docs/security.md, "When the coupling follows the check").
    pub verify_follow: VerifyFollow,
    /// Until when a checking sender keeps a pair of subflows coupled at the start
    /// (`verify_start`; docs/security.md, "Until the check has judged").
    pub verify_start: VerifyStart,
    /// The receiver reports which pairs of subflows share a bottleneck and the sender couples
    /// per bottleneck group (`cc = "mptcp-sbd-pairwise"`; `super::pairwise`).
    pub pairwise: bool,
}

/// When a checking sender (`SbdPolicy::verify`) computes its coupling sets again. What the
/// check allows (`Verifier::shared`) changes at each 350 ms interval of its comparison test
/// (evidence of sharing, its hold, evidence of two bottlenecks) as well as at its own
/// decisions (docs/security.md, "When the coupling follows the check").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerifyFollow {
    /// At the sender's own decisions (every 3.5 s) and at each new report from the receiver.
    Decisions,
    /// Also at the end of every interval at which the check's answer for some pair changed.
    Intervals,
    /// Also at the end of every interval at which the check newly couples some pair; then the
    /// sets only grow by the pairs the check couples, and drop pairs only at a decision or
    /// report, as with `Decisions`.
    Rises,
}

/// Until when a checking sender (`SbdPolicy::verify`) keeps a pair of subflows coupled at
/// the connection's start, whatever the receiver reports. Until its own detector and test
/// have looked, the sender cannot tell a receiver that lies "apart" on one bottleneck from an
/// honest one on two; a window a liar gains there lasts the whole run where the RTT is long
/// (docs/security.md, "Until the check has judged").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerifyStart {
    /// Until the sender's own second decision (7 s).
    Decisions,
    /// Also until the comparison test has judged the pair: evidence of sharing, evidence of
    /// two bottlenecks, or a whole memory of windows after both subflows' slow starts (35 s)
    /// without either.
    Evidence,
}

/// A receiver's MP_GROUP reports. In MPTCP-SBD the receiver decides which subflows the sender
/// couples; one that claims its subflows are apart makes the sender run uncoupled Reno on
/// each and take more than TCP's share where they share a bottleneck (S0 §VII).
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

/// What the sender does with the receiver's decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SbdFeedback {
    /// Couple as the decisions say (S0).
    Decisions,
    /// Open loop, for studying the detector: OLIA over all subflows whatever the decisions.
    FixedOlia,
    /// Open loop: Reno on every subflow whatever the decisions.
    FixedReno,
    /// S2 §5.2's harness (algorithms.md §8.5): uncoupled at first; a decision that groups
    /// subflows couples all of them, until `hold` passes without another such decision.
    Switch { hold: crate::Time },
}

impl Default for SbdPolicy {
    fn default() -> Self {
        SbdPolicy { couple_non_congested: true, min_ssthresh: 1.0, feedback: SbdFeedback::Decisions, sample_spacing: crate::time::millis(5), coupled: Algorithm::Olia, corr_min: None, change_detect: false, rfc8382: false, report: ReceiverReport::Honest, verify: false, verify_follow: VerifyFollow::Decisions, verify_start: VerifyStart::Decisions, pairwise: false }
    }
}

/// One subflow: its own forward and reverse routes (element lists, as for a TCP flow).
#[derive(Clone, Debug, PartialEq)]
pub struct SubflowRoute {
    pub fwd: Vec<ElementId>,
    pub rev: Vec<ElementId>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MptcpConfig {
    pub subflows: Vec<SubflowRoute>,
    pub cc: MultipathCc,
    pub scheduler: Scheduler,
    /// Connection-level receive buffer in segments: the sender keeps data sequence numbers
    /// below (data ACK + this). `None`: unlimited. S0 used 2 x sum of bandwidths x largest
    /// RTT.
    pub receive_buffer: Option<u64>,
    /// Everything else of a subflow (segment size, recovery, RTO, initial window, cc
    /// parameters, start and stop) is taken from here; its routes, `cc` and `traffic`
    /// are ignored (the connection is bulk).
    pub tcp: TcpFlowConfig,
}

impl MptcpConfig {
    pub fn new(subflows: Vec<SubflowRoute>, cc: MultipathCc) -> Self {
        let tcp = TcpFlowConfig::new(Vec::new(), Vec::new());
        MptcpConfig { subflows, cc, scheduler: Scheduler::LowestRtt, receive_buffer: None, tcp }
    }

    pub fn validate(&self) -> Result<(), String> {
        let n = self.subflows.len();
        if n == 0 {
            return Err("mptcp connection needs at least one subflow".into());
        }
        if n > MAX_SUBFLOWS {
            return Err(format!("mptcp connection has {n} subflows, at most {MAX_SUBFLOWS} are supported"));
        }
        if let Some(i) = self.subflows.iter().position(|s| s.fwd.is_empty()) {
            return Err(format!("mptcp subflow {i}: forward route must name at least one element"));
        }
        if self.receive_buffer == Some(0) {
            return Err("mptcp receive_buffer must be > 0 segments".into());
        }
        if matches!(self.cc, MultipathCc::MptcpSbd(_) | MultipathCc::TrLia { .. }) && n < 2 {
            return Err("mptcp cc: a shared-bottleneck detector needs at least two subflows".into());
        }
        if let MultipathCc::MptcpSbd(p) = self.cc {
            if !(p.min_ssthresh >= 1.0 && p.min_ssthresh.is_finite()) {
                return Err(format!("mptcp-sbd min_ssthresh must be >= 1, got {}", p.min_ssthresh));
            }
        }
        let mut tcp = self.tcp.clone();
        tcp.fwd = self.subflows[0].fwd.clone();
        tcp.validate()
    }
}
