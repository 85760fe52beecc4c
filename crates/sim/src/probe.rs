//! Time series recorded every probe interval: per-flow throughput and cwnd, per-queue
//! occupancy, drops and utilisation. Each sample describes the interval that ends at its
//! time stamp.

use crate::time::Time;
use crate::{ElementId, FlowId};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct FlowSeries {
    pub flow: FlowId,
    /// Delivered (goodput) rate over the interval.
    pub throughput_bps: Vec<f64>,
    pub delivered_packets: Vec<u64>,
    /// cwnd at the end of the interval (segments; 0 for UDP).
    pub cwnd: Vec<f64>,
    pub retransmissions: Vec<u64>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct QueueSeries {
    pub queue: ElementId,
    /// Time-average occupancy over the interval.
    pub mean_packets: Vec<f64>,
    pub mean_bytes: Vec<f64>,
    /// Occupancy at the end of the interval.
    pub packets: Vec<u64>,
    pub drops: Vec<u64>,
    pub arrivals: Vec<u64>,
    pub utilisation: Vec<f64>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProbeSeries {
    pub interval: Time,
    /// End of each sampled interval.
    pub times: Vec<Time>,
    pub flows: Vec<FlowSeries>,
    pub queues: Vec<QueueSeries>,
}
