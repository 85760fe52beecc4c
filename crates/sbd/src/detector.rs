//! One interface over the detectors ([`Detector`]) and the one loop every user of them runs
//! ([`FilteredDetector`]): each evaluation's observation goes to MPTCP-SBD's decision filter
//! ([S0] §III-B ③), and when the detector restarted its memory (the change test,
//! `SbdParams::change_detect`) the filter restarts its window first, so that it forgets the
//! observations of the bottleneck that changed. The simulator's receiver and sender check,
//! the QUIC sender, the kernel's SBD daemon, captures and trace replays all run this loop;
//! what each does with the observations and decisions (records, MP_GROUP options, coupling
//! sets) stays with it.

use crate::filter::{Decision, DecisionFilter, FilterParams};
use crate::observation::Observation;
use crate::rfc8382::Rfc8382Detector;
use crate::trend::TrendLineDetector;

/// A shared bottleneck detector: samples in, one [`Observation`] per evaluation out. Time is
/// passed in as nanoseconds and must not decrease.
pub trait Detector {
    /// Flows are `0..n_flows()`.
    fn n_flows(&self) -> usize;
    /// One delay sample: a relative one-way delay (any constant offset), or a round-trip time
    /// where that is what the vantage point gives (RFC 8382's statistics take either; the
    /// trend line is defined on RTT).
    fn on_delay(&mut self, flow: usize, now_ns: u64, delay_ns: i64);
    /// One lost packet (detectors without a loss statistic ignore it).
    fn on_loss(&mut self, flow: usize, now_ns: u64);
    /// One packet without a delay sample (thinned out): counts for the loss ratio only.
    fn on_unsampled(&mut self, flow: usize, now_ns: u64);
    /// Runs the next evaluation due by `now_ns`; `Some` when it made an observation (call in
    /// a loop before feeding samples of time `now_ns`).
    fn poll(&mut self, now_ns: u64) -> Option<&Observation>;
    /// The last observation made.
    fn last_observation(&self) -> &Observation;
    /// Memory restarts so far; the filter restarts its window when this grows.
    fn memory_restarts(&self) -> u64 {
        0
    }
    /// Evaluations run (intervals or windows closed), with or without an observation.
    fn evaluations(&self) -> u64;
}

impl Detector for Rfc8382Detector {
    fn n_flows(&self) -> usize {
        Rfc8382Detector::n_flows(self)
    }
    #[inline]
    fn on_delay(&mut self, flow: usize, now_ns: u64, delay_ns: i64) {
        self.on_owd_sample(flow, now_ns, delay_ns);
    }
    fn on_loss(&mut self, flow: usize, now_ns: u64) {
        Rfc8382Detector::on_loss(self, flow, now_ns);
    }
    fn on_unsampled(&mut self, flow: usize, now_ns: u64) {
        self.on_unsampled_packet(flow, now_ns);
    }
    fn poll(&mut self, now_ns: u64) -> Option<&Observation> {
        Rfc8382Detector::poll(self, now_ns)
    }
    fn last_observation(&self) -> &Observation {
        Rfc8382Detector::last_observation(self)
    }
    fn memory_restarts(&self) -> u64 {
        Rfc8382Detector::memory_restarts(self)
    }
    fn evaluations(&self) -> u64 {
        self.intervals_closed()
    }
}

impl Detector for TrendLineDetector {
    fn n_flows(&self) -> usize {
        self.fits().len()
    }
    fn on_delay(&mut self, flow: usize, now_ns: u64, delay_ns: i64) {
        self.on_rtt_sample(flow, now_ns, delay_ns.max(0) as u64);
    }
    /// The trend line reads delay only ([S2] §4.3).
    fn on_loss(&mut self, _flow: usize, _now_ns: u64) {}
    fn on_unsampled(&mut self, _flow: usize, _now_ns: u64) {}
    fn poll(&mut self, now_ns: u64) -> Option<&Observation> {
        TrendLineDetector::poll(self, now_ns)
    }
    fn last_observation(&self) -> &Observation {
        TrendLineDetector::last_observation(self)
    }
    fn evaluations(&self) -> u64 {
        TrendLineDetector::evaluations(self)
    }
}

/// What one evaluation gave: read the observation and decision from the [`FilteredDetector`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The detector restarted its memory at this evaluation, and the filter its window.
    pub restarted: bool,
    /// The filter made a decision ([`FilteredDetector::decision`]).
    pub decided: bool,
}

