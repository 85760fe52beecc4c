//! Offline replay of logged packets through a detector: turns per-packet rows (in any order)
//! into a time-ordered event stream and collects every observation and decision. Used by the
//! command line and the validation; it allocates freely (it is not a per-packet path).

use crate::filter::{DecisionFilter, FilterParams};
use crate::observation::Observation;
use crate::params::SbdParams;
use crate::rfc8382::Rfc8382Detector;
use crate::tracegen::{OwdRow, RttRow};
use crate::trend::{TrendLineDetector, TrendParams};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    Owd { flow: usize, now_ns: u64, owd_ns: i64 },
    Loss { flow: usize, now_ns: u64 },
    Rtt { flow: usize, now_ns: u64, rtt_ns: u64 },
}

impl Event {
    pub fn now_ns(&self) -> u64 {
        match *self {
            Event::Owd { now_ns, .. } | Event::Loss { now_ns, .. } | Event::Rtt { now_ns, .. } => now_ns,
        }
    }
}

/// The receiver-side events of one-way-delay rows, ordered by receive time (ties keep row
/// order). Times are relative to the earliest event; the returned origin is that event's
/// receiver-clock time in µs. A lost packet has no receive time: it is placed at its send time
/// plus the relative OWD of the flow's nearest earlier delivered packet (in send order), or the
/// nearest later one. A flow with no delivered packet contributes nothing.
pub fn owd_events(rows: &[OwdRow], n_flows: usize) -> (Vec<Event>, i64) {
    let mut by_flow: Vec<Vec<usize>> = vec![Vec::new(); n_flows];
    for (i, r) in rows.iter().enumerate() {
        by_flow[r.flow].push(i);
    }
    // (receiver-clock µs, row index, event with a relative time filled in below)
    let mut timed: Vec<(i64, usize, Event)> = Vec::with_capacity(rows.len());
    for (flow, idx) in by_flow.iter_mut().enumerate() {
        idx.sort_by_key(|&i| (rows[i].send_us, i));
        let Some(first) = idx.iter().find(|&&i| !rows[i].lost) else {
            continue;
        };
        let base_owd = rows[*first].recv_us - rows[*first].send_us;
        let mut offset = base_owd;
        for &i in idx.iter() {
            let r = &rows[i];
            if r.lost {
                timed.push((r.send_us.saturating_add(offset), i, Event::Loss { flow, now_ns: 0 }));
            } else {
                offset = r.recv_us.saturating_sub(r.send_us);
                let owd_ns = offset.saturating_sub(base_owd).saturating_mul(1000);
                timed.push((r.recv_us, i, Event::Owd { flow, now_ns: 0, owd_ns }));
            }
        }
    }
    finish(timed)
}

/// Sender-side events of RTT rows, ordered by ACK time. Times saturate rather than wrap, so a
/// wild timestamp shows up as a huge span (which callers should refuse), never as a panic.
pub fn rtt_events(rows: &[RttRow]) -> (Vec<Event>, i64) {
    let timed = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            (r.ack_us, i, Event::Rtt { flow: r.flow, now_ns: 0, rtt_ns: (r.rtt_us.max(0) as u64).saturating_mul(1000) })
        })
        .collect();
    finish(timed)
}

fn finish(mut timed: Vec<(i64, usize, Event)>) -> (Vec<Event>, i64) {
    timed.sort_by_key(|&(t, i, _)| (t, i));
    let origin = timed.first().map_or(0, |e| e.0);
    let events = timed
        .into_iter()
        .map(|(t, _, e)| {
            let now_ns = (t as i128 - origin as i128).clamp(0, u64::MAX as i128 / 1000) as u64 * 1000;
            match e {
                Event::Owd { flow, owd_ns, .. } => Event::Owd { flow, now_ns, owd_ns },
                Event::Loss { flow, .. } => Event::Loss { flow, now_ns },
                Event::Rtt { flow, rtt_ns, .. } => Event::Rtt { flow, now_ns, rtt_ns },
            }
        })
        .collect();
    (events, origin)
}

/// Everything a replay produced.
#[derive(Clone, Debug, Default)]
pub struct Replay {
    pub observations: Vec<Observation>,
    pub decisions: Vec<Observation>,
    /// Intervals (RFC 8382) or windows (TR) closed.
    pub evaluations: u64,
}

/// An RFC 8382 detector and its decision filter (restarted with the detector's memory) fed one
/// event at a time, for inputs too large to hold as an event list (packet captures).
pub struct Rfc8382Replay {
    det: Rfc8382Detector,
    filt: DecisionFilter,
    restarts: u64,
    out: Replay,
}

impl Rfc8382Replay {
    pub fn new(params: SbdParams, filter: FilterParams, n_flows: usize) -> Self {
        Rfc8382Replay { det: Rfc8382Detector::new(params, n_flows), filt: DecisionFilter::new(filter, n_flows), restarts: 0, out: Replay::default() }
    }

