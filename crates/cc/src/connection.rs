//! One connection's congestion control for algorithm `A`: every path's state, the coupling
//! groups, and the window logic every algorithm shares (RFC 5681 slow start, RFC 6582
//! recovery, RFC 6298 timeouts, RFC 3168 ECN); and [`CongestionControl`], what one algorithm
//! supplies: its per-path state, its connection-level state and the hooks the shared logic
//! calls (a file per algorithm implements it). Hooks without a default are the ones every
//! algorithm decides; the defaults are Reno's behaviour and compile to nothing (static
//! dispatch). The trait and the type it is hosted by live together: each names the other.

use crate::window::{self, AckCounting, MinSsthresh, WindowConfig};
use crate::interface::{AckInfo, Signal};
use crate::path::PathState;
use crate::rtt::SmoothedRtt;
use crate::set::{SubflowSet, MAX_SUBFLOWS};
use crate::Nanos;
use std::fmt::Debug;

/// A congestion signal on path `sf` as the ssthresh hook sees it.
#[derive(Clone, Copy, Debug)]
pub struct CongestionEvent {
    pub sf: usize,
    /// `sf`'s coupling set.
    pub set: SubflowSet,
    /// FlightSize, segments (finite, >= 0).
    pub flight: f64,
    /// The ssthresh floor.
    pub min: f64,
}

pub trait CongestionControl: Clone + Debug + Sized {
    /// What the algorithm remembers per path beyond the common window state.
    type Path: Clone + Copy + Debug;
    /// What the algorithm keeps per connection (LIA's alpha cache); `()` when nothing.
    type Shared: Clone + Debug + Default;
    /// True when windows of different paths influence each other (the ssthresh floor 1 of
    /// `MinSsthresh::Auto` applies only then).
    const COUPLED: bool;

    fn new_path(&self) -> Self::Path;

    /// Checks the algorithm's parameters; the error names the field and what was expected.
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }

    /// A Karn-valid RTT sample arrived on this path.
    fn on_rtt_sample(_path: &mut Self::Path, _rtt: Nanos) {}

    /// Segments newly acknowledged on this path (> 0).
    fn on_acked(_path: &mut Self::Path, _segments: f64) {}

    /// The sender was not cwnd-limited; `idle` has passed since the previous ACK.
    fn on_app_limited(_path: &mut Self::Path, _idle: Nanos) {}

    /// Congestion-avoidance increase of `sf` by `units` (acked segments or ACK events),
    /// outside recovery and slow start. Default: the coupled increase over `sf`'s coupling
    /// set, Reno's when `sf` is alone in it.
    fn increase(c: &mut Connection<Self>, sf: usize, now: Nanos, units: f64) {
        let _ = now;
        if c.per_group() {
            return c.increase_per_group(sf, units, Self::coupled_increase);
        }
        if let Some(set) = c.coupled_increase_set(sf, units) {
            Self::coupled_increase(c, sf, set, units);
        }
    }

    /// The increase of a coupled algorithm over `set` (at least two paths, all with an RTT).
    fn coupled_increase(c: &mut Connection<Self>, sf: usize, set: SubflowSet, units: f64) {
        let _ = (c, sf, set, units);
    }

    /// ssthresh after a congestion signal. Default: RFC 5681 eq. 4.
    fn ssthresh_after_congestion(c: &mut Connection<Self>, e: CongestionEvent) -> f64 {
        let _ = c;
        window::ssthresh_after_loss(e.flight, e.min)
    }

    /// End of an RTT round on `sf` (only algorithms that act per round use it).
    fn on_round_end(_c: &mut Connection<Self>, _sf: usize, _now: Nanos) {}

    fn on_recovery_exit(&self, _path: &mut Self::Path) {}

    fn on_timeout(&self, _path: &mut Self::Path) {}

    /// A window, the usable paths or a congestion state changed (LIA recomputes its alpha).
    fn invalidate(_shared: &mut Self::Shared) {}

    /// LIA's alpha / LINKED INCREASES' a for probes (1.0 where the algorithm has none).
    fn alpha(_c: &Connection<Self>) -> f64 {
        1.0
    }
}

#[derive(Clone, Debug)]
pub struct Connection<A: CongestionControl> {
    pub(crate) algo: A,
    pub(crate) window: WindowConfig,
    pub(crate) paths: Vec<PathState<A::Path>>,
    /// Per path: the paths its coupled increase and decrease run over.
    coupling: Vec<SubflowSet>,
    /// Bottleneck groups for coupling per group (`set_groups`); empty: per coupling set.
    groups: Vec<SubflowSet>,
    pub(crate) shared: A::Shared,
    /// The usable paths, and the paths with an RTT estimate (`PathState::srtt` is `Some`),
    /// kept as each path changes, so that a coupling set costs a few bit operations per ACK
    /// instead of a look at every path (`coupling_set`).
    usable: SubflowSet,
    with_rtt: SubflowSet,
}

