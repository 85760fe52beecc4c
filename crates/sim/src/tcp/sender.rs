//! TCP sender (segment-numbered): window-limited transmission, NewReno (RFC 6582) or SACK
//! (RFC 6675) loss recovery, and an RFC 6298 retransmission timer.
//!
//! The sender does not own its congestion controller: it names it by (connection, subflow
//! index) and borrows it per call, so a multipath connection can drive several senders
//! with one coupled `pathpool_cc::Controller`. The sender owns the path's RTT estimator
//! (RTO); the controller reads its SRTT (`set_srtt`) and gets each Karn-valid sample with
//! the ACK for the algorithms' own use (wVegas' base RTT).

use pathpool_cc::{whole_segments, AckInfo, Controller, RttEstimator, Signal};

use crate::ctx::Ctx;
use crate::event::EventKind;
use crate::packet::{Packet, PacketId, PacketKind, FLAG_ECHO_VALID, FLAG_MP_TIMESTAMP, FLAG_PUSH, FLAG_RETRANSMIT};
use crate::time::{to_nanos, Time, PS_PER_SEC};

use super::config::{Recovery, TcpFlowConfig, TcpTraffic};
use super::FlowOwner;
use super::rack::LostRetransmits;
use super::send_buffer::SendBuffer;
use super::seqset::SeqSet;
use super::timer::LazyTimer;

/// RFC 5681 §3.2 / RFC 6675 DupThresh.
const DUP_THRESH: u32 = 3;

/// Cumulative sender counters.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SenderCounters {
    pub sent_packets: u64,
    pub retransmissions: u64,
    pub fast_retransmits: u64,
    pub timeouts: u64,
    /// Longest run of timeouts without progress (each one doubles the RTO).
    pub max_consecutive_timeouts: u32,
    pub acks_received: u64,
    /// Integral of cwnd (segments) over time (ps), for the time-average window.
    pub cwnd_area: f64,
    pub cwnd_last_change: Time,
    /// When a `Bytes` transfer was fully acknowledged.
    pub completed_at: Option<Time>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Open,
    /// Fast retransmit / fast recovery until the ACK reaches `recover`.
    FastRecovery,
    /// After a timeout with SACK: every un-SACKed segment below `recover` counts as lost.
    RtoRecovery,
}

/// What NextSeg (RFC 6675 §4) picked.
enum Next {
    /// A retransmission found lost (`lost_retransmit = "rack"`), sent again.
    Again(u64),
    Retransmit(u64),
    New(u64),
    Rescue(u64),
}

pub struct TcpSender {
    flow: u32,
    route: u32,
    /// Which controller and which of its subflows this sender is.
    pub conn: u32,
    pub subflow: usize,
    mss_bytes: u32,
    sack: bool,
    traffic: TcpTraffic,
    start: Time,
    /// Segments the application will ever offer (u64::MAX: unbounded).
    total_segments: u64,
    active: bool,
    snd_una: u64,
    /// Next segment to send; below `high_sent` only after a NewReno timeout (go-back-N).
    snd_nxt: u64,
    /// One past the highest segment ever sent.
    high_sent: u64,
    dupacks: u32,
    phase: Phase,
    /// RFC 6582 `recover` / RFC 6675 RecoveryPoint, exclusive (one past the last segment).
    recover: u64,
    recover_set: bool,
    /// NewReno dupACK inflation added to the controller's cwnd during fast recovery.
    inflation: f64,
    partial_ack_seen: bool,
    scoreboard: SeqSet,
    /// One past HighRxt: segments below it were retransmitted in this recovery.
    rxt_next: u64,
    rescue_done: bool,
    /// `lost_retransmit = "rack"` (SACK only): lost retransmissions found before the RTO.
    rack: Option<Box<LostRetransmits>>,
    /// Linux's send buffer (`TcpFlowConfig::linux_send_buffer`): its writes set PSH, and a
    /// subflow's holds connection data ahead of sending.
    send_buffer: Option<Box<SendBuffer>>,
    rtt: RttEstimator,
    rto_timer: LazyTimer,
    wake_pending: bool,
    consecutive_timeouts: u32,
    round_end: u64,
    cwnd_limited: bool,
    last_cwnd: f64,
    pub counters: SenderCounters,
    pub(crate) rtt_log: Option<Vec<super::RttSample>>,
}

