//! UDP traffic sources (no congestion control) and sinks.

use crate::ctx::Ctx;
use crate::event::EventKind;
use crate::packet::{Packet, PacketId, PacketKind};
use crate::rng::Rng;
use crate::time::{from_secs_f64, to_secs_f64, transmission_time, Time};
use crate::ElementId;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum UdpPattern {
    /// One packet every packet_bytes * 8 / bps.
    Constant { bps: u64 },
    /// Poisson arrivals: exponential gaps with mean 1 / pps.
    Poisson { pps: f64 },
    /// On periods with Pareto-distributed length (mean `mean_on`, shape `pareto_shape` > 1)
    /// sending at `rate_bps`, alternating with exponentially distributed silences (mean
    /// `mean_off`). Starts with an on period.
    OnOff { rate_bps: u64, mean_on: Time, pareto_shape: f64, mean_off: Time },
}

#[derive(Clone, Debug, PartialEq)]
pub struct UdpConfig {
    /// Elements the packets cross (the sink is appended).
    pub route: Vec<ElementId>,
    pub packet_bytes: u32,
    pub pattern: UdpPattern,
    pub start: Time,
    pub stop: Option<Time>,
}

impl UdpConfig {
    pub fn validate(&self) -> Result<(), String> {
        if self.route.is_empty() {
            return Err("udp source route must name at least one element".into());
        }
        if self.packet_bytes == 0 {
            return Err("udp packet_bytes must be > 0".into());
        }
        if let Some(stop) = self.stop {
            if stop < self.start {
                return Err(format!("udp stop ({stop} ps) is before start ({} ps)", self.start));
            }
        }
        match self.pattern {
            UdpPattern::Constant { bps: 0 } => Err("udp constant pattern needs bps > 0".into()),
            UdpPattern::Poisson { pps } if !(pps > 0.0 && pps.is_finite()) => {
                Err(format!("udp poisson pattern needs a finite pps > 0, got {pps}"))
            }
            UdpPattern::OnOff { rate_bps, mean_on, pareto_shape, mean_off } => {
                if rate_bps == 0 || mean_on == 0 || mean_off == 0 {
                    Err("udp on/off pattern needs rate_bps, mean_on and mean_off > 0".into())
                } else if !(pareto_shape > 1.0 && pareto_shape.is_finite()) {
                    Err(format!("udp on/off pareto_shape must be > 1 (finite mean), got {pareto_shape}"))
                } else {
                    Ok(())
                }
            }
            _ => Ok(()),
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct UdpCounters {
    pub sent_packets: u64,
    pub sent_bytes: u64,
}

pub struct UdpSource {
    flow: u32,
    route: u32,
    packet_bytes: u32,
    pattern: UdpPattern,
    stop: Option<Time>,
    rng: Rng,
    /// End of the current on period (on/off only).
    on_until: Time,
    pub counters: UdpCounters,
}

impl UdpSource {
    pub fn new(flow: u32, route: u32, cfg: &UdpConfig, rng: Rng) -> Self {
        UdpSource {
            flow,
            route,
            packet_bytes: cfg.packet_bytes,
            pattern: cfg.pattern,
            stop: cfg.stop,
            rng,
            on_until: 0,
            counters: UdpCounters::default(),
        }
    }

    /// First send time (the source's start).
    pub fn begin(&mut self, start: Time, ctx: &mut Ctx) {
        if let UdpPattern::OnOff { mean_on, pareto_shape, .. } = self.pattern {
            self.on_until = start + from_secs_f64(self.rng.pareto(to_secs_f64(mean_on), pareto_shape));
        }
        ctx.schedule(start, EventKind::UdpSend);
    }

    pub fn on_event(&mut self, ctx: &mut Ctx) {
        if self.stop.is_some_and(|s| ctx.now >= s) {
            return;
        }
        let mut p = Packet::EMPTY;
        p.seq = self.counters.sent_packets;
        p.ts = ctx.now;
        p.route = self.route;
        p.kind = PacketKind::Udp;
        p.size_bytes = self.packet_bytes;
        p.flow = self.flow;
        ctx.send_new(p);
        self.counters.sent_packets += 1;
        self.counters.sent_bytes += self.packet_bytes as u64;
        let next = match self.pattern {
            UdpPattern::Constant { bps } => ctx.now + transmission_time(self.packet_bytes, bps).max(1),
            UdpPattern::Poisson { pps } => ctx.now + from_secs_f64(self.rng.exponential(1.0 / pps)).max(1),
            UdpPattern::OnOff { rate_bps, mean_on, pareto_shape, mean_off } => {
                let mut next = ctx.now + transmission_time(self.packet_bytes, rate_bps).max(1);
                while next > self.on_until {
                    // Silence, then a new on period starting with a packet.
                    next = self.on_until + from_secs_f64(self.rng.exponential(to_secs_f64(mean_off))).max(1);
                    self.on_until = next + from_secs_f64(self.rng.pareto(to_secs_f64(mean_on), pareto_shape));
                }
                next
            }
        };
        ctx.schedule(next, EventKind::UdpSend);
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct UdpSink {
    pub received_packets: u64,
    pub received_bytes: u64,
}

impl UdpSink {
    #[inline]
    pub fn on_packet(&mut self, id: PacketId, ctx: &mut Ctx) {
        self.received_packets += 1;
        self.received_bytes += ctx.pool.get(id).size_bytes as u64;
        ctx.pool.free(id);
    }
}
