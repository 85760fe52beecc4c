//! A fluid drop-tail bottleneck queue driven by cross traffic: long-lived AIMD (Reno-like)
//! flows, which keep a standing queue with dips after their back-offs, plus on/off UDP sources
//! (Pareto on, exponential off, as in [S0] §IV-A's background traffic) that add bursts.
//! Advanced in fixed steps; the measured flows are light probes that do not load it.

use super::rng::Rng;

const PACKET_BYTES: f64 = 1500.0;

/// The randomly drawn shape of one bottleneck (reported in the ground truth).
#[derive(Clone, Debug, PartialEq)]
pub struct QueueSpec {
    pub capacity_mbps: f64,
    pub buffer_ms: f64,
    pub tcp_flows: usize,
    pub udp_sources: usize,
}

#[derive(Clone, Debug)]
struct AimdFlow {
    base_rtt_s: f64,
    cwnd_pkts: f64,
    /// A loss seen at this time takes effect one RTT later (the sender's reaction delay).
    cut_at_s: Option<f64>,
    last_cut_s: f64,
}

#[derive(Clone, Debug)]
struct OnOff {
    rate_bps: f64,
    on: bool,
    switch_at_s: f64,
    mean_on_s: f64,
    mean_off_s: f64,
}

#[derive(Clone, Debug)]
pub struct Queue {
    pub spec: QueueSpec,
    capacity_bps: f64,
    buffer_bytes: f64,
    backlog_bytes: f64,
    tcp: Vec<AimdFlow>,
    udp: Vec<OnOff>,
    rng: Rng,
    /// Fraction of the last step's arrivals that were dropped.
    drop_fraction: f64,
    arrived_bytes: f64,
    dropped_bytes: f64,
}

impl Queue {
    /// Draws a bottleneck: 20-100 Mb/s, a buffer of 20-100 ms, 2-8 AIMD flows with base RTTs
    /// of 20-80 ms and 2-6 on/off sources each sending 1-4 % of the capacity while on.
    pub fn random(mut rng: Rng) -> Self {
        let spec = QueueSpec {
            capacity_mbps: rng.uniform_in(20.0, 100.0),
            buffer_ms: rng.uniform_in(20.0, 100.0),
            tcp_flows: rng.int(2, 8) as usize,
            udp_sources: rng.int(2, 6) as usize,
        };
        let capacity_bps = spec.capacity_mbps * 1e6 / 8.0;
        let tcp = (0..spec.tcp_flows)
            .map(|_| {
                let base_rtt_s = rng.uniform_in(0.020, 0.080);
                let fair = capacity_bps * base_rtt_s / PACKET_BYTES / spec.tcp_flows as f64;
                AimdFlow {
                    base_rtt_s,
                    cwnd_pkts: rng.uniform_in(0.5, 1.5) * fair,
                    cut_at_s: None,
                    last_cut_s: f64::NEG_INFINITY,
                }
            })
            .collect();
        let udp = (0..spec.udp_sources)
            .map(|_| {
                let mean_on_s = rng.uniform_in(1.0, 5.0);
                let mean_off_s = rng.uniform_in(1.0, 5.0);
                OnOff {
                    rate_bps: rng.uniform_in(0.01, 0.04) * capacity_bps,
                    on: false,
                    switch_at_s: rng.exponential(mean_off_s),
                    mean_on_s,
                    mean_off_s,
                }
            })
            .collect();
        Queue {
            buffer_bytes: spec.buffer_ms * 1e-3 * capacity_bps,
            capacity_bps,
            spec,
            backlog_bytes: 0.0,
            tcp,
            udp,
            rng,
            drop_fraction: 0.0,
            arrived_bytes: 0.0,
            dropped_bytes: 0.0,
        }
    }

    /// The same shape with its starting state (windows, first switch times) and its random
    /// events (on/off switching, which AIMD flow sees a loss) drawn from `rng` instead.
    pub fn with_dynamics(mut self, mut rng: Rng) -> Self {
        // A starting state of its own too, so alike queues do not begin in step.
        let per_flow = self.capacity_bps / PACKET_BYTES / self.tcp.len() as f64;
        for f in &mut self.tcp {
            f.cwnd_pkts = rng.uniform_in(0.5, 1.5) * per_flow * f.base_rtt_s;
        }
        for s in &mut self.udp {
            s.switch_at_s = rng.exponential(s.mean_off_s);
        }
        Queue { rng, ..self }
    }

    /// Queueing delay a packet arriving now would see, seconds.
    pub fn delay_s(&self) -> f64 {
        self.backlog_bytes / self.capacity_bps
    }

    /// Probability that a packet arriving during the last step was dropped.
    pub fn drop_fraction(&self) -> f64 {
        self.drop_fraction
    }

    /// Long-run fraction of cross-traffic bytes dropped.
    pub fn loss_rate(&self) -> f64 {
        if self.arrived_bytes > 0.0 {
            self.dropped_bytes / self.arrived_bytes
        } else {
            0.0
        }
    }

    /// Restarts the loss accounting (at the end of the settling time).
    pub fn reset_counters(&mut self) {
        self.arrived_bytes = 0.0;
        self.dropped_bytes = 0.0;
    }

    /// Advances the fluid model from `now_s` by `dt_s`.
    pub fn step(&mut self, now_s: f64, dt_s: f64) {
        let q_delay = self.delay_s();
        let mut arrivals = 0.0;
        for f in &mut self.tcp {
            let rtt = f.base_rtt_s + q_delay;
            arrivals += f.cwnd_pkts * PACKET_BYTES / rtt * dt_s;
            // Congestion avoidance: one packet per RTT.
            f.cwnd_pkts += dt_s / rtt;
            if f.cut_at_s.is_some_and(|t| now_s >= t) {
                f.cwnd_pkts = (f.cwnd_pkts / 2.0).max(1.0);
                f.cut_at_s = None;
                f.last_cut_s = now_s;
            }
        }
        for s in &mut self.udp {
            if now_s >= s.switch_at_s {
                s.on = !s.on;
                s.switch_at_s =
                    now_s + if s.on { self.rng.pareto(s.mean_on_s, 1.5) } else { self.rng.exponential(s.mean_off_s) };
            }
            if s.on {
                arrivals += s.rate_bps * dt_s;
            }
        }
        self.backlog_bytes += arrivals - self.capacity_bps * dt_s;
        let overflow = (self.backlog_bytes - self.buffer_bytes).max(0.0);
        self.backlog_bytes = self.backlog_bytes.clamp(0.0, self.buffer_bytes);
        self.drop_fraction = if arrivals > 0.0 { overflow / arrivals } else { 0.0 };
        self.arrived_bytes += arrivals;
        self.dropped_bytes += overflow;
        if self.drop_fraction > 0.0 {
            for f in &mut self.tcp {
                let rtt = f.base_rtt_s + q_delay;
                let pkts = f.cwnd_pkts / rtt * dt_s;
                // At least one of this step's packets lost; reacted to once per RTT.
                let p_loss = 1.0 - (1.0 - self.drop_fraction).powf(pkts);
                if f.cut_at_s.is_none() && now_s - f.last_cut_s > rtt && self.rng.chance(p_loss) {
                    f.cut_at_s = Some(now_s + rtt);
                }
            }
        }
    }
}
