//! The state one connection's per-path controllers share: one pathpool-cc [`Controller`]
//! with a slot per path (the coupled arithmetic runs there, nowhere else), which slots are
//! taken, the connection's time origin, and the shared bottleneck detector when asked for.

use crate::name::QuicCc;
use crate::ack_delay::AckDelayStats;
use crate::sbd::{SbdCoupler, SbdDecision, SbdInput};
use pathpool_cc::{AckInfo, CcConfig, Controller, Nanos, Signal, SubflowSet};
use std::time::Instant;

/// Path slots of one connection: noq's default limit of concurrent multipath paths (8),
/// twice, so that paths replaced during a connection (migration, re-opened paths) find a
/// slot while the old ones drain.
pub const SLOTS: usize = 16;

#[derive(Debug)]
pub(crate) struct Shared {
    pub cc: Controller,
    pub kind: QuicCc,
    pub cc_config: CcConfig,
    /// Per slot: the coupling set handed to the algorithm (all slots until SBD decides).
    coupling: Vec<SubflowSet>,
    taken: SubflowSet,
    /// Per slot: the path's current datagram size (bytes per segment), for snapshots.
    pub mtu: Vec<u64>,
    /// Time zero of the algorithm: the first `now` noq handed in.
    origin: Option<Instant>,
    pub sbd: Option<SbdCoupler>,
    /// Per slot: persistent-congestion events since the path's last acknowledged data.
    pub persistent: Vec<u32>,
    /// Per slot: bytes noq reported acknowledged on the path (its datagrams' sizes), all of
    /// them, for the path's throughput.
    pub acked: Vec<u64>,
    /// Per slot: when data was last sent and last acknowledged (algorithm nanoseconds).
    pub last_sent: Vec<Option<Nanos>>,
    pub last_acked: Vec<Option<Nanos>>,
    /// Slots ever claimed (0, 1, ... in build order).
    pub claimed: usize,
    /// Per slot: the ACK delays noq subtracted from the path's RTT samples.
    pub ack_delay: Vec<AckDelayStats>,
}

impl Shared {
    pub fn new(kind: QuicCc, cfg: CcConfig, slots: usize) -> Result<Self, String> {
        let mut cc = Controller::try_new(kind.algorithm(), cfg.clone(), slots)?;
        for s in 0..slots {
            cc.set_usable(s, false);
        }
        Ok(Shared {
            cc,
            kind,
            cc_config: cfg,
            coupling: vec![SubflowSet::all(slots); slots],
            taken: SubflowSet::empty(),
            mtu: vec![0; slots],
            persistent: vec![0; slots],
            acked: vec![0; slots],
            last_sent: vec![None; slots],
            last_acked: vec![None; slots],
            origin: None,
            sbd: kind.uses_sbd().then(|| SbdCoupler::new(slots)),
            claimed: 0,
            ack_delay: vec![AckDelayStats::default(); slots],
        })
    }

    /// A free slot, reset to a new path's state and usable; `None` when all are taken.
    pub fn claim(&mut self, mtu: u16) -> Option<usize> {
        let slot = (0..self.cc.n_paths()).find(|&s| !self.taken.contains(s))?;
        self.taken = self.taken.with(slot);
        self.cc.reset_path(slot);
        self.mtu[slot] = mtu as u64;
        self.persistent[slot] = 0;
        self.last_sent[slot] = None;
        self.last_acked[slot] = None;
        self.ack_delay[slot] = AckDelayStats::default();
        self.claimed += 1;
        Some(slot)
    }

    pub fn release(&mut self, slot: usize) {
        self.taken = self.taken.without(slot);
        self.cc.set_usable(slot, false);
    }

    /// noq's `Instant` as the algorithm's nanoseconds (no wall clock is read here).
    pub fn nanos(&mut self, now: Instant) -> Nanos {
        let origin = *self.origin.get_or_insert(now);
        now.saturating_duration_since(origin).as_nanos().min(u64::MAX as u128) as Nanos
    }

    pub fn on_ack(&mut self, slot: usize, now: Instant, ack: AckInfo) {
        let t = self.nanos(now);
        if let (Some(rtt), Some(sbd)) = (ack.rtt_sample, self.sbd.as_mut()) {
            let sets = sbd.on_rtt(slot, t, rtt, self.cc.usable());
            self.apply(sets);
        }
        if ack.newly_acked > 0.0 {
            self.persistent[slot] = 0;
            self.last_acked[slot] = Some(t);
        }
        self.cc.on_ack(slot, t, ack);
    }

    pub fn on_congestion(&mut self, slot: usize, now: Instant, signal: Signal, flight: f64) {
        let t = self.nanos(now);
        if signal == Signal::Timeout {
            self.persistent[slot] = self.persistent[slot].saturating_add(1);
        }
        self.cc.on_congestion(slot, t, signal, flight);
    }

    pub fn on_sent(&mut self, slot: usize, now: Instant) {
        let t = self.nanos(now);
        self.last_sent[slot] = Some(t);
    }

    /// How long the path has sent without anything acknowledged since (0 when it is answered).
    pub fn unanswered(&self, slot: usize) -> Nanos {
        match (self.last_sent[slot], self.last_acked[slot]) {
            (Some(sent), Some(acked)) if sent > acked => sent - acked,
            _ => 0,
        }
    }

    pub fn on_loss_sample(&mut self, slot: usize, now: Instant) {
        let t = self.nanos(now);
        let usable = self.cc.usable();
        if let Some(sbd) = self.sbd.as_mut() {
            let sets = sbd.on_loss(slot, t, usable);
            self.apply(sets);
        }
    }

    fn apply(&mut self, sets: Option<Vec<SubflowSet>>) {
        for (slot, set) in sets.into_iter().flatten().enumerate() {
            self.cc.set_coupling(slot, set);
            self.coupling[slot] = set;
        }
    }

    pub fn coupling(&self, slot: usize) -> SubflowSet {
        self.coupling[slot]
    }

    pub fn decisions(&self) -> Vec<SbdDecision> {
        self.sbd.as_ref().map(|s| s.decisions().to_vec()).unwrap_or_default()
    }

    pub fn sbd_inputs(&self) -> Vec<SbdInput> {
        self.sbd.as_ref().map(|s| s.inputs().to_vec()).unwrap_or_default()
    }
}
