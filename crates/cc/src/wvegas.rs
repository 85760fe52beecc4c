//! wVegas, weighted Vegas (draft-xu-mptcp-congestion-control-05; Linux `mptcp_wvegas.c`;
//! algorithms.md §4). Acts once per RTT round; windows in packets, times in nanoseconds.

use crate::check::positive_finite;
use crate::connection::{CongestionControl, Connection};
use crate::path::PathState;
use crate::set::SubflowSet;
use crate::Nanos;

/// wVegas parameters (draft-xu-05, Linux `mptcp_wvegas.c`; algorithms.md §4.2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WVegasParams {
    /// Sum of the per-subflow alphas over the connection, packets.
    pub total_alpha: f64,
    /// Alpha of a subflow before its first weight update, packets.
    pub initial_alpha: f64,
    /// Slow-start exit threshold, packets.
    pub gamma: f64,
    /// Do not run the queue-drain halving when the measured queueing delay is zero
    /// (Linux halves cwnd there; algorithms.md §11 item 11).
    pub guard_zero_queue: bool,
}

impl Default for WVegasParams {
    fn default() -> Self {
        WVegasParams {
            total_alpha: 10.0,
            initial_alpha: 2.0,
            gamma: 1.0,
            guard_zero_queue: true,
        }
    }
}


impl WVegasParams {
    /// The error names the field and what was expected.
    pub fn validate(&self) -> Result<(), String> {
        positive_finite("wvegas.total_alpha", self.total_alpha)?;
        positive_finite("wvegas.initial_alpha", self.initial_alpha)?;
        positive_finite("wvegas.gamma", self.gamma)
    }
}

/// Linux keeps every subflow's alpha at 2 packets or more.
const ALPHA_FLOOR: f64 = 2.0;
/// Linux clamps cwnd at 2 packets after a round's adjustment.
const CWND_FLOOR: f64 = 2.0;

#[derive(Clone, Copy, Debug)]
pub struct WVegasState {
    /// Smallest RTT ever seen (propagation estimate).
    base_rtt: Option<f64>,
    /// Sum and count of this round's RTT samples.
    sampled_rtt: f64,
    cnt_rtt: u32,
    /// cwnd / rtt at the last weight update (0: none since the last reset).
    instant_rate: f64,
    alpha: f64,
    /// Smallest queueing delay since the last drain.
    queue_delay: f64,
}

impl WVegasState {
    pub(crate) fn new(p: &WVegasParams) -> Self {
        WVegasState {
            base_rtt: None,
            sampled_rtt: 0.0,
            cnt_rtt: 0,
            instant_rate: 0.0,
            alpha: p.initial_alpha,
            queue_delay: 0.0,
        }
    }

    pub(crate) fn on_rtt_sample(&mut self, rtt: f64) {
        let v = rtt.max(1.0); // a zero RTT would divide by zero below
        self.base_rtt = Some(self.base_rtt.map_or(v, |b| b.min(v)));
        self.sampled_rtt += v;
        self.cnt_rtt += 1;
    }

    /// Leaving recovery or a timeout re-enables wVegas from scratch, keeping base_rtt
    /// (Linux `wvegas_enable` on entering TCP_CA_Open).
    pub(crate) fn reset(&mut self, p: &WVegasParams) {
        *self = WVegasState {
            base_rtt: self.base_rtt,
            ..WVegasState::new(p)
        };
    }
}

