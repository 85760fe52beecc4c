//! A queue's counters without work per departure. A FIFO served at a fixed rate knows, when
//! it accepts a packet, everything the packet will add: one departure, its bytes, its
//! service time, and its stay (arrival to departure) in the occupancy integrals. So each
//! is added in full at acceptance, and a reading at `now` takes back the part still ahead
//! for the packets that have not left yet: the same integers the queue would have counted
//! departure by departure (the integral of the occupancy is the sum of the stays, cut at
//! `now`), with nothing done per packet when it leaves.

use crate::time::Time;

/// Cumulative counters of one queue at one instant. `QueueStats` are differences of these.
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
}

/// What every packet seen so far adds, each accepted one counted up to its departure.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Tally {
    /// `departures` and the rest count every accepted packet as if it had left.
    totals: QueueCounters,
}

impl Tally {
    #[inline(always)]
    pub fn arrival(&mut self) {
        self.totals.arrivals += 1;
    }

    #[inline(always)]
    pub fn drop(&mut self, size: u32) {
        self.totals.drops += 1;
        self.totals.drop_bytes += size as u64;
    }

    /// A packet of `size` bytes accepted at `now`, serialised for `service`, leaving at
    /// `departure`.
    #[inline(always)]
    pub fn accept(&mut self, size: u32, now: Time, service: Time, departure: Time) {
        let t = &mut self.totals;
        let stay = (departure - now) as u128;
        t.departures += 1;
        t.departure_bytes += size as u64;
        t.busy_time += service;
        t.area_packets += stay;
        t.area_bytes += stay * size as u128;
    }

    /// What every packet seen so far adds, each accepted one counted up to its departure.
    pub fn totals(&self) -> QueueCounters {
        self.totals
    }

    /// The counters at `now` (the present: no packet has arrived later), given the packets
    /// that have not left by then as (departure, size, service time): each has yet to
    /// depart, to stay `departure - now`, and to be served for what of its service lies after
    /// `now` (the packet in service at `now` counts its elapsed part, so that the busy time of
    /// a window starting or ending mid-packet never exceeds the window).
    pub fn at(&self, now: Time, not_left: impl Iterator<Item = (Time, u32, Time)>) -> QueueCounters {
        Self::less_not_left(self.totals, now, not_left)
    }

    /// `at` from counters `c` (the totals, or the totals less arrivals that come after `now`,
    /// queue/ahead.rs).
    pub fn less_not_left(mut c: QueueCounters, now: Time, not_left: impl Iterator<Item = (Time, u32, Time)>) -> QueueCounters {
        for (departure, size, service) in not_left {
            let ahead = departure.saturating_sub(now);
            c.departures -= 1;
            c.departure_bytes -= size as u64;
            c.busy_time -= service.min(ahead);
            let ahead = ahead as u128;
            c.area_packets -= ahead;
            c.area_bytes -= ahead * size as u128;
        }
        c
    }
}