    /// Closes the intervals that end by `now_ns`; called before each event of time `now_ns`.
    fn advance(&mut self, now_ns: u64) {
        while let Some(o) = self.det.poll(now_ns) {
            self.out.observations.push(o.clone());
            if self.det.memory_restarts() != self.restarts {
                // The change detector restarted the detector's memory (`SbdParams::change_detect`).
                self.restarts = self.det.memory_restarts();
                self.filt.restart();
            }
            if let Some(d) = self.filt.push(self.out.observations.last().expect("just pushed")) {
                self.out.decisions.push(d.clone());
            }
        }
    }

    pub fn owd(&mut self, flow: usize, now_ns: u64, owd_ns: i64) {
        self.advance(now_ns);
        self.det.on_owd_sample(flow, now_ns, owd_ns);
    }

    pub fn loss(&mut self, flow: usize, now_ns: u64) {
        self.advance(now_ns);
        self.det.on_loss(flow, now_ns);
    }

    /// A packet that was thinned out (MPTCP-SBD's sample spacing): counted, not sampled.
    pub fn unsampled(&mut self, flow: usize, now_ns: u64) {
        self.advance(now_ns);
        self.det.on_unsampled_packet(flow, now_ns);
    }

    pub fn observations(&self) -> usize {
        self.out.observations.len()
    }

    /// The last interval is closed only if the input reached its end.
    pub fn finish(mut self) -> Replay {
        self.out.evaluations = self.det.intervals_closed();
        self.out
    }
}

/// Feeds OWD/loss events to an RFC 8382 detector and its decision filter (restarted with the
/// detector's memory). The last interval is closed only if the trace reaches its end.
pub fn run_rfc8382(events: &[Event], params: SbdParams, filter: FilterParams, n_flows: usize) -> Replay {
    let mut r = Rfc8382Replay::new(params, filter, n_flows);
    for e in events {
        match *e {
            Event::Owd { flow, now_ns, owd_ns } => r.owd(flow, now_ns, owd_ns),
            Event::Loss { flow, now_ns } => r.loss(flow, now_ns),
            Event::Rtt { now_ns, .. } => r.advance(now_ns),
        }
    }
    r.finish()
}

/// The trend-line detector fed one RTT sample at a time; each 5-s evaluation is its decision.
pub struct TrendReplay {
    det: TrendLineDetector,
    out: Replay,
}

impl TrendReplay {
    pub fn new(params: TrendParams, n_flows: usize) -> Self {
        TrendReplay { det: TrendLineDetector::new(params, n_flows), out: Replay::default() }
    }

    fn advance(&mut self, now_ns: u64) {
        while let Some(o) = self.det.poll(now_ns) {
            self.out.observations.push(o.clone());
        }
    }

    pub fn rtt(&mut self, flow: usize, now_ns: u64, rtt_ns: u64) {
        self.advance(now_ns);
        self.det.on_rtt_sample(flow, now_ns, rtt_ns);
    }

    pub fn observations(&self) -> usize {
        self.out.observations.len()
    }

    pub fn finish(mut self) -> Replay {
        self.out.decisions = self.out.observations.clone();
        self.out.evaluations = self.det.evaluations();
        self.out
    }
}

/// Feeds RTT events to the trend-line detector; each 5-s evaluation is its decision.
pub fn run_trend(events: &[Event], params: TrendParams, n_flows: usize) -> Replay {
    let mut r = TrendReplay::new(params, n_flows);
    for e in events {
        match *e {
            Event::Rtt { flow, now_ns, rtt_ns } => r.rtt(flow, now_ns, rtt_ns),
            _ => r.advance(e.now_ns()),
        }
    }
    r.finish()
}

/// Correct decisions at or after `warmup_ns` and their total, judged as [S0] §IV-B does: shared
/// = all flows in one bottleneck group; not shared = every flow in a bottleneck group of its
/// own.
pub fn accuracy(decisions: &[Observation], shared: bool, warmup_ns: u64) -> (usize, usize) {
    let judged: Vec<&Observation> = decisions.iter().filter(|d| d.time_ns >= warmup_ns).collect();
    let correct = judged.iter().filter(|d| if shared { d.all_shared() } else { d.all_separate() }).count();
    (correct, judged.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_time_ordered_relative_and_losses_take_the_flow_offset() {
        let rows = [
            OwdRow { flow: 1, send_us: 100, recv_us: 5_150, lost: false },
            OwdRow { flow: 0, send_us: 110, recv_us: 5_140, lost: false },
            OwdRow { flow: 0, send_us: 120, recv_us: 0, lost: true },
            OwdRow { flow: 0, send_us: 130, recv_us: 5_170, lost: false },
        ];
        let (ev, origin) = owd_events(&rows, 2);
        assert_eq!(origin, 5_140);
        assert_eq!(
            ev,
            [
                Event::Owd { flow: 0, now_ns: 0, owd_ns: 0 },
                Event::Owd { flow: 1, now_ns: 10_000, owd_ns: 0 },
                Event::Loss { flow: 0, now_ns: 10_000 },
                Event::Owd { flow: 0, now_ns: 30_000, owd_ns: 10_000 },
            ]
        );
    }
}
