//! The ACK delays a peer reported on a path, as noq's RTT estimator subtracted them from the
//! RTT samples (a diagnostic: pathpool's controllers use the samples with them included).

/// Summary of the ACK delays noq subtracted from a path's RTT samples.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AckDelayStats {
    pub samples: u64,
    pub sum_ns: u64,
    pub max_ns: u64,
    /// Samples above 1 ms.
    pub over_1ms: u64,
}

impl AckDelayStats {
    pub(crate) fn add(&mut self, ns: u64) {
        self.samples += 1;
        self.sum_ns = self.sum_ns.saturating_add(ns);
        self.max_ns = self.max_ns.max(ns);
        self.over_1ms += u64::from(ns > 1_000_000);
    }

    /// Adds another path's counts.
    pub fn merge(&mut self, o: &AckDelayStats) {
        self.samples += o.samples;
        self.sum_ns = self.sum_ns.saturating_add(o.sum_ns);
        self.max_ns = self.max_ns.max(o.max_ns);
        self.over_1ms += o.over_1ms;
    }
}
