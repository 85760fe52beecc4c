//! The sender's check of a receiver's MPTCP-SBD decisions (docs/security.md).
//!
//! In MPTCP-SBD the receiver decides which subflows the sender couples, so a receiver that
//! lies ("nothing is shared") makes the sender run uncoupled on a shared bottleneck (S0 §VII
//! leaves this open; RFC 8382 §1 says SBD may only advise coupling). The sender sees the
//! same queues on its own ACK clock: the RTT of a subflow is its one-way delay plus a return
//! path, so RFC 8382's statistics on RTT samples find the same shared bottlenecks where the
//! return paths are not congested. The check runs that detector (S0's parameters with the
//! delay-correlation split, which keeps separate bottlenecks apart: docs/sbd.md) and lets
//! the receiver's decisions only loosen coupling where the sender's own agree: two subflows
//! are coupled when either side puts them in one congested group, or the sender finds one
//! of them not congested. A pair the sender found
//! shared stays coupled until two of its decisions in a row find it apart, so a receiver that
//! flaps between "shared" and "apart" cannot use the sender's occasional wrong decision.
//! Samples whose ACK the receiver may have delayed are left out (`super::ack_delay`).

use pathpool_sbd::{FilterParams, FilteredDetector, Rfc8382Detector, SbdParams, CORR_MIN};

use super::ack_delay::DelayedAckFilter;
use super::receiver::{GroupingRecord, SampleThinning};
use super::sender::AckShape;
use crate::time::{to_nanos, Time};

pub(crate) struct Verifier {
    /// The detector and S0's decision filter (no change test here: no restarts).
    sbd: FilteredDetector<Rfc8382Detector>,
    /// The sender's own last two decisions, a group per subflow (0: not congested); None
    /// before the first.
    groups: Option<Vec<u32>>,
    previous: Option<Vec<u32>>,
    /// One sample per subflow per slot, as at the receiver.
    thinning: SampleThinning,
    /// Leaves out the samples that may include the receiver's delayed-ACK wait.
    delayed_acks: DelayedAckFilter,
    /// The sender's own observations and decisions, for the run's outputs
    /// (sender_observations.csv, sender_decisions.csv): what the check saw beside what the
    /// receiver claimed.
    pub observations: Vec<GroupingRecord>,
    pub decisions: Vec<GroupingRecord>,
}

impl Verifier {
    pub fn new(n: usize, spacing: Time) -> Self {
        let params = SbdParams { corr_split: true, corr_min: CORR_MIN, ..SbdParams::mptcp_sbd() };
        Verifier {
            sbd: FilteredDetector::new(Rfc8382Detector::new(params, n), FilterParams::default()),
            groups: None,
            previous: None,
            thinning: SampleThinning::new(n, spacing),
            delayed_acks: DelayedAckFilter::new(n),
            observations: Vec::new(),
            decisions: Vec::new(),
        }
    }

    /// An RTT sample of subflow `sf` at `since_start`, on an ACK of shape `acked`; true when
    /// a new decision was made.
    pub fn on_rtt(&mut self, sf: usize, since_start: Time, rtt: Time, acked: AckShape) -> bool {
        let decided = self.poll(since_start);
        let now_ns = to_nanos(since_start);
        // A sample that may hold the receiver's delayed-ACK wait counts as a packet without
        // one, as a thinned sample does.
        if self.delayed_acks.usable(sf, acked.segments, acked.in_order) && self.thinning.take(sf, since_start) {
            self.sbd.on_delay(sf, now_ns, to_nanos(rtt) as i64);
        } else {
            self.sbd.on_unsampled(sf, now_ns);
        }
        decided
    }

    /// A segment of subflow `sf` was retransmitted (a loss, as RFC 8382's pkt_loss counts).
    pub fn on_loss(&mut self, sf: usize, since_start: Time) {
        self.sbd.on_loss(sf, to_nanos(since_start));
    }

    fn poll(&mut self, since_start: Time) -> bool {
        let mut decided = false;
        while let Some(step) = self.sbd.poll(to_nanos(since_start)) {
            self.observations.push(GroupingRecord { time: since_start, groups: self.sbd.observation().groups.clone() });
            if step.decided {
                let d = self.sbd.decision();
                self.previous = self.groups.replace(d.groups.clone());
                self.decisions.push(GroupingRecord { time: since_start, groups: d.groups.clone() });
                decided = true;
            }
        }
        decided
    }

    /// Must subflows `x` and `y` stay coupled by one of the sender's last two decisions? Only
    /// two subflows the sender found congested in different groups may run apart. One it found
    /// not congested is coupled with every other, as S0's sender couples a subflow the
    /// receiver reports not congested (group 99; [S0] §III-B, K-SBD's coupling set,
    /// algorithms.md §7.5): it may join a group at any time. Without this a receiver could
    /// split whatever the sender's detector does not see congested (a short or RED queue,
    /// whose skew reads positive), where an honest receiver's "not congested" couples.
    pub fn shared(&self, x: usize, y: usize) -> bool {
        let shared_in = |d: &Option<Vec<u32>>| d.as_ref().is_some_and(|g| g[x] == 0 || g[y] == 0 || g[x] == g[y]);
        shared_in(&self.groups) || shared_in(&self.previous)
    }
}