/// A detector and MPTCP-SBD's decision filter, restarted with the detector's memory.
#[derive(Clone, Debug)]
pub struct FilteredDetector<D> {
    detector: D,
    filter: DecisionFilter,
    /// The detector's memory restarts already passed on to the filter.
    restarts: u64,
}

impl<D: Detector> FilteredDetector<D> {
    pub fn new(detector: D, filter: FilterParams) -> Self {
        let n = detector.n_flows();
        FilteredDetector { detector, filter: DecisionFilter::new(filter, n), restarts: 0 }
    }

    /// Runs the next evaluation due by `now_ns` and passes its observation to the filter;
    /// call in a loop before feeding samples of time `now_ns`.
    pub fn poll(&mut self, now_ns: u64) -> Option<Step> {
        self.detector.poll(now_ns)?;
        let restarted = self.detector.memory_restarts() != self.restarts;
        if restarted {
            // The observations in the filter's window describe the old bottleneck.
            self.restarts = self.detector.memory_restarts();
            self.filter.restart();
        }
        let decided = self.filter.push(self.detector.last_observation()).is_some();
        Some(Step { restarted, decided })
    }

    #[inline]
    pub fn on_delay(&mut self, flow: usize, now_ns: u64, delay_ns: i64) {
        self.detector.on_delay(flow, now_ns, delay_ns);
    }

    pub fn on_loss(&mut self, flow: usize, now_ns: u64) {
        self.detector.on_loss(flow, now_ns);
    }

    pub fn on_unsampled(&mut self, flow: usize, now_ns: u64) {
        self.detector.on_unsampled(flow, now_ns);
    }

    /// The observation of the last evaluation.
    pub fn observation(&self) -> &Observation {
        self.detector.last_observation()
    }

    /// The decision in force (all zeros before the first).
    pub fn decision(&self) -> &Decision {
        self.filter.current()
    }

    pub fn decisions_made(&self) -> u64 {
        self.filter.decisions_made()
    }

    pub fn detector(&self) -> &D {
        &self.detector
    }

    pub fn detector_mut(&mut self) -> &mut D {
        &mut self.detector
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::SbdParams;

    /// The loop by hand, as each user wrote it before: the filtered detector must give the
    /// same observations and decisions, restarts included.
    #[test]
    fn the_filtered_detector_is_the_detector_and_filter_loop_with_restarts() {
        let n = 3;
        let mut by_hand = Rfc8382Detector::new(SbdParams::pathpool(), n);
        let mut filter = DecisionFilter::new(FilterParams::default(), n);
        let mut restarts = 0;
        let mut shared = FilteredDetector::new(Rfc8382Detector::new(SbdParams::pathpool(), n), FilterParams::default());
        let (mut expected, mut got) = (Vec::new(), Vec::new());
        let mut saw_restart = false;
        for i in 0..200_000u64 {
            let now = i * 1_000_000;
            // Flows 0 and 1 behind one slow queue for 100 s, then flow 1 moves to flow 2's.
            let queue = |phase: u64| ((now / 1_000_000 + phase) % 4_000) as i64 * 5_000;
            let owd = |flow: usize| -> i64 {
                let moved = now >= 100_000_000_000;
                let phase = match (flow, moved) {
                    (0, _) | (1, false) => 0,
                    _ => 1_700,
                };
                queue(phase) + ((i * 7 + flow as u64 * 13) % 97) as i64 * 20_000
            };
            while let Some(o) = by_hand.poll(now) {
                expected.push((o.clone(), None));
                if by_hand.memory_restarts() != restarts {
                    restarts = by_hand.memory_restarts();
                    filter.restart();
                }
                if let Some(d) = filter.push(by_hand.last_observation()) {
                    expected.last_mut().unwrap().1 = Some(d.clone());
                }
            }
            while let Some(step) = shared.poll(now) {
                saw_restart |= step.restarted;
                got.push((shared.observation().clone(), step.decided.then(|| shared.decision().clone())));
            }
            for flow in 0..n {
                by_hand.on_owd_sample(flow, now, owd(flow));
                shared.on_delay(flow, now, owd(flow));
            }
        }
        assert!(expected.iter().filter(|e| e.1.is_some()).count() > 20);
        assert_eq!(got, expected);
        assert!(saw_restart && restarts > 0, "the move restarts the memory");
    }
}
