//! Synthetic one-way-delay and RTT traces with a known answer, for tests and for trying the
//! detectors (model: docs/tracegen.md). N probe flows cross either one shared bottleneck or
//! one bottleneck each; every bottleneck is a fluid drop-tail queue driven by its own bursty
//! cross traffic. Seeded and deterministic; no I/O (`crate::csv` writes the files).

mod queue;
pub mod rng;

use crate::rows::{OwdRow, RttRow};

use queue::Queue;
pub use queue::QueueSpec;
use rng::Rng;

#[derive(Clone, Debug, PartialEq)]
pub struct TraceConfig {
    pub flows: usize,
    /// One shared bottleneck (true) or one per flow.
    pub shared: bool,
    pub duration_s: f64,
    /// Probe packets per flow per second (Poisson).
    pub rate_pps: f64,
    pub seed: u64,
    /// Mean of the exponential per-packet path noise, ms.
    pub noise_ms: f64,
    /// Receiver clock = sender clock · (1 + skew) + offset.
    pub clock_offset_us: i64,
    pub clock_skew_ppm: f64,
    /// Model time simulated (and discarded) before the trace starts, so queues are in
    /// steady state.
    pub settle_s: f64,
    /// Separate bottlenecks all get the shape drawn for the first one (capacity, buffer, cross
    /// traffic); only their random dynamics differ. Off by default: each draws its own shape.
    pub alike_queues: bool,
}

