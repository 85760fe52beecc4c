//! Output queues: a FIFO that serialises packets at the link rate. Served at a fixed rate,
//! it knows each packet's departure time when the packet arrives, so it schedules no event
//! of its own: the simulation hands the packet on with that time (docs/simulator.md, "One
//! event per packet per hop"). The packet in service counts against the buffer.

mod ahead;
mod random_tail;
mod red;
mod tally;

pub use random_tail::RandomTailParams;
pub use red::{Red, RedParams};
pub use tally::QueueCounters;

use crate::ring::Ring;
use crate::rng::Rng;
use crate::time::{transmission_time, Time};

use ahead::AheadLog;
use tally::Tally;

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
    pending: Ring<(Time, u32)>,
    bytes: u64,
    /// When the last accepted packet leaves (the link is busy until then).
    busy_until: Time,
    /// Serialisation time for the last size seen (most packets have one of two sizes).
    cached_size: u32,
    cached_time: Time,
    tally: Tally,
    /// Arrivals taken ahead of their time (`arrive_ahead`), for readings; None unless the
    /// queue is fed that way.
    ahead: Option<AheadLog>,
    /// Fed by several hosts' delays, announced and decided as the present passes them
    /// (`merge_inputs`).
    merged: bool,
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
            pending: Ring::with_capacity(cap),
            bytes: 0,
            busy_until: 0,
            cached_size: 0,
            cached_time: 0,
            tally: Tally::default(),
            ahead: None,
            merged: false,
        }
    }

    /// From now on every packet comes through `arrive_ahead` (sim/lead_in.rs). Not for RED,
    /// whose idle period would start at a departure it has not yet seen.
    pub fn feed_ahead(&mut self) {
        debug_assert!(!self.is_red());
        self.ahead = Some(AheadLog::new());
    }

    pub fn is_fed_ahead(&self) -> bool {
        self.ahead.is_some() || self.merged
    }

    /// From now on every packet is announced when it enters a host's delay in front of the
    /// queue and arrives when the simulation has passed its arrival time (sim/merge.rs): for
    /// several inputs whose packets may arrive in another order than they entered. Not for
    /// RED, like `feed_ahead`.
    pub fn merge_inputs(&mut self) {
        debug_assert!(!self.is_red());
        self.merged = true;
    }

    pub fn is_merged(&self) -> bool {
        self.merged
    }

    pub fn is_red(&self) -> bool {
        matches!(self.policy, Policy::Red(..))
    }

    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }

    pub fn rate_bps(&self) -> u64 {
        self.rate_bps
    }

    /// Packets in the queue (including the one in service) as seen at `now` by an event
    /// scheduled at `sched` (see `departed`).
    pub fn len_packets_at(&self, now: Time, sched: Time) -> usize {
        let gone = self.pending.iter().take_while(|&&(d, size)| self.departed(d, size, now, sched)).count();
        let not_yet_in = self.ahead.as_ref().map_or(0, |a| a.accepted_ahead(now, sched));
        self.pending.len() - gone - not_yet_in
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

    /// Removes the packets that have left as seen at `now` by an event scheduled at
    /// `sched` (`departed`). Their counts were taken when they were accepted (tally.rs).
    #[inline(always)]
    fn retire(&mut self, now: Time, sched: Time) {
        let mut emptied_at = None;
        while let Some(&(d, size)) = self.pending.front() {
            if d > now || (d == now && d - self.service_time(size) >= sched) {
                break;
            }
            self.pending.pop_front();
            self.bytes -= size as u64;
            emptied_at = Some(d);
        }
        if let (Some(d), true, Policy::Red(red, _)) = (emptied_at, self.pending.is_empty(), &mut self.policy) {
            red.on_queue_empty(d);
        }
    }

    /// Counters at `now` as seen by an event scheduled at `sched` (`departed`).
    pub fn counters_at(&self, now: Time, sched: Time) -> QueueCounters {
        let rate = self.rate_bps;
        let not_left = self.pending.iter().filter(|&&(d, size)| !self.departed(d, size, now, sched));
        let not_left = not_left.map(|&(d, size)| (d, size, transmission_time(size, rate)));
        match &self.ahead {
            None => self.tally.at(now, not_left),
            Some(ahead) => {
                let mut c = self.tally.totals();
                ahead.take_back(&mut c, now, sched);
                Tally::less_not_left(c, now, not_left)
            }
        }
    }

    /// Offers a packet of `size` bytes at `now`, brought by an event scheduled at `sched`.
    /// Returns when its serialisation starts and ends (its departure), or None if it was
    /// dropped (the caller frees it). Drop-tail, random tail drop and RED all decide at
    /// arrival, on the occupancy left by the packets that have not departed (`departed`).
    #[inline(always)]
    pub fn arrive(&mut self, size: u32, now: Time, sched: Time) -> Option<(Time, Time)> {
        self.retire(now, sched);
        self.admit(size, now, 0, 0)
    }

    /// `arrive` for a packet that arrives at `at`, decided earlier, at `now` (a queue fed
    /// ahead, `feed_ahead`): the same decision and departure, on the occupancy at `at`. The
    /// packets departing between now and then stay until now has passed them (a reading
    /// in between still sees them), so the occupancy at `at` leaves them out by count.
    #[inline(always)]
    pub fn arrive_ahead(&mut self, size: u32, at: Time, sched: Time, now: Time) -> Option<(Time, Time)> {
        while let Some(&(d, size)) = self.pending.front() {
            if d >= now {
                break;
            }
            self.pending.pop_front();
            self.bytes -= size as u64;
        }
        let (mut gone, mut gone_bytes) = (0, 0);
        for &(d, size) in self.pending.iter() {
            if !self.departed(d, size, at, sched) {
                break;
            }
            gone += 1;
            gone_bytes += size as u64;
        }
        let out = self.admit(size, at, gone, gone_bytes);
        if let Some(ahead) = self.ahead.as_mut() {
            ahead.note(now, at, sched, size, out.is_some());
        }
        out
    }

    /// The drop decision and departure of a packet arriving at `now`, with `gone` packets
    /// of `gone_bytes` at the head of the FIFO departed by then.
    #[inline(always)]
    fn admit(&mut self, size: u32, now: Time, gone: usize, gone_bytes: u64) -> Option<(Time, Time)> {
        self.tally.arrival();
        let held = self.pending.len() - gone;
        let (used, cap, byte_buffer) = match self.buffer {
            Buffer::Packets(n) => (held as u64, n as u64, false),
            Buffer::Bytes(b) => (self.bytes - gone_bytes, b, true),
        };
        let incoming = if byte_buffer { size as u64 } else { 1 };
        let mut drop = used + incoming > cap;
        if !drop {
            drop = match &mut self.policy {
                Policy::DropTail => false,
                Policy::Red(red, rng) => red.should_drop(held as u32, now, rng),
                Policy::RandomTail(p, rng) => p.in_drop_zone(used, cap, size as u64, byte_buffer) && rng.chance(p.prob),
            };
        }
        if drop {
            self.tally.drop(size);
            return None;
        }
        let service = self.service_time(size);
        let start = self.busy_until.max(now);
        let departure = start + service;
        self.busy_until = departure;
        self.pending.push_back((departure, size));
        self.bytes += size as u64;
        self.tally.accept(size, now, service, departure);
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
        assert_eq!(q.counters_at(0, 0).drops, 3);
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
        let c = q.counters_at(3 * ms, u64::MAX);
        assert_eq!((c.departures, c.busy_time), (3, 3 * ms));
        // Occupancy 3, 2, 1 packets for 1 ms each: mean 2 over 3 ms.
        assert_eq!(c.area_packets, 6 * ms as u128);
        // An arrival after the queue drained starts service at once.
        assert_eq!(q.arrive(1000, 5 * ms, 5 * ms), Some((5 * ms, 6 * ms)));
        // At 6 ms exactly, a probe scheduled before the last service began (at 5 ms) sees the
        // packet still there; the final tally does not.
        assert_eq!(q.counters_at(6 * ms, 4 * ms).departures, 3);
        assert_eq!(q.counters_at(6 * ms, u64::MAX).departures, 4);
        assert_eq!(q.counters_at(6 * ms, u64::MAX).area_packets, 7 * ms as u128);
    }

    #[test]
    fn a_window_starting_mid_packet_is_never_busier_than_it_is_long() {
        // 1 ms per packet; a window from 0.5 ms to 1 ms saw half a packet's service, not the
        // whole packet that departed in it (which read a utilisation of 2).
        let mut q = Queue::new(&QueueConfig::drop_tail(8_000_000, Buffer::Packets(10)), Rng::for_stream(0, 0));
        let us = crate::time::micros(1);
        for _ in 0..3 {
            q.arrive(1000, 0, 0);
        }
        let (start, end) = (q.counters_at(500 * us, u64::MAX), q.counters_at(1000 * us, u64::MAX));
        assert_eq!(end.busy_time - start.busy_time, 500 * us);
        assert_eq!(q.counters_at(2750 * us, u64::MAX).busy_time, 2750 * us);
    }

    /// The counters at `read` against their definitions over the accepted packets.
    fn check(q: &Queue, accepted: &[(Time, Time, u32)], read: Time) {
        let rate = q.rate_bps();
        let c = q.counters_at(read, u64::MAX);
        let left: Vec<_> = accepted.iter().filter(|&&(_, d, _)| d <= read).collect();
        assert_eq!(c.departures, left.len() as u64);
        assert_eq!(c.departure_bytes, left.iter().map(|&&(_, _, s)| s as u64).sum::<u64>());
        // Busy time: every departed packet's service, and the elapsed part of the one in
        // service at `read` (a window ending mid-packet is never busier than it is long).
        let served = |&(_, d, s): &(Time, Time, u32)| {
            let service = transmission_time(s, rate);
            if d <= read { service } else { read.saturating_sub(d - service).min(service) }
        };
        assert_eq!(c.busy_time, accepted.iter().map(served).sum::<u64>());
        let stay = |&(a, d, _): &(Time, Time, u32)| (d.min(read) - a) as u128;
        assert_eq!(c.area_packets, accepted.iter().map(stay).sum::<u128>());
        assert_eq!(c.area_bytes, accepted.iter().map(|e| stay(e) * e.2 as u128).sum::<u128>());
    }

    #[test]
    fn counters_match_the_occupancy_counted_departure_by_departure() {
        // Mixed sizes through a small buffer: some drops, busy and idle spells.
        let rate = 8_000_000;
        let mut q = Queue::new(&QueueConfig::drop_tail(rate, Buffer::Packets(6)), Rng::for_stream(0, 0));
        let us = crate::time::micros(1);
        let (mut t, mut x) = (0u64, 12345u64);
        let mut accepted = Vec::new(); // (arrival, departure, size)
        for i in 0..2000 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            t += (x >> 33) % 1500 * us;
            // Read now and then, as probes do (at the present, before this arrival).
            if i % 97 == 0 {
                check(&q, &accepted, t);
            }
            let size = if x & 1 == 0 { 40 } else { 1500 };
            if let Some((_, d)) = q.arrive(size, t, t) {
                accepted.push((t, d, size));
            }
        }
        check(&q, &accepted, t);
        check(&q, &accepted, t + 5 * crate::time::millis(1));
        assert!(q.counters_at(t, u64::MAX).drops > 0);
    }
}