impl TcpSender {
    pub fn new(flow: u32, route: u32, conn: u32, subflow: usize, cfg: &TcpFlowConfig) -> Self {
        let total_segments = match cfg.traffic {
            TcpTraffic::Bytes(n) => n.div_ceil(cfg.mss_bytes as u64),
            _ => u64::MAX,
        };
        TcpSender {
            flow,
            route,
            conn,
            subflow,
            mss_bytes: cfg.mss_bytes,
            sack: cfg.recovery == Recovery::Sack,
            traffic: cfg.traffic,
            start: cfg.start,
            total_segments,
            active: false,
            snd_una: 0,
            snd_nxt: 0,
            high_sent: 0,
            dupacks: 0,
            phase: Phase::Open,
            recover: 0,
            recover_set: false,
            inflation: 0.0,
            partial_ack_seen: false,
            scoreboard: SeqSet::new(if cfg.recovery == Recovery::Sack { 256 } else { 64 }),
            rxt_next: 0,
            rescue_done: false,
            rack: (cfg.rack_lost_retransmit && cfg.recovery == Recovery::Sack).then(Box::default),
            send_buffer: None,
            rtt: RttEstimator::with_rule(cfg.rto_rule, to_nanos(cfg.min_rto), to_nanos(cfg.max_rto), to_nanos(cfg.initial_rto)),
            rto_timer: LazyTimer::new(EventKind::TcpRto),
            wake_pending: false,
            consecutive_timeouts: 0,
            round_end: 0,
            cwnd_limited: true,
            last_cwnd: cfg.cc_config.initial_cwnd,
            counters: SenderCounters::default(),
            rtt_log: cfg.log_delays.then(Vec::new),
        }
    }