/// Replaces values a caller should not send (NaN, negative) by 0.
fn non_negative(x: f64) -> f64 {
    if x.is_finite() && x > 0.0 {
        x
    } else {
        0.0
    }
}

/// A window in whole segments, floor(x), 0 below 0 (and for NaN): RFC 6356 §4.1's
/// "floor(cwnd) changed" here, and a simulated sender's window and room on every send and
/// ACK. For non-negative values truncation is the floor; `f64::floor` is a libm call on the
/// baseline x86-64 target (no SSE4.1 `roundsd`). Through i64: one conversion instruction
/// where u64 takes several and a branch (windows are far below 2^63 segments).
#[inline(always)]
pub fn whole_segments(x: f64) -> u64 {
    (x as i64).max(0) as u64
}

impl<A: CongestionControl> Connection<A> {
    /// Panics on what [`Connection::try_new`] rejects; callers that handle user input use that.
    pub fn new(algo: A, window: WindowConfig, n_paths: usize) -> Self {
        match Connection::try_new(algo, window, n_paths) {
            Ok(c) => c,
            Err(e) => panic!("invalid congestion-control setup: {e}"),
        }
    }

    /// Checks the window configuration, the algorithm's parameters and that `n_paths` is in
    /// 1..=64; the error names the field and what was expected.
    pub fn try_new(algo: A, window: WindowConfig, n_paths: usize) -> Result<Self, String> {
        if !(1..=MAX_SUBFLOWS).contains(&n_paths) {
            return Err(format!("subflows: expected 1..={MAX_SUBFLOWS}, got {n_paths}"));
        }
        window.validate()?;
        algo.validate()?;
        let path = PathState::new(&window, algo.new_path());
        Ok(Connection {
            paths: vec![path; n_paths],
            coupling: vec![SubflowSet::all(n_paths); n_paths],
            groups: Vec::new(),
            shared: A::Shared::default(),
            usable: SubflowSet::all(n_paths),
            with_rtt: SubflowSet::empty(),
            algo,
            window,
        })
    }

    pub fn algorithm(&self) -> &A {
        &self.algo
    }

    pub fn window_config(&self) -> &WindowConfig {
        &self.window
    }

    pub fn n_paths(&self) -> usize {
        self.paths.len()
    }

    pub fn path(&self, sf: usize) -> &PathState<A::Path> {
        &self.paths[sf]
    }

    /// Established subflows take part in coupling; a subflow is usable from the start.
    pub fn set_usable(&mut self, sf: usize, usable: bool) {
        self.paths[sf].usable = usable;
        self.usable = if usable { self.usable.with(sf) } else { self.usable.without(sf) };
        A::invalidate(&mut self.shared);
    }

    /// Puts path `sf` back in its initial state (window, RTT estimate, recovery, the
    /// algorithm's per-path memory) and makes it usable: a transport that reuses the slot of
    /// a closed path for a new one (a QUIC stack opening paths during a connection) must not
    /// inherit the old path's window or RTT. Coupling sets are kept.
    pub fn reset_path(&mut self, sf: usize) {
        self.paths[sf] = PathState::new(&self.window, self.algo.new_path());
        self.usable = self.usable.with(sf);
        self.note_rtt(sf);
        A::invalidate(&mut self.shared);
    }

    /// The usable subflows.
    pub fn usable(&self) -> SubflowSet {
        self.usable
    }

    /// Path `sf`'s RTT estimate changed: whether it has one now.
    #[inline]
    fn note_rtt(&mut self, sf: usize) {
        let has = self.paths[sf].srtt().is_some();
        self.with_rtt = if has { self.with_rtt.with(sf) } else { self.with_rtt.without(sf) };
    }

    pub fn set_coupling(&mut self, sf: usize, coupling: SubflowSet) {
        self.coupling[sf] = coupling;
    }

    pub fn coupling(&self, sf: usize) -> SubflowSet {
        self.coupling[sf]
    }

    /// Coupling per bottleneck group (docs/sbd.md, "Beyond partitions"): each path's
    /// congestion-avoidance increase is the algorithm's coupled increase computed once per
    /// group containing it, as if that group were the whole connection, and the smallest is
    /// applied, so a path is held by the tightest of its bottlenecks (RFC 6356 §3 caps LIA's
    /// increase the same way by `min(alpha/w_total, 1/w_r)`; in the network-utility view of
    /// coupled control a link's price is paid only by the paths crossing it, Kelly and Voice,
    /// CCR 35(2), 2005). A path in no group of two or more runs Reno. Decreases still run over
    /// `set_coupling`'s set (the transport passes the union of a path's groups). An empty list
    /// turns it off (the default). Applies to algorithms that use the shared coupled-increase
    /// hook (LIA, OLIA, BALIA, LINKED INCREASES, FULLY COUPLED); the groups are copied without
    /// allocating once the list has reached its largest length.
    pub fn set_groups(&mut self, groups: &[SubflowSet]) {
        self.groups.clear();
        self.groups.extend_from_slice(groups);
        A::invalidate(&mut self.shared);
    }

