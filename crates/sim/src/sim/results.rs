//! Reading a simulation's results: per-flow and per-queue statistics over the measurement
//! window (from the warm-up mark), and what else tests and outputs read.

use super::{FlowEntry, Mark, Simulation};
use crate::element::Element;
use crate::ids::{ElementId, FlowId};
use crate::probe::ProbeSeries;
use crate::queue::{Queue, QueueCounters};
use crate::stats::{rate_bps, FlowKind, FlowSnapshot, FlowStats, QueueStats};
use crate::tcp::TcpSender;
use crate::time::Time;

impl Simulation {
    pub(super) fn flow_snapshot(&self, f: usize) -> FlowSnapshot {
        match self.flows[f] {
            FlowEntry::Tcp { sender, receiver } => {
                let (Some(s), Some(r)) = (self.elements[sender as usize].tcp_sender(), self.elements[receiver as usize].tcp_receiver())
                else {
                    unreachable!()
                };
                FlowSnapshot {
                    delivered_packets: r.counters.delivered_packets,
                    delivered_bytes: r.counters.delivered_bytes,
                    sent_packets: s.counters.sent_packets,
                    retransmissions: s.counters.retransmissions,
                    fast_retransmits: s.counters.fast_retransmits,
                    timeouts: s.counters.timeouts,
                    acks_sent: r.counters.acks_sent,
                    cwnd_area: s.cwnd_area_at(self.now),
                }
            }
            FlowEntry::Udp { source, sink } => {
                let (Element::UdpSource(s), Element::UdpSink(k)) =
                    (&self.elements[source as usize], &self.elements[sink as usize])
                else {
                    unreachable!()
                };
                FlowSnapshot {
                    delivered_packets: k.received_packets,
                    delivered_bytes: k.received_bytes,
                    sent_packets: s.counters.sent_packets,
                    ..FlowSnapshot::default()
                }
            }
        }
    }

    fn queue(&self, q: u32) -> &Queue {
        match &self.elements[q as usize] {
            Element::Queue(q) => q,
            _ => panic!("element {q} is not a queue"),
        }
    }

    fn sender(&self, f: usize) -> Option<&TcpSender> {
        match self.flows[f] {
            FlowEntry::Tcp { sender, .. } => self.elements[sender as usize].tcp_sender(),
            FlowEntry::Udp { .. } => None,
        }
    }

    /// The delay log of TCP flow `f` (`TcpFlowConfig::log_delays`), None when it keeps none.
    pub fn delay_log(&self, f: FlowId) -> Option<crate::tcp::DelayLog> {
        let FlowEntry::Tcp { receiver, .. } = self.flows[f.0 as usize] else {
            return None;
        };
        let Some(r) = self.elements[receiver as usize].tcp_receiver() else {
            return None;
        };
        Some(crate::tcp::DelayLog { owd: r.owd_log.clone()?, rtt: self.sender(f.0 as usize)?.rtt_log.clone()? })
    }

    pub(super) fn current_cwnd(&self, f: usize) -> f64 {
        self.sender(f).map_or(0.0, |s| s.effective_cwnd(&self.controllers[s.conn as usize]))
    }

    pub fn flow_count(&self) -> usize {
        self.flows.len()
    }

    /// Statistics of flow `f` over the measurement window. Panics on an id not returned by
    /// this simulation.
    pub fn flow_stats(&self, f: FlowId) -> FlowStats {
        let i = f.0 as usize;
        let (t0, base) = match &self.mark {
            Some(m) => (m.time, m.flows.get(i).copied().unwrap_or_default()),
            None => (0, FlowSnapshot::default()),
        };
        let d = self.flow_snapshot(i).minus(&base);
        let window = self.now - t0;
        let sender = self.sender(i);
        FlowStats {
            kind: if sender.is_some() { FlowKind::Tcp } else { FlowKind::Udp },
            window,
            delivered_packets: d.delivered_packets,
            delivered_bytes: d.delivered_bytes,
            throughput_bps: rate_bps(d.delivered_bytes, window),
            sent_packets: d.sent_packets,
            retransmissions: d.retransmissions,
            fast_retransmits: d.fast_retransmits,
            timeouts: d.timeouts,
            max_consecutive_timeouts: sender.map_or(0, |s| s.counters.max_consecutive_timeouts),
            acks_sent: d.acks_sent,
            cwnd: self.current_cwnd(i),
            mean_cwnd: if window == 0 { 0.0 } else { d.cwnd_area / window as f64 },
            srtt: sender.and_then(|s| s.srtt()).map(crate::time::from_nanos),
            completed_at: sender.and_then(|s| s.counters.completed_at),
        }
    }

    /// Statistics of queue `q` over the measurement window. Panics if `q` is not a queue.
    pub fn queue_stats(&self, q: ElementId) -> QueueStats {
        let c = self.queue(q.0).counters_at(self.now, Time::MAX);
        let (t0, base) = match &self.mark {
            Some(m) => {
                let idx = self.queues.iter().position(|&x| x == q.0).expect("queue");
                (m.time, m.queues.get(idx).copied().unwrap_or_default())
            }
            None => (0, QueueCounters::default()),
        };
        let window = self.now - t0;
        let w = window.max(1) as f64;
        let arrivals = c.arrivals - base.arrivals;
        let drops = c.drops - base.drops;
        let busy = c.busy_time - base.busy_time;
        QueueStats {
            window,
            arrivals,
            drops,
            departed_packets: c.departures - base.departures,
            departed_bytes: c.departure_bytes - base.departure_bytes,
            busy_time: busy,
            utilisation: busy as f64 / w,
            mean_packets: (c.area_packets - base.area_packets) as f64 / w,
            mean_bytes: (c.area_bytes - base.area_bytes) as f64 / w,
            drop_rate: if arrivals == 0 { 0.0 } else { drops as f64 / arrivals as f64 },
        }
    }

    /// Starts the measurement window now: `flow_stats` and `queue_stats` count from here.
    pub fn mark_warmup_end(&mut self) {
        let flows = (0..self.flows.len()).map(|f| self.flow_snapshot(f)).collect();
        let queues = self.queues.iter().map(|&q| self.queue(q).counters_at(self.now, Time::MAX)).collect();
        self.mark = Some(Mark { time: self.now, flows, queues });
        self.mptcp.mark();
    }

    pub(crate) fn mark_time(&self) -> Option<Time> {
        self.mark.as_ref().map(|m| m.time)
    }

    pub fn series(&self) -> &ProbeSeries {
        &self.series
    }

    pub fn events_processed(&self) -> u64 {
        self.events.processed()
    }

    /// The most packets that existed at once (pool size).
    pub fn packet_pool_high_water(&self) -> usize {
        self.pool.high_water()
    }

    /// Ids of all queues, in creation order.
    pub fn queue_ids(&self) -> Vec<ElementId> {
        self.queues.iter().map(|&q| ElementId(q)).collect()
    }
}
