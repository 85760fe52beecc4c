//! Output queues: a FIFO that serialises packets at the link rate and schedules its own
//! service completion (one event per departing packet). The packet in service counts
//! against the buffer.

mod random_tail;
mod red;

pub use random_tail::RandomTailParams;
pub use red::{Red, RedParams};

use std::collections::VecDeque;

use crate::event::{EventKind, EventQueue};
use crate::packet::PacketId;
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
    /// Packets and their sizes (kept here so the queue need not touch the packets).
    fifo: VecDeque<(PacketId, u32)>,
    bytes: u64,
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
            fifo: VecDeque::with_capacity(cap),
            bytes: 0,
            cached_size: 0,
            cached_time: 0,
            counters: QueueCounters::default(),
        }
    }

    pub fn rate_bps(&self) -> u64 {
        self.rate_bps
    }

    pub fn len_packets(&self) -> usize {
        self.fifo.len()
    }

    pub fn len_bytes(&self) -> u64 {
        self.bytes
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
        c.area_packets += dt * self.fifo.len() as u128;
        c.area_bytes += dt * self.bytes as u128;
        c.last_change = now;
    }

    /// Counters with the occupancy integrals brought up to `now`.
    pub fn counters_at(&self, now: Time) -> QueueCounters {
        let mut c = self.counters;
        let dt = (now.max(c.last_change) - c.last_change) as u128;
        c.area_packets += dt * self.fifo.len() as u128;
        c.area_bytes += dt * self.bytes as u128;
        c.last_change = now.max(c.last_change);
        c
    }

    /// Offers a packet; returns false if it was dropped (the caller frees it). Schedules
    /// the service completion when the queue was idle.
    #[inline]
    pub fn arrive(&mut self, id: PacketId, size: u32, now: Time, me: u32, events: &mut EventQueue) -> bool {
        self.counters.arrivals += 1;
        let (used, cap, byte_buffer) = match self.buffer {
            Buffer::Packets(n) => (self.fifo.len() as u64, n as u64, false),
            Buffer::Bytes(b) => (self.bytes, b, true),
        };
        let incoming = if byte_buffer { size as u64 } else { 1 };
        let mut drop = used + incoming > cap;
        if !drop {
            drop = match &mut self.policy {
                Policy::DropTail => false,
                Policy::Red(red, rng) => red.should_drop(self.fifo.len() as u32, now, rng),
                Policy::RandomTail(p, rng) => p.in_drop_zone(used, cap, size as u64, byte_buffer) && rng.chance(p.prob),
            };
        }
        if drop {
            self.counters.drops += 1;
            self.counters.drop_bytes += size as u64;
            return false;
        }
        self.integrate(now);
        self.fifo.push_back((id, size));
        self.bytes += size as u64;
        if self.fifo.len() == 1 {
            let t = self.service_time(size);
            events.schedule(now + t, me, EventKind::QueueService);
        }
        true
    }

    /// The head packet finished serialising: removes and returns it, and starts the next.
    #[inline]
    pub fn complete_service(&mut self, now: Time, me: u32, events: &mut EventQueue, pool: &crate::pool::PacketPool) -> PacketId {
        self.integrate(now);
        let (id, size) = self.fifo.pop_front().expect("service completion on an empty queue");
        self.bytes -= size as u64;
        let st = self.service_time(size);
        let c = &mut self.counters;
        c.departures += 1;
        c.departure_bytes += size as u64;
        c.busy_time += st;
        if let Some(&(next_id, next)) = self.fifo.front() {
            // The next packet leaves after its serialisation time; it may have waited long
            // enough to leave the cache.
            pool.prefetch(next_id);
            let t = self.service_time(next);
            events.schedule(now + t, me, EventKind::QueueService);
        } else if let Policy::Red(red, _) = &mut self.policy {
            red.on_queue_empty(now);
        }
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offer(q: &mut Queue, n: u32, size: u32, ev: &mut EventQueue) -> u32 {
        (0..n).filter(|&i| q.arrive(i, size, 0, 0, ev)).count() as u32
    }

    #[test]
    fn drop_tail_counts_the_packet_in_service() {
        let mut ev = EventQueue::new();
        let mut q = Queue::new(&QueueConfig::drop_tail(1_000_000, Buffer::Packets(5)), Rng::for_stream(0, 0));
        assert_eq!(offer(&mut q, 8, 1500, &mut ev), 5);
        assert_eq!(q.counters.drops, 3);
        // One service event for the head only; 1500 B at 1 Mb/s = 12 ms.
        assert_eq!(ev.len(), 1);
        assert_eq!(ev.peek_time(), Some(crate::time::millis(12)));
    }

    #[test]
    fn byte_buffer_limits_bytes() {
        let mut ev = EventQueue::new();
        let mut q = Queue::new(&QueueConfig::drop_tail(1_000_000, Buffer::Bytes(3000)), Rng::for_stream(0, 0));
        assert_eq!(offer(&mut q, 4, 1000, &mut ev), 3);
        assert_eq!(offer(&mut q, 2, 40, &mut ev), 0);
    }

    #[test]
    fn random_tail_drops_about_prob_in_the_last_slots() {
        let mut ev = EventQueue::new();
        let cfg = QueueConfig {
            rate_bps: 1_000_000,
            buffer: Buffer::Packets(10),
            discipline: Discipline::RandomTailDrop(RandomTailParams { slots: 3, prob: 1.0 / 3.0 }),
        };
        let mut q = Queue::new(&cfg, Rng::for_stream(3, 3));
        // Fill 7 slots: never dropped.
        assert_eq!(offer(&mut q, 7, 100, &mut ev), 7);
        // Now every arrival would take slot 8: accepted then removed, many times.
        let mut dropped = 0;
        for i in 0..30_000 {
            if q.arrive(i, 100, 0, 0, &mut ev) {
                q.fifo.pop_back();
                q.bytes -= 100;
            } else {
                dropped += 1;
            }
        }
        let frac = dropped as f64 / 30_000.0;
        assert!((frac - 1.0 / 3.0).abs() < 0.02, "{frac}");
    }

    #[test]
    fn service_drains_in_fifo_order_at_line_rate() {
        let mut ev = EventQueue::new();
        let mut q = Queue::new(&QueueConfig::drop_tail(8_000_000, Buffer::Packets(10)), Rng::for_stream(0, 0));
        for i in 0..3 {
            q.arrive(i, 1000, 0, 7, &mut ev);
        }
        let mut out = vec![];
        while let Some(e) = ev.pop_until(u64::MAX) {
            out.push((q.complete_service(e.time, 7, &mut ev, &crate::pool::PacketPool::new()), e.time));
        }
        let ms = crate::time::millis(1);
        assert_eq!(out, vec![(0, ms), (1, 2 * ms), (2, 3 * ms)]);
        assert_eq!(q.counters_at(3 * ms).busy_time, 3 * ms);
        // Occupancy 3, 2, 1 packets for 1 ms each: mean 2 over 3 ms.
        assert_eq!(q.counters_at(3 * ms).area_packets, 6 * ms as u128);
    }
}