    pub fn groups(&self) -> &[SubflowSet] {
        &self.groups
    }

    pub(crate) fn per_group(&self) -> bool {
        !self.groups.is_empty()
    }

    /// The increase per group (`set_groups`): `coupled` run for every group of `sf` with two or
    /// more members that have an RTT, the smallest resulting window kept.
    pub(crate) fn increase_per_group(&mut self, sf: usize, units: f64, coupled: fn(&mut Self, usize, SubflowSet, f64)) {
        let before = self.paths[sf].cwnd;
        let mut tightest: Option<f64> = None;
        for g in 0..self.groups.len() {
            let group = self.groups[g];
            if !group.contains(sf) {
                continue;
            }
            let set = self.coupling_set(sf, group);
            if set.len() <= 1 {
                continue;
            }
            coupled(self, sf, set, units);
            let after = self.paths[sf].cwnd;
            self.paths[sf].cwnd = before;
            tightest = Some(tightest.map_or(after, |t: f64| t.min(after)));
        }
        match tightest {
            Some(w) => self.paths[sf].cwnd = w,
            None => self.increase_reno(sf, units),
        }
    }

    pub fn on_ack(&mut self, sf: usize, now: Nanos, ack: AckInfo) {
        let acked = non_negative(ack.newly_acked);
        let floor_before = whole_segments(self.paths[sf].cwnd);
        let s = &mut self.paths[sf];
        if let Some(rtt) = ack.rtt_sample {
            let own_estimate = !s.rtt_from_transport;
            if own_estimate {
                s.rtt.on_sample(rtt);
            }
            A::on_rtt_sample(&mut s.algo, rtt);
            if own_estimate {
                self.note_rtt(sf);
            }
        }
        let s = &mut self.paths[sf];
        if acked > 0.0 {
            s.in_timeout_streak = false;
            A::on_acked(&mut s.algo, acked);
        }
        let since_last_ack = s.last_ack.map_or(0, |t| now.saturating_sub(t));
        s.last_ack = Some(now);
        if !ack.cwnd_limited {
            A::on_app_limited(&mut s.algo, since_last_ack);
        }
        if s.in_recovery || acked == 0.0 || !ack.cwnd_limited {
            return;
        }
        let test = self.window.slow_start;
        let mut rest = acked;
        if window::in_slow_start(s.cwnd, s.ssthresh, test) {
            rest = window::slow_start(&mut s.cwnd, s.ssthresh, acked, test);
            // Linux 3.14 drops what is left of an ACK that ends slow start.
            if self.window.counting == AckCounting::PerAckEvent {
                rest = 0.0;
            }
        }
        if rest > 0.0 {
            let units = match self.window.counting {
                AckCounting::PerSegment => rest,
                AckCounting::PerAckEvent => 1.0,
            };
            A::increase(self, sf, now, units);
        }
        self.note_window_change(sf, floor_before);
    }

    /// See `Controller::set_srtt`. Like an RTT sample, it leaves LIA's alpha cache
    /// alone (algorithms.md: alpha is not recomputed on RTT changes alone).
    pub fn set_srtt(&mut self, sf: usize, srtt: SmoothedRtt) {
        let s = &mut self.paths[sf];
        s.rtt = srtt;
        s.rtt_from_transport = true;
        self.note_rtt(sf);
    }

    pub fn on_round_end(&mut self, sf: usize, now: Nanos) {
        A::on_round_end(self, sf, now);
    }

    pub fn on_congestion(&mut self, sf: usize, now: Nanos, signal: Signal, flight: f64) {
        match signal {
            Signal::Loss => {
                if self.paths[sf].in_recovery {
                    return;
                }
                let ssthresh = self.congestion_event(sf, flight, self.coupling[sf]);
                let s = &mut self.paths[sf];
                s.ssthresh = ssthresh;
                s.cwnd = ssthresh;
                s.in_recovery = true;
            }
            Signal::Ecn => {
                let s = &self.paths[sf];
                if s.in_recovery || now < s.ecn_quiet_until {
                    return;
                }
                let ssthresh = self.congestion_event(sf, flight, self.coupling[sf]);
                let s = &mut self.paths[sf];
                s.ssthresh = ssthresh;
                s.cwnd = ssthresh;
                s.ecn_quiet_until = now.saturating_add(s.rtt.nanos().unwrap_or(0));
            }
            Signal::Timeout => {
                if !self.paths[sf].in_timeout_streak {
                    // A timeout couples over every usable path, whatever the groups.
                    let ssthresh = self.congestion_event(sf, flight, self.usable());
                    self.paths[sf].ssthresh = ssthresh;
                }
                let s = &mut self.paths[sf];
                s.cwnd = 1.0;
                s.in_recovery = false;
                s.in_timeout_streak = true;
                self.algo.on_timeout(&mut s.algo);
            }
        }
    }

