//! The periodic probe: per-flow and per-queue time series, one sample per interval.

use super::{Simulation, SIM_TARGET};
use crate::element::Element;
use crate::ids::{ElementId, FlowId};
use crate::event::EventKind;
use crate::probe::{FlowSeries, QueueSeries};
use crate::queue::QueueCounters;
use crate::stats::rate_bps;

impl Simulation {
    pub(super) fn sample_probes(&mut self) {
        let Some(every) = self.probe_interval else { return };
        let now = self.now;
        let s = &mut self.series;
        s.times.push(now);
        if s.flows.len() < self.flows.len() {
            for f in s.flows.len()..self.flows.len() {
                s.flows.push(FlowSeries { flow: FlowId(f as u32), ..FlowSeries::default() });
            }
        }
        for f in 0..self.flows.len() {
            let snap = self.flow_snapshot(f);
            let d = snap.minus(&self.probe_prev_flows[f]);
            self.probe_prev_flows[f] = snap;
            let cwnd = self.current_cwnd(f);
            let fs = &mut self.series.flows[f];
            // Flows added after probing began get zeros for the intervals before.
            while fs.cwnd.len() + 1 < self.series.times.len() {
                fs.throughput_bps.push(0.0);
                fs.delivered_packets.push(0);
                fs.cwnd.push(0.0);
                fs.retransmissions.push(0);
            }
            fs.throughput_bps.push(rate_bps(d.delivered_bytes, every));
            fs.delivered_packets.push(d.delivered_packets);
            fs.cwnd.push(cwnd);
            fs.retransmissions.push(d.retransmissions);
        }
        while self.probe_prev_queues.len() < self.queues.len() {
            self.probe_prev_queues.push(QueueCounters::default());
        }
        for (i, &q) in self.queues.iter().enumerate() {
            let queue = match &self.elements[q as usize] {
                Element::Queue(x) => x,
                _ => unreachable!(),
            };
            // A departure at exactly this instant counts if it would have come before the
            // probe (event.rs); otherwise in the next interval.
            let c = queue.counters_at(now, self.cause);
            let prev = self.probe_prev_queues[i];
            self.probe_prev_queues[i] = c;
            if self.series.queues.len() <= i {
                self.series.queues.push(QueueSeries { queue: ElementId(q), ..QueueSeries::default() });
            }
            let qs = &mut self.series.queues[i];
            while qs.drops.len() + 1 < self.series.times.len() {
                qs.mean_packets.push(0.0);
                qs.mean_bytes.push(0.0);
                qs.packets.push(0);
                qs.drops.push(0);
                qs.arrivals.push(0);
                qs.utilisation.push(0.0);
            }
            let w = every as f64;
            qs.mean_packets.push((c.area_packets - prev.area_packets) as f64 / w);
            qs.mean_bytes.push((c.area_bytes - prev.area_bytes) as f64 / w);
            qs.packets.push(queue.len_packets_at(now, self.cause) as u64);
            qs.drops.push(c.drops - prev.drops);
            qs.arrivals.push(c.arrivals - prev.arrivals);
            qs.utilisation.push((c.busy_time - prev.busy_time) as f64 / w);
        }
        self.events.schedule(now + every, SIM_TARGET, EventKind::Probe);
    }
}