    pub fn flow(&self) -> u32 {
        self.flow
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn snd_una(&self) -> u64 {
        self.snd_una
    }

    pub fn high_sent(&self) -> u64 {
        self.high_sent
    }

    pub fn srtt(&self) -> Option<u64> {
        self.rtt.srtt()
    }

    /// Current RTO in picoseconds (with back-off).
    pub fn rto(&self) -> Time {
        crate::time::from_nanos(self.rtt.rto())
    }

    /// Time-weighted cwnd integral brought up to `now`.
    pub fn cwnd_area_at(&self, now: Time) -> f64 {
        self.counters.cwnd_area + self.last_cwnd * now.saturating_sub(self.counters.cwnd_last_change) as f64
    }

    /// Window the sender works with (controller cwnd plus NewReno inflation).
    pub fn effective_cwnd(&self, ctl: &Controller) -> f64 {
        ctl.cwnd(self.subflow) + self.inflation
    }

    // ---- events -------------------------------------------------------------------------

    pub(crate) fn on_event(&mut self, kind: EventKind, ctx: &mut Ctx, ctl: &mut Controller, owner: &mut impl FlowOwner) {
        match kind {
            EventKind::TcpWake => {
                self.wake_pending = false;
                if !self.active && ctx.now >= self.start && self.counters.sent_packets == 0 {
                    self.active = true;
                    self.counters.cwnd_last_change = ctx.now;
                }
                self.try_send(ctx, ctl, owner);
                if self.round_end == 0 {
                    self.round_end = self.high_sent;
                }
            }
            EventKind::TcpStop => {
                self.active = false;
                self.total_segments = self.total_segments.min(self.high_sent);
            }
            EventKind::TcpRto => self.on_rto_event(ctx, ctl, owner),
            _ => {}
        }
        owner.after_sender(self, ctx, ctl);
    }

    /// Handles an ACK (and frees it). The owner reads the ACK first (an MPTCP connection
    /// sets the subflow's coupling) and acts last.
    #[inline]
    pub(crate) fn on_ack(&mut self, id: PacketId, ctx: &mut Ctx, ctl: &mut Controller, owner: &mut impl FlowOwner) {
        let p = *ctx.pool.get(id);
        owner.before_ack(self, ctl, &p, ctx.now);
        ctx.pool.free(id);
        debug_assert_eq!(p.kind, PacketKind::TcpAck);
        self.counters.acks_received += 1;
        let now_ns = to_nanos(ctx.now);
        let ack = p.seq.min(self.high_sent);

        let mut newly_sacked = 0;
        if self.sack {
            for i in 0..p.sack_count() {
                let b = p.sack_block(i);
                newly_sacked += self.scoreboard.insert_range(b.start.max(ack), b.end.min(self.high_sent));
            }
        }

        if ack > self.snd_una {
            // Karn (RFC 6298 §3): the echoed send time is only valid if that segment was
            // sent once.
            let rtt_sample = (p.flags & FLAG_ECHO_VALID != 0).then(|| to_nanos(ctx.now - p.ts));
            if let Some(r) = rtt_sample {
                self.rtt.on_sample(r);
                // One estimator per subflow: the controller reads this one's SRTT.
                ctl.set_srtt(self.subflow, self.rtt.smoothed());
                if let Some(log) = &mut self.rtt_log {
                    log.push(super::RttSample { at: ctx.now, rtt: ctx.now - p.ts });
                }
            }
            let previously_sacked = if self.sack { self.scoreboard.advance(ack) } else { 0 };
            let newly_acked = (ack - self.snd_una - previously_sacked + newly_sacked) as f64;
            self.snd_una = ack;
            if let Some(b) = self.send_buffer.as_deref_mut() {
                b.on_cumulative_ack(ack);
            }
            if self.snd_nxt < ack {
                self.snd_nxt = ack;
            }
            self.dupacks = 0;
            self.consecutive_timeouts = 0;
            let info = AckInfo { newly_acked, rtt_sample, cwnd_limited: self.cwnd_limited };
            let mut restart_timer = true;
            match self.phase {
                Phase::FastRecovery if ack >= self.recover => {
                    // Full ACK (RFC 6582 §3.2 step 3; RFC 6675 §5 "end of recovery").
                    self.phase = Phase::Open;
                    self.inflation = 0.0;
                    ctl.on_recovery_exit(self.subflow, now_ns);
                }
                Phase::FastRecovery => {
                    if !self.sack {
                        // Partial ACK (RFC 6582 §3.2 step 4): retransmit the next hole,
                        // deflate by the amount acknowledged, add back one segment.
                        self.transmit(self.snd_una, true, false, ctx, owner);
                        self.inflation = (self.inflation - newly_acked + 1.0).max(0.0);
                        // "Impatient" timer: reset only on the first partial ACK.
                        restart_timer = !self.partial_ack_seen;
                        self.partial_ack_seen = true;
                    }
                    // The increase is frozen during recovery; the RTT sample still counts.
                    ctl.on_ack(self.subflow, now_ns, AckInfo { newly_acked: 0.0, ..info });
                }
                Phase::RtoRecovery => {
                    if ack >= self.recover {
                        self.phase = Phase::Open;
                    }
                    ctl.on_ack(self.subflow, now_ns, info);
                }
                Phase::Open => ctl.on_ack(self.subflow, now_ns, info),
            }
            if self.snd_una >= self.high_sent {
                self.rto_timer.cancel();
            } else if restart_timer {
                let rto = self.rto();
                self.rto_timer.arm(ctx.now + rto, ctx);
            }
            if ack >= self.round_end {
                ctl.on_round_end(self.subflow, now_ns);
                self.round_end = self.high_sent.max(ack + 1);
            }
            let transfer = matches!(self.traffic, TcpTraffic::Bytes(_));
            if transfer && self.snd_una >= self.total_segments && self.counters.completed_at.is_none() {
                self.counters.completed_at = Some(ctx.now);
            }
        } else if ack == self.snd_una && self.high_sent > self.snd_una && (!self.sack || newly_sacked > 0) {
            self.on_dupack(ctx, ctl, owner);
        }
        if let Some(rack) = &mut self.rack {
            let (una, board) = (self.snd_una, &self.scoreboard);
            rack.on_ack(p.ts, |s| s < una || board.contains(s));
        }
        let cwnd = self.try_send(ctx, ctl, owner);
        self.account_cwnd(ctx.now, cwnd);
        owner.after_sender(self, ctx, ctl);
    }

    fn on_dupack(&mut self, ctx: &mut Ctx, ctl: &mut Controller, owner: &mut impl FlowOwner) {
        match self.phase {
            Phase::FastRecovery => {
                if !self.sack {
                    self.inflation += 1.0; // RFC 6582 §3.2 step 3 (RFC 5681 §3.2 step 4)
                }
            }
            Phase::RtoRecovery => {}
            Phase::Open => {
                self.dupacks += 1;
                let lost = self.dupacks >= DUP_THRESH
                    || (self.sack && self.snd_una < self.lost_boundary());
                // After a recovery or timeout, no new recovery until the ACK has passed
                // the old recovery point: RFC 6582 §3.2 step 2 ("covers more than recover")
                // and RFC 6675 §5.1.
                let allowed = !self.recover_set
                    || if self.sack { self.snd_una >= self.recover } else { self.snd_una > self.recover };
                if lost && allowed {
                    self.enter_fast_recovery(ctx, ctl, owner);
                }
            }
        }
    }

    fn enter_fast_recovery(&mut self, ctx: &mut Ctx, ctl: &mut Controller, owner: &mut impl FlowOwner) {
        self.counters.fast_retransmits += 1;
        let flight = self.flight_for_reduction(ctl);
        ctl.on_congestion(self.subflow, to_nanos(ctx.now), Signal::Loss, flight);
        self.phase = Phase::FastRecovery;
        self.recover = self.high_sent;
        self.recover_set = true;
        self.partial_ack_seen = false;
        self.rescue_done = false;
        if let Some(rack) = &mut self.rack {
            rack.clear();
        }
        if !self.sack {
            self.inflation = DUP_THRESH as f64;
        }
        self.transmit(self.snd_una, true, false, ctx, owner);
        self.rxt_next = self.snd_una + 1;
    }

    fn on_rto_event(&mut self, ctx: &mut Ctx, ctl: &mut Controller, owner: &mut impl FlowOwner) {
        if !self.rto_timer.on_event(ctx) || self.snd_una >= self.high_sent {
            return;
        }
        self.counters.timeouts += 1;
        self.consecutive_timeouts += 1;
        self.counters.max_consecutive_timeouts = self.counters.max_consecutive_timeouts.max(self.consecutive_timeouts);
        let flight = self.flight_for_reduction(ctl);
        ctl.on_congestion(self.subflow, to_nanos(ctx.now), Signal::Timeout, flight);
        self.rtt.backoff(); // RFC 6298 (5.5)
        self.recover = self.high_sent;
        self.recover_set = true;
        self.dupacks = 0;
        self.inflation = 0.0;
        if let Some(rack) = &mut self.rack {
            rack.clear();
        }
        if self.sack {
            self.phase = Phase::RtoRecovery;
            self.rxt_next = self.snd_una;
            self.rescue_done = true;
        } else {
            // Go-back-N from the first unacknowledged segment.
            self.phase = Phase::Open;
            self.snd_nxt = self.snd_una;
        }
        self.round_end = self.high_sent;
        let rto = self.rto();
        self.rto_timer.arm(ctx.now + rto, ctx); // (5.6)
        let cwnd = self.try_send(ctx, ctl, owner);
        self.account_cwnd(ctx.now, cwnd);
    }

    /// FlightSize for the RFC 5681 eq. 4 reduction, capped at the window in use (cwnd plus
    /// NewReno inflation). The cap excludes segments sent for SACKed ones before recovery
    /// (RFC 3042 §2: limited-transmit segments are not counted) and keeps a timeout during
    /// a long NewReno recovery from setting ssthresh from "sent but not cumulatively
    /// acknowledged" data, which grows without bound while dupACKs inflate the window.
    fn flight_for_reduction(&self, ctl: &Controller) -> f64 {
        let outstanding = (self.high_sent - self.snd_una) as f64;
        outstanding.min(ctl.cwnd(self.subflow) + self.inflation).max(1.0)
    }

    // ---- transmission ---------------------------------------------------------------------

    /// Segments the application has made available (exclusive bound on new sequence numbers);
    /// `retransmissions_first` as `FlowOwner::data_limit` says.
    #[inline(always)]
    fn app_limit(&self, now: Time, owner: &impl FlowOwner, retransmissions_first: bool) -> u64 {
        if !self.active {
            return self.high_sent;
        }
        if let Some(limit) = owner.data_limit(retransmissions_first) {
            return limit;
        }
        match self.traffic {
            TcpTraffic::Bulk | TcpTraffic::Bytes(_) => self.total_segments,
            TcpTraffic::RateLimited { bps } => {
                let bits = (now - self.start) as u128 * bps as u128;
                let per_seg = self.mss_bytes as u128 * 8 * PS_PER_SEC as u128;
                ((bits / per_seg) as u64 + 1).min(self.total_segments)
            }
        }
    }

    /// The application will offer more data later: wake up then.
    fn wait_for_app(&mut self, ctx: &mut Ctx) {
        if let (TcpTraffic::RateLimited { bps }, true, false) = (self.traffic, self.active, self.wake_pending) {
            let k = self.high_sent as u128;
            let per_seg = self.mss_bytes as u128 * 8 * PS_PER_SEC as u128;
            let at = self.start + (k * per_seg).div_ceil(bps as u128) as Time;
            ctx.schedule(at.max(ctx.now), EventKind::TcpWake);
            self.wake_pending = true;
        }
    }

    /// Sends what the window allows; returns the controller's window it read (sending does
    /// not change it), for `account_cwnd`.
    #[inline(always)]
    fn try_send(&mut self, ctx: &mut Ctx, ctl: &mut Controller, owner: &mut impl FlowOwner) -> f64 {
        if self.in_sack_recovery() {
            self.send_in_sack_recovery(ctx, ctl, owner);
            return ctl.cwnd(self.subflow);
        }
        // Below, a segment below `high_sent` is always sent before new data.
        let limit = self.app_limit(ctx.now, owner, true);
        let cwnd = ctl.cwnd(self.subflow);
        if self.send_buffer.is_some() {
            self.note_window(cwnd);
        }
        let window = whole_segments(cwnd + self.inflation).max(1);
        loop {
            // SACKed segments have left the network (RFC 6675 pipe with nothing yet lost).
            let flight = self.snd_nxt - self.snd_una - if self.sack { self.scoreboard.len() } else { 0 };
            if flight >= window {
                self.cwnd_limited = true;
                return cwnd;
            }
            let retransmit = self.snd_nxt < self.high_sent;
            if !retransmit && self.snd_nxt >= limit {
                self.cwnd_limited = false;
                self.wait_for_app(ctx);
                return cwnd;
            }
            let mut push = false;
            if self.send_buffer.is_some() && !retransmit {
                match self.skb_may_leave(flight, window, ctx.now) {
                    Some(last) => push = last,
                    None => {
                        self.cwnd_limited = true;
                        return cwnd;
                    }
                }
            }
            self.transmit(self.snd_nxt, retransmit, push, ctx, owner);
            self.snd_nxt += 1;
            if !retransmit {
                self.high_sent = self.snd_nxt;
            }
        }
    }

    /// RFC 6675 §5 step (C): send while cwnd - pipe >= 1 segment, choosing with NextSeg.
    fn send_in_sack_recovery(&mut self, ctx: &mut Ctx, ctl: &mut Controller, owner: &mut impl FlowOwner) {
        let limit = self.app_limit(ctx.now, owner, false);
        let lost_below = self.lost_boundary();
        let mut pipe = self.pipe(lost_below);
        loop {
            if ctl.cwnd(self.subflow) - (pipe as f64) < 1.0 {
                self.cwnd_limited = true;
                return;
            }
            match self.next_seg(lost_below, limit, owner.new_data_coming()) {
                Some(Next::Again(s)) => self.transmit(s, true, false, ctx, owner),
                Some(Next::Retransmit(s)) => {
                    self.transmit(s, true, false, ctx, owner);
                    self.rxt_next = s + 1;
                }
                Some(Next::New(s)) => {
                    let push = self.ends_skb(s);
                    self.transmit(s, false, push, ctx, owner);
                    self.high_sent = s + 1;
                    self.snd_nxt = self.high_sent;
                }
                Some(Next::Rescue(s)) => {
                    self.transmit(s, true, false, ctx, owner);
                    self.rescue_done = true;
                }
                None => {
                    self.cwnd_limited = false;
                    self.wait_for_app(ctx);
                    return;
                }
            }
            pipe += 1;
        }
    }

    /// Un-SACKed segments below this are lost (RFC 6675 IsLost: in whole segments, "more
    /// than (DupThresh - 1) segments SACKed above" = below the DupThresh-th highest SACKed
    /// segment). After a timeout everything below the recovery point counts as lost.
    fn lost_boundary(&self) -> u64 {
        let by_sack = self
            .scoreboard
            .nth_highest_below(DUP_THRESH as u64, self.high_sent)
            .unwrap_or(self.snd_una);
        if self.phase == Phase::RtoRecovery {
            by_sack.max(self.recover.min(self.high_sent))
        } else {
            by_sack
        }
    }

    /// RFC 6675 SetPipe: un-SACKed segments not deemed lost, plus those retransmitted.
    fn pipe(&self, lost_below: u64) -> u64 {
        let (una, hs) = (self.snd_una, self.high_sent);
        let l = lost_below.clamp(una, hs);
        let not_lost = (hs - l) - self.scoreboard.count(l, hs);
        let r = self.rxt_next.clamp(una, hs);
        let retransmitted = (r - una) - self.scoreboard.count(una, r);
        // A retransmission found lost has left the network.
        let lost_again = self.rack.as_deref().map_or(0, LostRetransmits::lost_count);
        (not_lost + retransmitted).saturating_sub(lost_again)
    }

    /// RFC 6675 §4 NextSeg; `new_data_coming`: the owner will give new data after this ACK
    /// (`FlowOwner::new_data_coming`).
    fn next_seg(&self, lost_below: u64, limit: u64, new_data_coming: bool) -> Option<Next> {
        // (0) a retransmission found lost (RFC 8985 §6.2), before anything else
        if let Some(s) = self.rack.as_deref().and_then(LostRetransmits::next) {
            return Some(Next::Again(s));
        }
        let first_unsacked = self.scoreboard.next_absent(self.rxt_next.max(self.snd_una));
        // (1) lowest lost, not yet retransmitted segment
        if first_unsacked < lost_below && first_unsacked < self.high_sent {
            return Some(Next::Retransmit(first_unsacked));
        }
        // (2) new data
        if self.high_sent < limit {
            return Some(Next::New(self.high_sent));
        }
        // (3) un-SACKed, not retransmitted, below the highest SACKed segment
        if let Some(h) = self.scoreboard.nth_highest_below(1, self.high_sent) {
            if first_unsacked < h {
                return Some(Next::Retransmit(first_unsacked));
            }
        }
        // (4) one rescue retransmission per recovery: the highest un-SACKed segment. Rule (4)
        // is for a sender without new data; an MPTCP subflow whose connection still has data
        // gets it from the scheduler after this ACK, so rule (2) applies instead.
        if self.phase == Phase::FastRecovery && !self.rescue_done && !new_data_coming && self.snd_una < self.high_sent {
            let mut s = self.high_sent - 1;
            while s > self.snd_una && self.scoreboard.contains(s) {
                s -= 1;
            }
            return Some(Next::Rescue(s));
        }
        None
    }

    /// With Linux's send buffer: whether new segment `snd_nxt` may leave now (its skb whole,
    /// or in part when Linux would split it; `SendBuffer::may_leave`), and if so whether
    /// this segment ends its skb.
    #[inline(never)]
    fn skb_may_leave(&mut self, flight: u64, window: u64, now: Time) -> Option<bool> {
        let b = self.send_buffer.as_mut()?;
        // The SRTT is read (and rounded) only when Linux 6.18 would defer: most calls do not.
        let rtt = &self.rtt;
        b.may_leave(self.snd_nxt, window - flight, window, now, || rtt.srtt().map(crate::time::from_nanos))
    }

    #[inline(never)]
    fn note_window(&mut self, cwnd: f64) {
        if let Some(b) = &mut self.send_buffer {
            b.on_window(cwnd);
        }
    }

    /// Whether new segment `seq` carries PSH (the last of its skb).
    #[inline]
    fn ends_skb(&mut self, seq: u64) -> bool {
        self.send_buffer.as_mut().is_some_and(|b| b.ends_skb(seq))
    }

    /// Builds data segment `seq` whole (a subflow's option asked of its owner) and sends it;
    /// `push`: with PSH, the last segment the sender sends in one go.
    #[inline(always)]
    fn transmit(&mut self, seq: u64, retransmit: bool, push: bool, ctx: &mut Ctx, owner: &mut impl FlowOwner) {
        let mut p = Packet::EMPTY;
        p.seq = seq;
        p.ts = ctx.now;
        p.route = self.route;
        p.kind = PacketKind::TcpData;
        p.flags = if retransmit { FLAG_RETRANSMIT } else { 0 } | if push { FLAG_PUSH } else { 0 };
        p.size_bytes = self.mss_bytes;
        p.flow = self.flow;
        if let Some(bytes) = owner.data_option(retransmit, ctx.now) {
            p.flags |= FLAG_MP_TIMESTAMP;
            p.mp_option = bytes;
        }
        ctx.send_new(p);
        if let Some(b) = self.send_buffer.as_deref_mut() {
            b.on_send(seq, ctx.now);
        }
        self.counters.sent_packets += 1;
        if retransmit {
            self.counters.retransmissions += 1;
            if let Some(rack) = &mut self.rack {
                rack.on_retransmit(seq, ctx.now);
            }
        }
        if !self.rto_timer.is_armed() {
            let rto = self.rto();
            self.rto_timer.arm(ctx.now + rto, ctx); // RFC 6298 (5.1)
        }
    }

    /// Integrates the window in use up to `now`, then takes `cwnd` (the controller's) plus
    /// the inflation as the window from now on.
    #[inline]
    fn account_cwnd(&mut self, now: Time, cwnd: f64) {
        let c = &mut self.counters;
        // Through i64 (one instruction; an interval is far below 2^63 ps, 106 days).
        c.cwnd_area += self.last_cwnd * (now - c.cwnd_last_change) as i64 as f64;
        c.cwnd_last_change = now;
        self.last_cwnd = cwnd + self.inflation;
    }
}

/// The hooks a multipath connection drives its subflows with (crate::mptcp).
impl TcpSender {
    pub(crate) fn is_active(&self) -> bool {
        self.active
    }