    pub fn on_recovery_exit(&mut self, sf: usize, now: Nanos) {
        let _ = now; // no algorithm here times its recovery exit
        let s = &mut self.paths[sf];
        if s.in_recovery {
            s.in_recovery = false;
            self.algo.on_recovery_exit(&mut s.algo);
            A::invalidate(&mut self.shared);
        }
    }

    /// Sets a subflow's window state directly (tests, fluid models, restoring a state).
    /// Values are kept finite and >= 1; LIA's alpha is recomputed on the next use.
    pub fn set_window(&mut self, sf: usize, cwnd: f64, ssthresh: f64) {
        let s = &mut self.paths[sf];
        s.cwnd = if cwnd.is_finite() { cwnd.max(1.0) } else { s.cwnd };
        s.ssthresh = if ssthresh.is_nan() { s.ssthresh } else { ssthresh.max(1.0) };
        A::invalidate(&mut self.shared);
    }

    pub fn cwnd(&self, sf: usize) -> f64 {
        self.paths[sf].cwnd
    }

    pub fn ssthresh(&self, sf: usize) -> f64 {
        self.paths[sf].ssthresh
    }

    pub fn srtt(&self, sf: usize) -> Option<Nanos> {
        self.paths[sf].rtt.nanos()
    }

    pub fn in_recovery(&self, sf: usize) -> bool {
        self.paths[sf].in_recovery
    }

    pub fn in_slow_start(&self, sf: usize) -> bool {
        let s = &self.paths[sf];
        window::in_slow_start(s.cwnd, s.ssthresh, self.window.slow_start)
    }

    /// LIA's alpha / LINKED INCREASES' a (1.0 for other algorithms), for probes.
    pub fn alpha(&self) -> f64 {
        A::alpha(self)
    }

    // ---- for the algorithms' hooks ----

    /// The paths `sf`'s coupled formulas run over: the usable members of `coupling` that
    /// have an RTT estimate, always including `sf` itself (algorithms.md §0.2, §7.5).
    #[inline]
    pub(crate) fn coupling_set(&self, sf: usize, coupling: SubflowSet) -> SubflowSet {
        let me = SubflowSet::single(sf);
        if !self.with_rtt.contains(sf) {
            return me;
        }
        let members = coupling.intersect(SubflowSet::all(self.paths.len())).intersect(self.usable).intersect(self.with_rtt);
        SubflowSet(me.0 | members.0)
    }

    /// `coupling_set` over the groups set for `sf`.
    pub(crate) fn own_coupling_set(&self, sf: usize) -> SubflowSet {
        self.coupling_set(sf, self.coupling[sf])
    }

    /// The coupling set of `sf` for a coupled increase; `None` once Reno's increase is done
    /// because `sf` is alone in it (RFC 6356 §3 reduces to Reno; S0 §III-B.5).
    pub(crate) fn coupled_increase_set(&mut self, sf: usize, units: f64) -> Option<SubflowSet> {
        let set = self.own_coupling_set(sf);
        if set.len() <= 1 {
            self.increase_reno(sf, units);
            return None;
        }
        Some(set)
    }

    pub(crate) fn min_ssthresh(&self, coupled_over: usize) -> f64 {
        match self.window.min_ssthresh {
            MinSsthresh::Fixed(m) => m,
            MinSsthresh::Auto if A::COUPLED && coupled_over >= 2 => 1.0,
            MinSsthresh::Auto => 2.0,
        }
    }

    pub(crate) fn increase_reno(&mut self, sf: usize, units: f64) {
        window::increase(&mut self.paths[sf].cwnd, units);
    }

    /// A change of floor(cwnd) triggers LIA's alpha recomputation (RFC 6356 §4.1).
    pub(crate) fn note_window_change(&mut self, sf: usize, floor_before: u64) {
        if whole_segments(self.paths[sf].cwnd) != floor_before {
            A::invalidate(&mut self.shared);
        }
    }

    /// Bookkeeping common to every congestion signal; returns the new ssthresh.
    fn congestion_event(&mut self, sf: usize, flight_size: f64, coupling: SubflowSet) -> f64 {
        let set = self.coupling_set(sf, coupling);
        let min = self.min_ssthresh(set.len());
        let flight = non_negative(flight_size);
        A::invalidate(&mut self.shared);
        A::ssthresh_after_congestion(self, CongestionEvent { sf, set, flight, min })
    }
}
