//! noq's per-path congestion `Controller` over the connection's shared pathpool-cc state, and
//! the `ControllerFactory` that builds them. noq reports bytes and `Instant`s; pathpool-cc
//! counts segments (one segment = the path's current datagram size) and nanoseconds since the
//! connection's first controller.
//!
//! Mapping of noq's callbacks (RFC 9002 §7 on one side, RFC 5681/6582/6356 on the other):
//! - `on_ack` per packet: counts the bytes of packets sent after the start of the current
//!   recovery period; the first such packet ends recovery (RFC 9002 §7.3.2). The batch of one
//!   ACK frame goes to pathpool-cc once, in `on_end_acks`, as one ACK would in TCP, with the
//!   RTT sample `now - sent` of the batch's largest packet number (QUIC never retransmits a
//!   packet number, so every sample is Karn-valid).
//! - `on_congestion_event`: a loss starts recovery (`Signal::Loss`), an ECN-CE increase is
//!   `Signal::Ecn`, persistent congestion is `Signal::Timeout` (RFC 9002 §7.6.2: minimum
//!   window). Events for packets sent before the current recovery started are ignored (one
//!   reduction per window). The reduction halves the window, RFC 9002 §7.3.2's
//!   `congestion_window * kLossReductionFactor`: pathpool-cc is handed the window as the
//!   flight size (RFC 5681 eq. 4 with a cwnd-limited sender).
//! - `window()`: the un-inflated window in bytes, at least RFC 9002's kMinimumWindow
//!   (2 datagrams).
//! - `on_spurious_congestion_event`: nothing is undone (as noq's own NewReno).

use crate::ack_delay::AckDelayStats;
use crate::name::QuicCc;
use crate::shared::{Shared, SLOTS};
use pathpool_cc::{AckInfo, CcConfig, Signal};
use std::any::Any;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use noq::congestion::{Controller, ControllerFactory, ControllerMetrics};

