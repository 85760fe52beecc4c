//! Output queues: a FIFO that serialises packets at the link rate. Served at a fixed rate,
//! it knows each packet's departure time when the packet arrives, so it schedules no event
//! of its own: the simulation hands the packet on with that time (docs/simulator.md, "One
//! event per packet per hop"). The packet in service counts against the buffer.

mod random_tail;
mod red;

pub use random_tail::RandomTailParams;
pub use red::{Red, RedParams};

use std::collections::VecDeque;

use crate::rng::Rng;
use crate::time::{transmission_time, Time};

/// Buffer size limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Buffer {
    Packets(u32),
    Bytes(u64),
}

/// What to do with arrivals when the buffer is (nearly) full.
#[derive(Clone, Debug, PartialEq)]
pub enum Discipline {
    DropTail,
    Red(RedParams),
    /// Random drop among the last `slots` places of the buffer (S1 §5.2).
    RandomTailDrop(RandomTailParams),
}

#[derive(Clone, Debug, PartialEq)]
pub struct QueueConfig {
    pub rate_bps: u64,
    pub buffer: Buffer,
    pub discipline: Discipline,
}

impl QueueConfig {
    pub fn drop_tail(rate_bps: u64, buffer: Buffer) -> Self {
        QueueConfig { rate_bps, buffer, discipline: Discipline::DropTail }
    }

    pub fn validate(&self) -> Result<(), String> {
        if self.rate_bps == 0 {
            return Err("queue rate_bps must be > 0".into());
        }
        match self.buffer {
            Buffer::Packets(0) | Buffer::Bytes(0) => return Err("queue buffer must be > 0".into()),
            _ => {}
        }
        match &self.discipline {
            Discipline::DropTail => Ok(()),
            Discipline::Red(p) => p.validate(),
            Discipline::RandomTailDrop(p) => p.validate(),
        }
    }
}

/// Cumulative counters of one queue. `QueueStats` are differences of these.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct QueueCounters {
    pub arrivals: u64,
    pub drops: u64,
    pub drop_bytes: u64,
    pub departures: u64,
    pub departure_bytes: u64,
    /// Time spent serialising packets, ps.
    pub busy_time: Time,
    /// Integral of the occupancy over time, packet-picoseconds and byte-picoseconds.
    pub area_packets: u128,
    pub area_bytes: u128,
    /// When the integrals were last brought up to date.
    pub last_change: Time,
}

enum Policy {
    DropTail,
    Red(Box<Red>, Rng),
    RandomTail(RandomTailParams, Rng),
}

pub struct Queue {
    rate_bps: u64,
    buffer: Buffer,
    policy: Policy,
    /// Departure time and size of every accepted packet that has not left yet (the one in
    /// service first), in order. A FIFO served at a fixed rate knows each packet's departure
    /// when it arrives, so the queue schedules no event: occupancy at any instant is the
    /// number of entries departing after it.
    pending: VecDeque<(Time, u32)>,
    bytes: u64,
    /// When the last accepted packet leaves (the link is busy until then).
    busy_until: Time,
    /// Serialisation time for the last size seen (most packets have one of two sizes).
    cached_size: u32,
    cached_time: Time,
    pub counters: QueueCounters,
}

impl Queue {
    pub fn new(cfg: &QueueConfig, rng: Rng) -> Self {
        let policy = match &cfg.discipline {
            Discipline::DropTail => Policy::DropTail,
            Discipline::Red(p) => Policy::Red(Box::new(Red::new(p.clone(), cfg.rate_bps)), rng),
            Discipline::RandomTailDrop(p) => Policy::RandomTail(*p, rng),
        };
        // Room for what the buffer usually holds; deep buffers grow on demand (rarely).
        let cap = match cfg.buffer {
            Buffer::Packets(n) => n as usize + 1,
            Buffer::Bytes(b) => (b / 1500) as usize + 1,
        }
        .min(256);
        Queue {
            rate_bps: cfg.rate_bps,
            buffer: cfg.buffer,
            policy,
            pending: VecDeque::with_capacity(cap),
            bytes: 0,
            busy_until: 0,
            cached_size: 0,
            cached_time: 0,
            counters: QueueCounters::default(),
        }
    }

    pub fn rate_bps(&self) -> u64 {
        self.rate_bps
    }

    /// Packets in the queue (including the one in service) as seen at `now` by an event
    /// scheduled at `sched` (see `departed`).
    pub fn len_packets_at(&self, now: Time, sched: Time) -> usize {
        let gone = self.pending.iter().take_while(|&&(d, size)| self.departed(d, size, now, sched)).count();
        self.pending.len() - gone
    }

