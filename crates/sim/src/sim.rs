//! The simulation's state. Building it, running it and reading its results are in the
//! files of `sim/`: `build.rs` (elements, flows, probes), `run.rs` (the event loop and the
//! path of a packet), `results.rs` (statistics), `probes.rs` (time series), `mptcp.rs`
//! (MPTCP connections: building, the hooks the loop calls, results) and `capture.rs`.

mod build;
pub use build::host_latency;
mod capture;
mod lead_in;
mod merge;
mod mptcp;
mod probes;
mod results;
mod run;

use std::collections::BTreeSet;

use pathpool_cc::Controller;

use crate::element::Element;
use crate::event::EventQueue;
use crate::mptcp::engine::MptcpLayer;
use crate::packet::PacketId;
use crate::pool::PacketPool;
use crate::probe::ProbeSeries;
use crate::queue::QueueCounters;
use crate::route::RouteTable;
use crate::stats::FlowSnapshot;
use crate::time::Time;

#[derive(Clone, Copy, Debug)]
enum FlowEntry {
    Tcp { sender: u32, receiver: u32 },
    Udp { source: u32, sink: u32 },
}

/// Target of events that belong to the simulation itself (probes).
const SIM_TARGET: u32 = u32::MAX;

struct Mark {
    time: Time,
    flows: Vec<FlowSnapshot>,
    queues: Vec<QueueCounters>,
}

pub struct Simulation {
    seed: u64,
    pub(crate) now: Time,
    pub(crate) elements: Vec<Element>,
    pub(crate) events: EventQueue,
    pub(crate) pool: PacketPool,
    routes: RouteTable,
    pub(crate) outbox: Vec<PacketId>,
    /// When the event being handled was scheduled: a queue decides with it whether a
    /// departure at the same instant came before (event.rs).
    cause: Time,
    /// One congestion controller per connection (a TCP flow is a one-subflow connection).
    pub(crate) controllers: Vec<Controller>,
    pub(crate) mptcp: MptcpLayer,
    /// Per element: the controller its sender uses (u32::MAX: none), for prefetching.
    controller_of: Vec<u32>,
    flows: Vec<FlowEntry>,
    queues: Vec<u32>,
    probe_interval: Option<Time>,
    series: ProbeSeries,
    probe_prev_flows: Vec<FlowSnapshot>,
    probe_prev_queues: Vec<QueueCounters>,
    mark: Option<Mark>,
    /// Packet capture at the hosts (`crate::capture`), None unless enabled.
    pub(crate) capture: Option<Box<crate::capture::Capture>>,
    /// Fold the pipes that can be folded into their queues (crate::lead_in) before the
    /// first event; decided yet; the (pipe, queue) pairs folded.
    fold_lead_ins: bool,
    lead_ins_decided: bool,
    lead_ins: BTreeSet<(u32, u32)>,
    /// Queues that take several hosts' delays (sim/merge.rs).
    merge: merge::Merged,
}

impl Simulation {
    /// An empty network; `seed` is the master seed of every random stream.
    pub fn new(seed: u64) -> Self {
        Simulation {
            seed,
            now: 0,
            elements: Vec::new(),
            events: EventQueue::new(),
            pool: PacketPool::new(),
            routes: RouteTable::new(),
            outbox: Vec::with_capacity(64),
            cause: 0,
            controllers: Vec::new(),
            mptcp: MptcpLayer::default(),
            controller_of: Vec::new(),
            flows: Vec::new(),
            queues: Vec::new(),
            probe_interval: None,
            series: ProbeSeries::default(),
            probe_prev_flows: Vec::new(),
            probe_prev_queues: Vec::new(),
            mark: None,
            capture: None,
            fold_lead_ins: true,
            lead_ins_decided: false,
            lead_ins: BTreeSet::new(),
            merge: merge::Merged::default(),
        }
    }

    /// Whether pipes at the start of routes are folded into the queue after them where that
    /// gives the same timeline (crate::lead_in; on by default). Off, every such pipe costs an
    /// event per packet, as before; the results are the same either way (tests/lead_in.rs).
    /// Has an effect only before the first `run_until`.
    pub fn set_fold_lead_ins(&mut self, on: bool) {
        self.fold_lead_ins = on;
    }

    pub fn now(&self) -> Time {
        self.now
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }
}