impl Default for TraceConfig {
    fn default() -> Self {
        TraceConfig {
            flows: 2,
            shared: true,
            duration_s: 120.0,
            rate_pps: 500.0,
            seed: 1,
            noise_ms: 0.5,
            clock_offset_us: 0,
            clock_skew_ppm: 0.0,
            settle_s: 30.0,
            alike_queues: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct FlowTruth {
    /// Index of the bottleneck queue this flow crosses.
    pub bottleneck: usize,
    pub base_owd_ms: f64,
    pub base_reverse_ms: f64,
    pub noise_ms: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct QueueTruth {
    pub spec: QueueSpec,
    pub mean_delay_ms: f64,
    pub loss_rate: f64,
}

#[derive(Clone, Debug)]
pub struct Trace {
    pub owd: Vec<OwdRow>,
    pub rtt: Vec<RttRow>,
    pub flows: Vec<FlowTruth>,
    pub queues: Vec<QueueTruth>,
}

impl Trace {
    /// The grouping a perfect detector reports: all flows in group 1 when shared, else 1..=N.
    pub fn expected_groups(&self) -> Vec<u32> {
        self.flows.iter().map(|f| f.bottleneck as u32 + 1).collect()
    }
}

const STEP_S: f64 = 0.000_5;

/// Where generated rows go: OWD rows in send order, RTT rows in (ack time, flow) order.
pub trait RowSink {
    fn owd(&mut self, row: OwdRow);
    fn rtt(&mut self, row: RttRow);
}

impl RowSink for (Vec<OwdRow>, Vec<RttRow>) {
    fn owd(&mut self, row: OwdRow) {
        self.0.push(row);
    }
    fn rtt(&mut self, row: RttRow) {
        self.1.push(row);
    }
}

/// The truth of a generated trace, without its rows.
pub struct Truth {
    pub flows: Vec<FlowTruth>,
    pub queues: Vec<QueueTruth>,
}

/// Generates the trace. Rows come in send order (so receive times are not sorted across
/// flows, as in a log merged from per-flow captures).
pub fn generate(cfg: &TraceConfig) -> Trace {
    let mut rows = (Vec::new(), Vec::new());
    let truth = generate_into(cfg, &mut rows);
    Trace { owd: rows.0, rtt: rows.1, flows: truth.flows, queues: truth.queues }
}

/// As [`generate`], handing each row to `sink` as it is made: memory does not grow with the
/// trace's length. RTT rows wait only until no later send can be acknowledged before them
/// (an ACK comes after its send, and sends come in time order).
pub fn generate_into(cfg: &TraceConfig, sink: &mut impl RowSink) -> Truth {
    let n_queues = if cfg.shared { 1 } else { cfg.flows };
    // Streams: 0..n_queues for queues, 1000 + i for flow i, 2000 + q for the dynamics of alike
    // queue q (whose shape comes from stream 0).
    let mut queues: Vec<Queue> = (0..n_queues)
        .map(|q| match cfg.alike_queues {
            false => Queue::random(Rng::for_component(cfg.seed, q as u64)),
            true => Queue::random(Rng::for_component(cfg.seed, 0)).with_dynamics(Rng::for_component(cfg.seed, 2000 + q as u64)),
        })
        .collect();
    struct Probe {
        rng: Rng,
        next_send_s: f64,
        truth: FlowTruth,
    }
    let mut probes: Vec<Probe> = (0..cfg.flows)
        .map(|i| {
            let mut rng = Rng::for_component(cfg.seed, 1000 + i as u64);
            let truth = FlowTruth {
                bottleneck: if cfg.shared { 0 } else { i },
                base_owd_ms: rng.uniform_in(5.0, 40.0),
                base_reverse_ms: rng.uniform_in(5.0, 40.0),
                noise_ms: cfg.noise_ms * rng.uniform_in(0.5, 1.5),
            };
            let next_send_s = rng.exponential(1.0 / cfg.rate_pps);
            Probe { rng, next_send_s, truth }
        })
        .collect();

    let mut now = -cfg.settle_s;
    while now < 0.0 {
        for q in &mut queues {
            q.step(now, STEP_S);
        }
        now += STEP_S;
    }
    for q in &mut queues {
        q.reset_counters();
    }
    let mut delay_sums = vec![0.0; n_queues];
    let mut steps = 0u64;
    // RTT rows by (ack time, flow, order made): the order a stable sort by (ack, flow) gives.
    let mut pending_acks: std::collections::BinaryHeap<std::cmp::Reverse<(i64, usize, u64, i64)>> = Default::default();
    let mut made = 0u64;
    let skew = cfg.clock_skew_ppm * 1e-6;
    let mut now_step = 0u64;
    loop {
        let now = now_step as f64 * STEP_S;
        if now >= cfg.duration_s {
            break;
        }
        for (qi, q) in queues.iter_mut().enumerate() {
            q.step(now, STEP_S);
            delay_sums[qi] += q.delay_s();
        }
        steps += 1;
        // Every send from now on is at `now` or later, so is every ACK: rows acknowledged
        // before are final.
        let now_us = (now * 1e6).round() as i64;
        while pending_acks.peek().is_some_and(|r| r.0 .0 < now_us) {
            let std::cmp::Reverse((ack_us, flow, _, rtt_us)) = pending_acks.pop().expect("peeked");
            sink.rtt(RttRow { flow, ack_us, rtt_us });
        }
        for (i, p) in probes.iter_mut().enumerate() {
            while p.next_send_s < now + STEP_S {
                let send = p.next_send_s;
                p.next_send_s += p.rng.exponential(1.0 / cfg.rate_pps);
                let q = &queues[p.truth.bottleneck];
                let lost = p.rng.chance(q.drop_fraction());
                let fwd = p.truth.base_owd_ms * 1e-3 + q.delay_s() + p.rng.exponential(p.truth.noise_ms * 1e-3);
                let recv = send + fwd;
                let recv_clock = recv * (1.0 + skew);
                sink.owd(OwdRow {
                    flow: i,
                    send_us: (send * 1e6).round() as i64,
                    recv_us: if lost { 0 } else { (recv_clock * 1e6).round() as i64 + cfg.clock_offset_us },
                    lost,
                });
                if !lost {
                    let back = p.truth.base_reverse_ms * 1e-3 + p.rng.exponential(p.truth.noise_ms * 1e-3);
                    let ack = recv + back;
                    pending_acks.push(std::cmp::Reverse(((ack * 1e6).round() as i64, i, made, ((ack - send) * 1e6).round() as i64)));
                    made += 1;
                }
            }
        }
        now_step += 1;
    }
    while let Some(std::cmp::Reverse((ack_us, flow, _, rtt_us))) = pending_acks.pop() {
        sink.rtt(RttRow { flow, ack_us, rtt_us });
    }
    Truth {
        flows: probes.into_iter().map(|p| p.truth).collect(),
        queues: queues
            .iter()
            .zip(&delay_sums)
            .map(|(q, s)| QueueTruth {
                spec: q.spec.clone(),
                mean_delay_ms: s / steps.max(1) as f64 * 1e3,
                loss_rate: q.loss_rate(),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_flow_streams_independent() {
        let cfg = TraceConfig { flows: 2, shared: false, duration_s: 5.0, ..TraceConfig::default() };
        let a = generate(&cfg);
        let b = generate(&cfg);
        assert_eq!(a.owd, b.owd);
        let more = generate(&TraceConfig { flows: 3, ..cfg.clone() });
        let first: Vec<_> = more.owd.iter().filter(|r| r.flow == 0).collect();
        let first_a: Vec<_> = a.owd.iter().filter(|r| r.flow == 0).collect();
        assert_eq!(first, first_a, "adding a flow must not change flow 0");
    }

    #[test]
    fn congested_queues_show_a_standing_queue_and_some_loss() {
        let t = generate(&TraceConfig { flows: 4, shared: false, duration_s: 20.0, ..TraceConfig::default() });
        for q in &t.queues {
            assert!(
                q.mean_delay_ms > 0.3 * q.spec.buffer_ms,
                "mean queue {} of {} ms",
                q.mean_delay_ms,
                q.spec.buffer_ms
            );
            assert!(q.loss_rate > 0.0 && q.loss_rate < 0.1, "loss {}", q.loss_rate);
        }
        let rate = t.owd.len() as f64 / 20.0 / 4.0;
        assert!((rate - 500.0).abs() < 50.0, "probe rate {rate}");
    }

    #[test]
    fn alike_queues_share_their_shape_but_not_their_delays() {
        let cfg = TraceConfig { flows: 3, shared: false, duration_s: 5.0, alike_queues: true, ..TraceConfig::default() };
        let t = generate(&cfg);
        assert!(t.queues.iter().all(|q| q.spec == t.queues[0].spec));
        let own = generate(&TraceConfig { alike_queues: false, ..cfg });
        assert_eq!(own.queues[0].spec, t.queues[0].spec, "the shared shape is the first queue's own");
        assert_ne!(own.queues[1].spec, t.queues[1].spec);
        // Own starting state and random events: the queues do not move in step.
        assert!(t.queues[1].mean_delay_ms != t.queues[2].mean_delay_ms && t.queues[1].loss_rate != t.queues[2].loss_rate);
    }

    #[test]
    fn clock_offset_and_skew_apply_to_the_receiver_clock() {
        let base = TraceConfig { flows: 1, duration_s: 2.0, ..TraceConfig::default() };
        let a = generate(&base);
        let b = generate(&TraceConfig { clock_offset_us: 1_000_000, clock_skew_ppm: 100.0, ..base });
        let i = a.owd.iter().rposition(|r| !r.lost).unwrap();
        let (ra, rb) = (&a.owd[i], &b.owd[i]);
        let drift = (rb.recv_us - 1_000_000 - ra.recv_us) as f64;
        assert!((drift - ra.recv_us as f64 * 100e-6).abs() <= 1.0, "drift {drift}");
    }
}
