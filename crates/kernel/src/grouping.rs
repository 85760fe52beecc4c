//! The SBD daemon's decisions without the kernel: RTT samples of (token, subflow id) in, each
//! connection's subflow groups out. Per connection: pathpool-sbd's RFC 8382 detector with S0's
//! parameters and the delay-correlation split, on RTT as the delay signal, then S0's decision
//! filter (docs/kernel.md, "The SBD daemon").

use pathpool_sbd::{DecisionFilter, FilterParams, Rfc8382Detector, SbdParams};
use std::collections::BTreeMap;

/// Linux MPTCP's subflow limit: the detector's flow slots per connection.
pub const SLOTS: usize = 8;

/// One decision for one connection: (subflow id, group) in order of first sample, and the
/// previous decision's groups (None before the first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupDecision {
    pub token: u32,
    pub groups: Vec<(u32, u32)>,
    pub previous: Option<Vec<(u32, u32)>>,
}

impl GroupDecision {
    pub fn changed(&self) -> bool {
        self.previous.as_ref() != Some(&self.groups)
    }
}

struct Conn {
    ids: Vec<u32>,
    det: Rfc8382Detector,
    filter: DecisionFilter,
    groups: Option<Vec<(u32, u32)>>,
    last_ns: u64,
    /// The detector's memory restarts seen (the change detector's; the filter restarts with them).
    restarts: u64,
}

/// The detectors of every connection seen.
pub struct ConnGroups {
    params: SbdParams,
    conns: BTreeMap<u32, Conn>,
}

impl Default for ConnGroups {
    fn default() -> Self {
        // The delay-correlation split separates disjoint bottlenecks of similar load (docs/sbd.md).
        ConnGroups { params: SbdParams { corr_split: true, ..SbdParams::mptcp_sbd() }, conns: BTreeMap::new() }
    }
}

impl ConnGroups {
    /// One RTT sample (`ts_ns` on any monotonic clock); returns the decisions it completed.
    /// A ninth subflow of a connection is ignored.
    pub fn on_sample(&mut self, token: u32, subflow: u32, ts_ns: u64, rtt_us: u32, out: &mut Vec<GroupDecision>) {
        let params = &self.params;
        let c = self.conns.entry(token).or_insert_with(|| Conn {
            ids: Vec::new(),
            det: Rfc8382Detector::new(params.clone(), SLOTS),
            filter: DecisionFilter::new(FilterParams::default(), SLOTS),
            groups: None,
            last_ns: 0,
            restarts: 0,
        });
        let slot = match c.ids.iter().position(|&x| x == subflow) {
            Some(s) => s,
            None if c.ids.len() < SLOTS => {
                c.ids.push(subflow);
                c.ids.len() - 1
            }
            None => return,
        };
        // Samples of different CPUs may arrive slightly out of order: time never goes back.
        let now = ts_ns.max(c.last_ns);
        c.last_ns = now;
        while let Some(obs) = c.det.poll(now) {
            let obs = obs.clone();
            if c.det.memory_restarts() != c.restarts {
                // The change detector restarted the detector's memory (`change_detect`), as
                // pathpool-sbd's replay does: the filter starts over with it.
                c.restarts = c.det.memory_restarts();
                c.filter.restart();
            }
            if let Some(d) = c.filter.push(&obs) {
                let groups: Vec<(u32, u32)> = c.ids.iter().copied().zip(d.groups.iter().copied()).collect();
                out.push(GroupDecision { token, groups: groups.clone(), previous: c.groups.replace(groups) });
            }
        }
        c.det.on_owd_sample(slot, now, i64::from(rtt_us) * 1000);
    }

    /// Forgets the connections for which `ended(token, last sample time)` holds; returns them.
    pub fn forget(&mut self, mut ended: impl FnMut(u32, u64) -> bool) -> Vec<u32> {
        let gone: Vec<u32> = self.conns.iter().filter(|(t, c)| ended(**t, c.last_ns)).map(|(t, _)| *t).collect();
        for t in &gone {
            self.conns.remove(t);
        }
        gone
    }

    pub fn len(&self) -> usize {
        self.conns.len()
    }

    pub fn is_empty(&self) -> bool {
        self.conns.is_empty()
    }
}
