//! What a run produced, in the scenario's terms (flow and link names, Mb/s, packets): the
//! simulator's statistics translated once, so the writers need not know the simulator.

/// One flow copy over the measurement window [warm-up, end).
#[derive(Clone, Debug, PartialEq)]
pub struct FlowOutcome {
    pub name: String,
    /// Long-lived TCP flows (traffic = "bulk"): the ones Jain's index is taken over.
    pub bulk: bool,
    /// Goodput at the receiver.
    pub throughput_mbps: f64,
    pub delivered_bytes: u64,
    /// Packets retransmitted. None where the backend does not count them (the `quic`
    /// backend: docs/quic.md), so that no summary shows a count nobody measured.
    pub retransmissions: Option<u64>,
    /// Fast-retransmit recoveries entered: window halvings by loss (timeouts apart).
    /// None where the backend cannot attribute recoveries to the flow (docs/testbed.md) or
    /// does not count them (docs/quic.md).
    pub fast_retransmits: Option<u64>,
    /// Retransmission timeouts (RTO expiries). None where the backend does not count them.
    pub timeouts: Option<u64>,
}

/// One direction of one link over the measurement window.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkOutcome {
    /// `NAME` for the forward direction, `NAME.reverse` for the other.
    pub name: String,
    /// Busy time of the transmitter over the window's length.
    pub utilization: f64,
    pub drops: u64,
    /// Time-average occupancy in packets.
    pub mean_queue_packets: f64,
}

/// One probe interval's values, in time order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Series {
    /// End of each interval, in seconds.
    pub times: Vec<f64>,
    /// Per flow (as in `Outcome::flows`), per interval: goodput in Mb/s.
    pub flow_throughput_mbps: Vec<Vec<f64>>,
    /// Per flow, per interval: congestion window in packets at the interval's end (0 for UDP).
    pub flow_cwnd_packets: Vec<Vec<f64>>,
    /// Columns a backend measures beyond the simulator's, written to flows.csv after the
    /// common ones (the testbed: srtt, bytes acknowledged, retransmissions from TCP_INFO).
    pub flow_extra: Vec<ExtraColumn>,
    /// Per link direction (as in `Outcome::links`), per interval: queue length in packets at
    /// the interval's end.
    pub link_queue_packets: Vec<Vec<f64>>,
    /// Per link direction, per interval: packets dropped during the interval.
    pub link_drops: Vec<Vec<u64>>,
}

/// One extra flows.csv column: per flow, per interval (as `Series::flow_cwnd_packets`).
#[derive(Clone, Debug, PartialEq)]
pub struct ExtraColumn {
    pub name: &'static str,
    pub values: Vec<Vec<f64>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Multipath connections and the metrics that compare them with TCP.
    pub multipath: Option<crate::mptcp_outcome::Multipath>,
    pub seed: u64,
    pub duration_s: f64,
    pub warmup_s: f64,
    pub flows: Vec<FlowOutcome>,
    pub links: Vec<LinkOutcome>,
    /// Index into `links` of the bottleneck's forward direction.
    pub bottleneck: Option<usize>,
    /// Packets that left the bottleneck's forward queue over the whole run (warm-up
    /// included): data packets, plus ACKs of flows whose ACKs return that way. The numerator
    /// of the speed benchmarks' packets-per-second.
    pub bottleneck_data_packets: Option<u64>,
    pub events: u64,
    pub series: Series,
    /// Flows with `log_delays = true`, in flow order.
    pub delay_traces: Vec<crate::delay_trace::DelayTrace>,
    /// Wall-clock seconds the simulation took (never part of the deterministic output).
    pub wall_seconds: f64,
    /// What ran, beside the numbers: the host model and SBD detector presets.
    pub ran: Ran,
    /// Warnings about what the numbers can be trusted for (`crate::phase_lock`).
    pub warnings: Vec<String>,
    /// On real Linux: what the kernel's controllers met during the run that distorts it (a
    /// window above 65535 segments that they did not write; docs/kernel.md).
    pub kernel_warnings: Vec<String>,
}

/// The settings a reader needs to interpret a run, recorded in summary.json.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ran {
    /// The backend that ran it, as `pathpool run --backend` names it ("sim", "linux", "quic").
    pub backend: &'static str,
    /// The simulator's host model (`simulation.hosts`); None on a real stack.
    pub hosts: Option<&'static str>,
    /// The congestion control of the multipath connections (`cc` as the scenario names it),
    /// without repeats, in flow order.
    pub schemes: Vec<String>,
    /// The detector presets of the MPTCP-SBD connections, without repeats, in flow order.
    pub sbd_detectors: Vec<&'static str>,
}

impl Ran {
    /// What a run of scenario `l` on the simulator runs.
    pub fn simulator(l: &crate::Loaded) -> Ran {
        Ran { backend: "sim", hosts: Some(l.scenario.simulation.hosts.name()), ..Ran::real(l) }
    }

    /// What a run of scenario `l` on the testbed runs: real Linux hosts.
    pub fn testbed(l: &crate::Loaded) -> Ran {
        Ran { backend: "linux", hosts: Some("real-linux"), ..Ran::real(l) }
    }

    /// What a run of scenario `l` on a real stack runs (the host is the real one); the
    /// caller names the backend.
    pub fn real(l: &crate::Loaded) -> Ran {
        let mut sbd_detectors = Vec::new();
        let mut schemes: Vec<String> = Vec::new();
        for f in &l.scenario.flows {
            if let crate::schema::FlowKind::Mptcp(m) = &f.kind {
                if !schemes.contains(&m.cc.value) {
                    schemes.push(m.cc.value.clone());
                }
                if let Some(p) = crate::mptcp::detector_preset(m) {
                    if !sbd_detectors.contains(&p) {
                        sbd_detectors.push(p);
                    }
                }
            }
        }
        Ran { backend: "", hosts: None, schemes, sbd_detectors }
    }
}
