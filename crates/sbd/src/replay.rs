//! Offline replay of logged packets through a detector: feeds a time-ordered event stream
//! (made from trace rows by `pathpool_trace::events`, or streamed from a capture) and collects
//! every observation and decision. Used by the command line and the validation; it allocates
//! freely (it is not a per-packet path).

use crate::detector::{Detector, FilteredDetector};
use crate::filter::FilterParams;
use crate::observation::Observation;
use crate::params::SbdParams;
use crate::rfc8382::Rfc8382Detector;
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

/// Everything a replay produced.
#[derive(Clone, Debug, Default)]
pub struct Replay {
    pub observations: Vec<Observation>,
    pub decisions: Vec<Observation>,
    /// Intervals (RFC 8382) or windows (TR) closed.
    pub evaluations: u64,
}

/// A detector and its decision filter ([`FilteredDetector`]) fed one event at a time, for
/// inputs too large to hold as an event list (packet captures).
pub struct FilteredReplay<D> {
    sbd: FilteredDetector<D>,
    out: Replay,
}

/// The RFC 8382 detector's replay.
pub type Rfc8382Replay = FilteredReplay<Rfc8382Detector>;

/// Flows one replay analyses at most: the decision filter and the change test keep state per
/// pair of flows (n x n entries, [`PAIR_BYTES`] each), 200 MB at this many.
pub const MAX_FLOWS: usize = 4096;

/// Bytes of per-pair state (the filter's `together` u16, the change test's streak u16 and
/// parted f64).
pub const PAIR_BYTES: usize = 12;

/// Refuses more flows than [`MAX_FLOWS`] before anything is allocated, naming the limit and
/// the memory the pairs would take.
pub fn check_flows(n_flows: usize) -> Result<(), String> {
    if n_flows > MAX_FLOWS {
        let mb = (n_flows as f64).powi(2) * PAIR_BYTES as f64 / 1e6;
        return Err(format!(
            "{n_flows} flows; the detector keeps state per pair of flows ({n_flows} x {n_flows} x {PAIR_BYTES} bytes, {mb:.0} MB), so at most {MAX_FLOWS} flows are analysed at once: split the input by flow"
        ));
    }
    Ok(())
}

impl Rfc8382Replay {
    pub fn new(params: SbdParams, filter: FilterParams, n_flows: usize) -> Self {
        FilteredReplay::of(Rfc8382Detector::new(params, n_flows), filter)
    }
}

impl<D: Detector> FilteredReplay<D> {
    pub fn of(detector: D, filter: FilterParams) -> Self {
        FilteredReplay { sbd: FilteredDetector::new(detector, filter), out: Replay::default() }
    }

    /// Runs the evaluations that end by `now_ns`; called before each event of time `now_ns`.
    fn advance(&mut self, now_ns: u64) {
        while let Some(step) = self.sbd.poll(now_ns) {
            self.out.observations.push(self.sbd.observation().clone());
            if step.decided {
                self.out.decisions.push(self.sbd.decision().clone());
            }
        }
    }

    pub fn owd(&mut self, flow: usize, now_ns: u64, owd_ns: i64) {
        self.advance(now_ns);
        self.sbd.on_delay(flow, now_ns, owd_ns);
    }

    pub fn loss(&mut self, flow: usize, now_ns: u64) {
        self.advance(now_ns);
        self.sbd.on_loss(flow, now_ns);
    }

    /// A packet that was thinned out (MPTCP-SBD's sample spacing): counted, not sampled.
    pub fn unsampled(&mut self, flow: usize, now_ns: u64) {
        self.advance(now_ns);
        self.sbd.on_unsampled(flow, now_ns);
    }

    pub fn observations(&self) -> usize {
        self.out.observations.len()
    }

    /// The last interval is closed only if the input reached its end.
    pub fn finish(mut self) -> Replay {
        self.out.evaluations = self.sbd.detector().evaluations();
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
    fn more_flows_than_the_pair_state_allows_are_refused_naming_the_limit_and_the_memory() {
        assert!(check_flows(MAX_FLOWS).is_ok());
        let e = check_flows(100_000).unwrap_err();
        assert!(e.contains("100000 flows") && e.contains("at most 4096") && e.contains("120000 MB"), "{e}");
    }
}