    /// Has the packet of `size` bytes departing at `d` left, as seen at `now` by an event
    /// scheduled at `sched`? At a tie (`d == now`) the departure counts as an event
    /// scheduled when the packet's service began, and the earlier scheduled comes first
    /// (event.rs); at equal scheduling times the other event comes first.
    #[inline(always)]
    fn departed(&self, d: Time, size: u32, now: Time, sched: Time) -> bool {
        d < now || (d == now && d - transmission_time(size, self.rate_bps) < sched)
    }

    #[inline]
    fn service_time(&mut self, size: u32) -> Time {
        if size != self.cached_size {
            self.cached_size = size;
            self.cached_time = transmission_time(size, self.rate_bps);
        }
        self.cached_time
    }

    /// Brings the occupancy integrals up to `now` (call before every occupancy change).
    #[inline]
    fn integrate(&mut self, now: Time) {
        let c = &mut self.counters;
        let dt = (now - c.last_change) as u128;
        c.area_packets += dt * self.pending.len() as u128;
        c.area_bytes += dt * self.bytes as u128;
        c.last_change = now;
    }

    /// Removes the packets that have left as seen at `now` by an event scheduled at
    /// `sched` (`departed`), with the counters and integrals each departure would have
    /// updated at its own time.
    #[inline]
    fn retire(&mut self, now: Time, sched: Time) {
        while let Some(&(d, size)) = self.pending.front() {
            if d > now || (d == now && d - self.service_time(size) >= sched) {
                break;
            }
            self.integrate(d);
            self.pending.pop_front();
            self.bytes -= size as u64;
            let st = self.service_time(size);
            let c = &mut self.counters;
            c.departures += 1;
            c.departure_bytes += size as u64;
            c.busy_time += st;
            if self.pending.is_empty() {
                if let Policy::Red(red, _) = &mut self.policy {
                    red.on_queue_empty(d);
                }
            }
        }
    }

    /// Counters at `now` as seen by an event scheduled at `sched` (`departed`), with the
    /// occupancy integrals brought up to `now`.
    pub fn counters_at(&self, now: Time, sched: Time) -> QueueCounters {
        let mut c = self.counters;
        let mut len = self.pending.len() as u128;
        let mut bytes = self.bytes as u128;
        for &(d, size) in &self.pending {
            if !self.departed(d, size, now, sched) {
                break;
            }
            let d = d.max(c.last_change);
            c.area_packets += (d - c.last_change) as u128 * len;
            c.area_bytes += (d - c.last_change) as u128 * bytes;
            c.last_change = d;
            len -= 1;
            bytes -= size as u128;
            c.departures += 1;
            c.departure_bytes += size as u64;
            c.busy_time += transmission_time(size, self.rate_bps);
        }
        let dt = (now.max(c.last_change) - c.last_change) as u128;
        c.area_packets += dt * len;
        c.area_bytes += dt * bytes;
        c.last_change = now.max(c.last_change);
        c
    }