/// A poisoned lock (a panic elsewhere while holding it) still holds consistent windows:
/// every update is a few assignments. Never panic inside noq's send path.
fn lock(m: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The controller of one path of a connection.
#[derive(Debug)]
pub struct PathCc {
    shared: Arc<Mutex<Shared>>,
    slot: usize,
    mtu: u64,
    initial_cwnd: f64,
    /// RFC 9002's `congestion_recovery_start_time`.
    recovery_start: Option<Instant>,
    /// The current ACK frame's batch: bytes of packets sent after the recovery start, and the
    /// send time of its largest packet number.
    batch_bytes: u64,
    batch_largest: Option<(u64, Instant)>,
    /// For the ACK delay noq subtracts (see `AckDelayStats`): noq's smoothed RTT as the
    /// current batch began, the previous batch's raw sample, and whether a batch is open.
    seen_smoothed: Option<Duration>,
    last_raw_ns: Option<u64>,
    in_batch: bool,
}

impl PathCc {
    fn new(shared: Arc<Mutex<Shared>>, mtu: u16, initial_cwnd: f64) -> PathCc {
        let claimed = lock(&shared).claim(mtu);
        let (shared, slot) = match claimed {
            Some(slot) => (shared, slot),
            None => {
                // Every slot taken: this path runs alone (its algorithm over one path is
                // Reno, RFC 6356 §3) rather than failing inside noq.
                let kind = lock(&shared).kind;
                let cfg = lock(&shared).cc_config.clone();
                let mut own = Shared::new(kind, cfg, 1).expect("a configuration that built once builds again");
                let slot = own.claim(mtu).expect("a new state has a free slot");
                (Arc::new(Mutex::new(own)), slot)
            }
        };
        PathCc { shared, slot, mtu: mtu.max(1) as u64, initial_cwnd, recovery_start: None, batch_bytes: 0, batch_largest: None, seen_smoothed: None, last_raw_ns: None, in_batch: false }
    }

    /// The slot of this path in the connection's state (paths are numbered in build order).
    pub fn slot(&self) -> usize {
        self.slot
    }

    fn after_recovery_start(&self, sent: Instant) -> bool {
        self.recovery_start.is_none_or(|r| sent > r)
    }

    /// One acknowledged packet (noq's `on_ack`, without its RTT estimator, which this
    /// controller does not read).
    pub fn on_packet_acked(&mut self, sent: Instant, bytes: u64, pn: u64) {
        if self.batch_largest.is_none_or(|(largest, _)| pn > largest) {
            self.batch_largest = Some((pn, sent));
        }
        let mut s = lock(&self.shared);
        s.acked[self.slot] += bytes;
        if !self.after_recovery_start(sent) {
            return;
        }
        if s.cc.in_recovery(self.slot) {
            let t = s.nanos(sent);
            s.cc.on_recovery_exit(self.slot, t);
        }
        self.batch_bytes += bytes;
    }

    /// The end of one ACK frame's batch (noq's `on_end_acks`).
    pub fn on_batch_end(&mut self, now: Instant, app_limited: bool) {
        let rtt_sample = self.batch_largest.take().map(|(_, sent)| now.saturating_duration_since(sent).as_nanos() as u64);
        let acked = std::mem::take(&mut self.batch_bytes);
        if acked == 0 && rtt_sample.is_none() {
            return;
        }
        let ack = AckInfo { newly_acked: acked as f64 / self.mtu as f64, rtt_sample: rtt_sample.filter(|&r| r > 0), cwnd_limited: !app_limited };
        lock(&self.shared).on_ack(self.slot, now, ack);
    }

    /// noq's `on_congestion_event`.
    pub fn on_congestion(&mut self, now: Instant, sent: Instant, persistent: bool, ecn: bool) {
        if !persistent && !self.after_recovery_start(sent) {
            return;
        }
        self.recovery_start = Some(now);
        let signal = if persistent {
            Signal::Timeout
        } else if ecn {
            Signal::Ecn
        } else {
            Signal::Loss
        };
        let mut s = lock(&self.shared);
        let flight = s.cc.cwnd(self.slot);
        s.on_congestion(self.slot, now, signal, flight);
    }

    fn set_mtu(&mut self, mtu: u16) {
        self.mtu = mtu.max(1) as u64;
        lock(&self.shared).mtu[self.slot] = self.mtu;
    }

    /// Window in bytes.
    pub fn window_bytes(&self) -> u64 {
        let segments = lock(&self.shared).cc.cwnd(self.slot);
        ((segments * self.mtu as f64) as u64).max(2 * self.mtu)
    }
}

impl PathCc {
    /// noq updates its RTT estimator after `on_end_acks`, with the previous batch's sample
    /// less the ACK delay the peer reported (RFC 9002 §5.3: `smoothed = 7/8 smoothed + 1/8
    /// adjusted`), and hands the estimator to the next batch's `on_ack`. So the change of the
    /// smoothed RTT gives `adjusted`, and the raw sample less it the ACK delay noq applied:
    /// a diagnostic only (the controller's RTT samples stay raw), exact to a few ns.
    fn infer_ack_delay(&mut self, smoothed: Duration) {
        let before = self.seen_smoothed.replace(smoothed);
        let (Some(before), Some(raw)) = (before, self.last_raw_ns) else { return };
        if before == smoothed {
            return; // the previous batch gave noq no RTT sample
        }
        let adjusted = 8 * smoothed.as_nanos() as i128 - 7 * before.as_nanos() as i128;
        let delay = raw as i128 - adjusted;
        if (0..=raw as i128).contains(&delay) {
            lock(&self.shared).ack_delay[self.slot].add(delay as u64);
        }
    }
}

impl Drop for PathCc {
    fn drop(&mut self) {
        lock(&self.shared).release(self.slot);
    }
}

impl Controller for PathCc {
    fn on_sent(&mut self, now: Instant, _bytes: u64, _largest_pn: u64) {
        lock(&self.shared).on_sent(self.slot, now);
    }

    fn on_ack(&mut self, _now: Instant, sent: Instant, bytes: u64, pn: u64, _app_limited: bool, rtt: &noq_proto::RttEstimator) {
        if !self.in_batch {
            self.in_batch = true;
            self.infer_ack_delay(rtt.get());
        }
        self.on_packet_acked(sent, bytes, pn);
    }

    fn on_end_acks(&mut self, now: Instant, _in_flight: u64, app_limited: bool, _largest: Option<u64>) {
        self.in_batch = false;
        self.last_raw_ns = self.batch_largest.map(|(_, sent)| now.saturating_duration_since(sent).as_nanos() as u64);
        self.on_batch_end(now, app_limited);
    }

    fn on_congestion_event(&mut self, now: Instant, sent: Instant, persistent: bool, ecn: bool, _lost_bytes: u64, _largest_lost_pn: u64) {
        self.on_congestion(now, sent, persistent, ecn);
    }

    fn on_packet_lost(&mut self, _lost_bytes: u16, _pn: u64, now: Instant) {
        lock(&self.shared).on_loss_sample(self.slot, now);
    }

    fn on_mtu_update(&mut self, new_mtu: u16) {
        self.set_mtu(new_mtu);
    }

    fn window(&self) -> u64 {
        self.window_bytes()
    }

    fn metrics(&self) -> ControllerMetrics {
        let mut m = ControllerMetrics::default();
        m.congestion_window = self.window_bytes();
        let ssthresh = lock(&self.shared).cc.ssthresh(self.slot);
        m.ssthresh = ssthresh.is_finite().then(|| (ssthresh * self.mtu as f64) as u64);
        m
    }

    /// noq clones a path's controller when the path migrates to a new 4-tuple; the new path
    /// starts fresh in a slot of its own (its window and RTT belong to the old route).
    fn clone_box(&self) -> Box<dyn Controller> {
        Box::new(PathCc::new(self.shared.clone(), self.mtu.min(u16::MAX as u64) as u16, self.initial_cwnd))
    }

    fn initial_window(&self) -> u64 {
        (self.initial_cwnd * self.mtu as f64) as u64
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

/// What one path's controller holds, for probes (`CoupledFactory::snapshot`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathSnapshot {
    /// The path's slot (paths are numbered in the order noq built their controllers).
    pub slot: usize,
    /// Window and slow-start threshold in bytes (ssthresh infinite before the first loss).
    pub cwnd_bytes: f64,
    pub ssthresh_bytes: f64,
    /// Smoothed RTT of the samples the controller was handed.
    pub srtt_ns: Option<u64>,
    pub in_recovery: bool,
    /// Persistent-congestion events (RFC 9002 §7.6) since the path last had data
    /// acknowledged: a path that keeps losing everything. noq abandons a path only on its idle
    /// timeout; an application can close such a path itself (`noq::Path::close`).
    pub persistent_congestion: u32,
    /// Time between the last acknowledgement of the path's data and its latest packet sent
    /// since (0 while the path is answered): a dead path's grows without bound.
    pub unanswered_ns: u64,
    /// The ACK delays the peer reported, as noq's RTT estimator subtracted them (a
    /// diagnostic: the RTT samples this controller uses include them).
    pub ack_delay: AckDelayStats,
    /// Bytes acknowledged on the path so far (QUIC datagrams, UDP payload).
    pub acked_bytes: u64,
}

/// Builds the per-path controllers of ONE connection: they share one coupled state. Give each
/// connection its own factory (a `TransportConfig` per connection: `ClientConfig::
/// transport_config` on a client, `Incoming::accept_with` on a server).
#[derive(Debug)]
pub struct CoupledFactory {
    shared: Arc<Mutex<Shared>>,
    initial_cwnd: f64,
}

impl CoupledFactory {
    /// The algorithm with pathpool-cc's defaults (RFC 6928 initial window of 10 segments,
    /// byte counting).
    pub fn new(kind: QuicCc) -> Arc<CoupledFactory> {
        CoupledFactory::with_config(kind, CcConfig::default()).expect("the default configuration is valid")
    }

    /// The error names the configuration field and what was expected.
    pub fn with_config(kind: QuicCc, cfg: CcConfig) -> Result<Arc<CoupledFactory>, String> {
        let initial_cwnd = cfg.initial_cwnd;
        let shared = Shared::new(kind, cfg, SLOTS)?;
        Ok(Arc::new(CoupledFactory { shared: Arc::new(Mutex::new(shared)), initial_cwnd }))
    }

    pub fn kind(&self) -> QuicCc {
        lock(&self.shared).kind
    }

    /// The paths that currently have a controller, in slot order.
    pub fn snapshot(&self) -> Vec<PathSnapshot> {
        let s = lock(&self.shared);
        s.cc.usable()
            .iter()
            .map(|slot| {
                let mtu = s.mtu[slot] as f64;
                PathSnapshot {
                    slot,
                    cwnd_bytes: s.cc.cwnd(slot) * mtu,
                    ssthresh_bytes: s.cc.ssthresh(slot) * mtu,
                    srtt_ns: s.cc.srtt(slot),
                    in_recovery: s.cc.in_recovery(slot),
                    persistent_congestion: s.persistent[slot],
                    unanswered_ns: s.unanswered(slot),
                    ack_delay: s.ack_delay[slot],
                    acked_bytes: s.acked[slot],
                }
            })
            .collect()
    }

    /// The coupling set of each slot (bit i = slot i) as the algorithm currently uses it.
    pub fn coupling(&self) -> Vec<u64> {
        let s = lock(&self.shared);
        (0..s.cc.n_paths()).map(|i| s.cc.usable().contains(i).then(|| coupling_of(&s, i)).unwrap_or(0)).collect()
    }

    /// The shared bottleneck detector's decisions so far (empty unless `mptcp-sbd`).
    pub fn decisions(&self) -> Vec<crate::SbdDecision> {
        lock(&self.shared).decisions()
    }

    /// Records the first `cap` inputs of the shared bottleneck detector (mptcp-sbd only; 0
    /// stops recording): every sample, thinned-out sample and loss it is handed, to replay
    /// offline with other detector parameters (`pathpool quic run` writes them as
    /// sbd_inputs.csv, docs/quic.md).
    pub fn record_sbd_inputs(&self, cap: usize) {
        if let Some(sbd) = lock(&self.shared).sbd.as_mut() {
            sbd.record_inputs(cap);
        }
    }

    /// The detector inputs recorded so far (see [`CoupledFactory::record_sbd_inputs`]).
    pub fn sbd_inputs(&self) -> Vec<crate::SbdInput> {
        lock(&self.shared).sbd_inputs()
    }

    /// Controllers built so far (paths opened, including replaced ones).
    pub fn paths_built(&self) -> usize {
        lock(&self.shared).claimed
    }
}

fn coupling_of(s: &Shared, slot: usize) -> u64 {
    s.coupling(slot).intersect(s.cc.usable()).0
}

impl ControllerFactory for CoupledFactory {
    fn build(self: Arc<Self>, now: Instant, current_mtu: u16) -> Box<dyn Controller> {
        lock(&self.shared).nanos(now); // the first path's creation is time zero
        Box::new(PathCc::new(self.shared.clone(), current_mtu, self.initial_cwnd))
    }
}