    /// Sending by RFC 6675 NextSeg (SACK recovery after a loss or a timeout).
    #[inline]
    pub(crate) fn in_sack_recovery(&self) -> bool {
        self.sack && self.phase != Phase::Open
    }

    /// Gives the sender Linux's send buffer (`TcpFlowConfig::linux_send_buffer`).
    pub(crate) fn set_send_buffer(&mut self, b: SendBuffer) {
        self.send_buffer = Some(Box::new(b));
    }

    /// How many new segments the window would let this subflow send now, beyond those below
    /// `data_limit` (its owner's) it has not sent yet (0 while retransmissions are pending);
    /// `new_data_coming` as its owner last said (`FlowOwner::new_data_coming`).
    pub(crate) fn new_data_room(&self, ctl: &Controller, data_limit: u64, new_data_coming: bool) -> u64 {
        if !self.active {
            return 0;
        }
        if let Some(b) = &self.send_buffer {
            // Linux pushes connection data into the subflow's buffer as far as it has room,
            // ahead of what the window lets it send.
            return b.capacity().saturating_sub(data_limit.max(self.high_sent) - self.snd_una);
        }
        let pending = data_limit.saturating_sub(self.high_sent);
        let room = if self.in_sack_recovery() {
            let lost_below = self.lost_boundary();
            if let Some(Next::Retransmit(_) | Next::Again(_)) = self.next_seg(lost_below, self.high_sent, new_data_coming) {
                return 0;
            }
            whole_segments(ctl.cwnd(self.subflow) - self.pipe(lost_below) as f64)
        } else {
            if self.snd_nxt < self.high_sent {
                return 0;
            }
            let window = whole_segments(ctl.cwnd(self.subflow) + self.inflation).max(1);
            let flight = self.snd_nxt - self.snd_una - if self.sack { self.scoreboard.len() } else { 0 };
            window.saturating_sub(flight)
        };
        room.saturating_sub(pending)
    }

    /// Sends what the window and the owner's data limit allow (the owner does not act after
    /// it: it is the one pumping).
    pub(crate) fn pump(&mut self, ctx: &mut Ctx, ctl: &mut Controller, owner: &mut impl FlowOwner) {
        let cwnd = self.try_send(ctx, ctl, owner);
        self.account_cwnd(ctx.now, cwnd);
    }
}