/// End of an RTT round on `sf` (algorithms.md §4.3). `in_slow_start` is evaluated by the caller
/// with the configured test. Returns true when the round had too few RTT samples (<= 2) in
/// congestion avoidance: then the caller applies one Reno step (Linux `tcp_reno_cong_avoid`).
fn round_end(
    subflows: &mut [PathState<WVegasState>],
    sf: usize,
    set: SubflowSet,
    p: &WVegasParams,
    in_slow_start: bool,
) -> bool {
    let me = subflows[sf].algo;
    if me.cnt_rtt <= 2 {
        subflows[sf].algo.sampled_rtt = 0.0;
        subflows[sf].algo.cnt_rtt = 0;
        return !in_slow_start;
    }
    let rtt = me.sampled_rtt / me.cnt_rtt as f64; // average RTT of the round
    let base = me.base_rtt.unwrap_or(rtt);
    let cwnd = subflows[sf].cwnd;
    let diff = cwnd * (rtt - base) / rtt; // packets queued in the network

    let mut w = me;
    let (mut cwnd_new, mut ssthresh) = (cwnd, subflows[sf].ssthresh);
    if in_slow_start {
        if diff > p.gamma {
            // Leave slow start: cut to the rate the path carries without queue, plus one.
            cwnd_new = cwnd.min(cwnd * base / rtt + 1.0).max(CWND_FLOOR);
            // Linux `mptcp_wvegas_ssthresh` and WV-05 agree on cwnd - 1 (§11 item 11).
            ssthresh = ssthresh.min(cwnd_new - 1.0);
        }
    } else {
        if diff >= w.alpha {
            // Re-weight: this subflow's share of the connection's rate (WV-05 §3). As Linux
            // `mptcp_wvegas_weight`, other subflows count only while their current round has
            // RTT samples (rates are those of their last re-weighting).
            w.instant_rate = cwnd / rtt;
            let others: f64 = set
                .iter()
                .filter(|&i| i != sf && subflows[i].algo.cnt_rtt > 0)
                .map(|i| subflows[i].algo.instant_rate)
                .sum();
            let total = w.instant_rate + others;
            w.alpha = (w.instant_rate / total * p.total_alpha).max(ALPHA_FLOOR);
        }
        if diff > w.alpha {
            cwnd_new = (cwnd - 1.0).max(CWND_FLOOR);
            ssthresh = ssthresh.min(cwnd_new - 1.0);
        } else if diff < w.alpha {
            cwnd_new = cwnd + 1.0;
        }
        // Queue drain (WV-05 §3): when the queueing delay has doubled since its minimum,
        // back off to let the queue empty and base_rtt be re-measured.
        let q = rtt - base;
        if w.queue_delay == 0.0 || w.queue_delay > q {
            w.queue_delay = q;
        }
        let zero_queue = q <= 0.0;
        if q >= 2.0 * w.queue_delay && !(p.guard_zero_queue && zero_queue) {
            cwnd_new = (cwnd_new * base / (2.0 * rtt)).max(CWND_FLOOR);
            w.queue_delay = 0.0;
        }
    }
    cwnd_new = cwnd_new.max(CWND_FLOOR);
    // Linux tcp_current_ssthresh outside recovery: ssthresh >= 3/4 cwnd.
    ssthresh = ssthresh.max(0.75 * cwnd_new);
    w.sampled_rtt = 0.0;
    w.cnt_rtt = 0;
    let s = &mut subflows[sf];
    s.algo = w;
    s.cwnd = cwnd_new;
    s.ssthresh = ssthresh;
    false
}

/// wVegas with its parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WVegas {
    pub params: WVegasParams,
}

impl CongestionControl for WVegas {
    type Path = WVegasState;
    type Shared = ();
    const COUPLED: bool = true;

    fn new_path(&self) -> WVegasState {
        WVegasState::new(&self.params)
    }

    fn validate(&self) -> Result<(), String> {
        self.params.validate()
    }

    fn on_rtt_sample(path: &mut WVegasState, rtt: Nanos) {
        path.on_rtt_sample(rtt as f64);
    }

    /// wVegas changes the window once per round (`on_round_end`), not per ACK.
    fn increase(_c: &mut Connection<Self>, _sf: usize, _now: Nanos, _units: f64) {}

    fn on_round_end(c: &mut Connection<Self>, sf: usize, _now: Nanos) {
        if c.paths[sf].in_recovery {
            return; // Linux runs wVegas only in TCP_CA_Open
        }
        let floor_before = crate::connection::whole_segments(c.paths[sf].cwnd);
        let set = c.own_coupling_set(sf);
        let in_ss = c.in_slow_start(sf);
        let p = c.algo.params;
        if round_end(&mut c.paths, sf, set, &p, in_ss) {
            c.increase_reno(sf, 1.0);
        }
        let min = c.min_ssthresh(set.len());
        let s = &mut c.paths[sf];
        s.ssthresh = s.ssthresh.max(min);
        c.note_window_change(sf, floor_before);
    }

    fn on_recovery_exit(&self, path: &mut WVegasState) {
        path.reset(&self.params);
    }

    fn on_timeout(&self, path: &mut WVegasState) {
        path.reset(&self.params);
    }
}