    /// Offers a packet of `size` bytes at `now`, brought by an event scheduled at `sched`.
    /// Returns when its serialisation starts and ends (its departure), or None if it was
    /// dropped (the caller frees it). Drop-tail, random tail drop and RED all decide at
    /// arrival, on the occupancy left by the packets that have not departed (`departed`).
    #[inline]
    pub fn arrive(&mut self, size: u32, now: Time, sched: Time) -> Option<(Time, Time)> {
        self.retire(now, sched);
        self.counters.arrivals += 1;
        let (used, cap, byte_buffer) = match self.buffer {
            Buffer::Packets(n) => (self.pending.len() as u64, n as u64, false),
            Buffer::Bytes(b) => (self.bytes, b, true),
        };
        let incoming = if byte_buffer { size as u64 } else { 1 };
        let mut drop = used + incoming > cap;
        if !drop {
            drop = match &mut self.policy {
                Policy::DropTail => false,
                Policy::Red(red, rng) => red.should_drop(self.pending.len() as u32, now, rng),
                Policy::RandomTail(p, rng) => p.in_drop_zone(used, cap, size as u64, byte_buffer) && rng.chance(p.prob),
            };
        }
        if drop {
            self.counters.drops += 1;
            self.counters.drop_bytes += size as u64;
            return None;
        }
        self.integrate(now);
        let start = self.busy_until.max(now);
        let departure = start + self.service_time(size);
        self.busy_until = departure;
        self.pending.push_back((departure, size));
        self.bytes += size as u64;
        Some((start, departure))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offer(q: &mut Queue, n: u32, size: u32) -> u32 {
        (0..n).filter(|_| q.arrive(size, 0, 0).is_some()).count() as u32
    }

    #[test]
    fn drop_tail_counts_the_packet_in_service() {
        let mut q = Queue::new(&QueueConfig::drop_tail(1_000_000, Buffer::Packets(5)), Rng::for_stream(0, 0));
        assert_eq!(offer(&mut q, 8, 1500), 5);
        assert_eq!(q.counters.drops, 3);
        // The head leaves after 1500 B at 1 Mb/s = 12 ms; then one place is free again.
        let ms = crate::time::millis(1);
        assert_eq!(q.len_packets_at(12 * ms, 0), 5);
        assert_eq!(q.len_packets_at(12 * ms, u64::MAX), 4);
        // At the instant of the departure, an arrival scheduled no later than the departure
        // (whose service began at 0) comes first and finds the buffer full; one scheduled
        // later finds the place free.
        assert_eq!(q.arrive(1500, 12 * ms, 0), None);
        assert_eq!(q.arrive(1500, 12 * ms, 1), Some((60 * ms, 72 * ms)));
    }

    #[test]
    fn byte_buffer_limits_bytes() {
        let mut q = Queue::new(&QueueConfig::drop_tail(1_000_000, Buffer::Bytes(3000)), Rng::for_stream(0, 0));
        assert_eq!(offer(&mut q, 4, 1000), 3);
        assert_eq!(offer(&mut q, 2, 40), 0);
    }

    #[test]
    fn random_tail_drops_about_prob_in_the_last_slots() {
        let cfg = QueueConfig {
            rate_bps: 1_000_000,
            buffer: Buffer::Packets(10),
            discipline: Discipline::RandomTailDrop(RandomTailParams { slots: 3, prob: 1.0 / 3.0 }),
        };
        let mut q = Queue::new(&cfg, Rng::for_stream(3, 3));
        // Fill 7 slots: never dropped.
        assert_eq!(offer(&mut q, 7, 100), 7);
        // Now every arrival would take slot 8: accepted then removed, many times.
        let mut dropped = 0;
        for _ in 0..30_000 {
            if q.arrive(100, 0, 0).is_some() {
                q.pending.pop_back();
                q.bytes -= 100;
                q.busy_until = q.pending.back().unwrap().0;
            } else {
                dropped += 1;
            }
        }
        let frac = dropped as f64 / 30_000.0;
        assert!((frac - 1.0 / 3.0).abs() < 0.02, "{frac}");
    }

    #[test]
    fn departures_follow_at_line_rate_in_fifo_order() {
        let mut q = Queue::new(&QueueConfig::drop_tail(8_000_000, Buffer::Packets(10)), Rng::for_stream(0, 0));
        let ms = crate::time::millis(1);
        let out: Vec<_> = (0..3).map(|_| q.arrive(1000, 0, 0).unwrap().1).collect();
        assert_eq!(out, vec![ms, 2 * ms, 3 * ms]);
        // An arrival after the queue drained starts service at once.
        assert_eq!(q.arrive(1000, 5 * ms, 5 * ms), Some((5 * ms, 6 * ms)));
        let c = q.counters_at(3 * ms, u64::MAX);
        assert_eq!((c.departures, c.busy_time), (3, 3 * ms));
        // Occupancy 3, 2, 1 packets for 1 ms each: mean 2 over 3 ms.
        assert_eq!(c.area_packets, 6 * ms as u128);
        // At 6 ms exactly, a probe scheduled before the last service began (at 5 ms) sees the
        // packet still there; the final tally does not.
        assert_eq!(q.counters_at(6 * ms, 4 * ms).departures, 3);
        assert_eq!(q.counters_at(6 * ms, u64::MAX).departures, 4);
        assert_eq!(q.counters_at(6 * ms, u64::MAX).area_packets, 7 * ms as u128);
    }

    #[test]
    fn retiring_at_an_arrival_matches_the_lazy_counters() {
        let mut q = Queue::new(&QueueConfig::drop_tail(8_000_000, Buffer::Packets(10)), Rng::for_stream(0, 0));
        let ms = crate::time::millis(1);
        for t in [0, 0, ms / 2, 4 * ms, 4 * ms] {
            q.arrive(1000, t, t);
        }
        let lazy = q.counters_at(7 * ms, 7 * ms);
        q.arrive(1000, 7 * ms, 7 * ms);
        let mut eager = q.counters;
        eager.arrivals -= 1;
        assert_eq!(eager.departures, lazy.departures);
        assert_eq!(eager.busy_time, lazy.busy_time);
        assert_eq!(eager.area_packets, lazy.area_packets);
        assert_eq!(eager.area_bytes, lazy.area_bytes);
    }
}
