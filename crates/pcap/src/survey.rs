//! First pass over a capture: every direction of every TCP connection, with what is needed to
//! choose its delay source (timestamp clock rate, spread of the one-way delay, echoes and
//! ACKs coming back) and to group MPTCP subflows (MP_CAPABLE keys, MP_JOIN tokens). Memory
//! grows with the number of connections that carry data (a fixed-size sample of points per
//! direction), at most [`MAX_DIRS`] directions, not with the number of packets; directions
//! without data (a SYN flood's) are held in a bounded space apart ([`PENDING`]).

use crate::packet::{Addr, Segment, ACK, SYN};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// One direction of a TCP connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    pub src: Addr,
    pub dst: Addr,
    pub sport: u16,
    pub dport: u16,
}

impl Key {
    pub fn of(s: &Segment) -> Key {
        Key { src: s.src, dst: s.dst, sport: s.sport, dport: s.dport }
    }

    pub fn reverse(&self) -> Key {
        Key { src: self.dst, dst: self.src, sport: self.dport, dport: self.sport }
    }
}

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}->{}:{}", self.src, self.sport, self.dst, self.dport)
    }
}

/// FxHash (rustc's): keys are not attacker-chosen in an offline tool, and SipHash would cost
/// more than the rest of the per-packet work.
#[derive(Default, Clone, Copy)]
pub struct Fx(u64);

impl Hasher for Fx {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for c in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.0 = (self.0.rotate_left(5) ^ i as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

pub type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;

/// Extends a 32-bit counter that may wrap (TCP timestamps, sequence numbers) to 64 bits,
/// assuming consecutive values differ by less than 2^31.
#[derive(Clone, Copy, Debug, Default)]
pub struct Unwrap {
    last: Option<u64>,
}

impl Unwrap {
    #[inline]
    pub fn extend(&mut self, v: u32) -> u64 {
        let out = match self.last {
            None => v as u64 + (1 << 32),
            Some(last) => {
                let d = v.wrapping_sub(last as u32) as i32 as i64;
                (last as i64 + d).max(0) as u64
            }
        };
        // Never move backwards by more than a reordering: keep the largest as the reference.
        self.last = Some(self.last.map_or(out, |l| if out > l { out } else { l }));
        out
    }
}

/// Points (capture time, TSval) kept per direction: a thinned sample of fixed size.
const POINTS: usize = 2048;

/// Data TSvals remembered per direction for the ACK lag (a window's worth).
const RECENT: usize = 4096;

impl DirStats {
    /// An ACK of the reverse direction echoing `tsecr` at `t`: the lag from the first data
    /// packet that carried it, kept in a thinned sample of fixed size.
    fn echoed(&mut self, tsecr: u32, t: u64) {
        while let Some(&(v, sent)) = self.recent.front() {
            // TSvals increase (mod 2^32): older ones than the echo are done with.
            if (v.wrapping_sub(tsecr) as i32) > 0 {
                break;
            }
            self.recent.pop_front();
            if v == tsecr {
                self.lag_seen += 1;
                if self.lag_seen % self.lag_stride == 0 {
                    if self.ack_lags.len() == POINTS {
                        let kept: Vec<u64> = self.ack_lags.iter().copied().step_by(2).collect();
                        self.ack_lags = kept;
                        self.lag_stride *= 2;
                    }
                    self.ack_lags.push(t.saturating_sub(sent));
                }
                break;
            }
        }
    }

    /// Median lag from data to the ACK echoing it (ns), when there were echoes.
    pub fn median_ack_lag(&self) -> Option<u64> {
        let mut l = self.ack_lags.clone();
        l.sort_unstable();
        l.get(l.len() / 2).copied()
    }
}

#[derive(Clone, Debug)]
pub struct DirStats {
    pub key: Key,
    /// Index of the first record of this direction (orders subflows seen at one time).
    pub first_record: u64,
    pub first_ns: u64,
    pub last_ns: u64,
    pub packets: u64,
    pub data_packets: u64,
    pub payload_bytes: u64,
    pub syn_ns: Option<u64>,
    /// MP_CAPABLE keys seen: this direction's sender's, and (from an option with two keys)
    /// the receiver's.
    pub key_local: Option<u64>,
    pub key_remote: Option<u64>,
    pub mp_capable: bool,
    pub join_token: Option<u32>,
    pub sbd_ts_packets: u64,
    pub ts_data_packets: u64,
    /// ACK-flagged packets with a non-zero TSecr (echoes of the other direction's TSval).
    pub echoes: u64,
    pub acks: u64,
    ts: Unwrap,
    /// (capture ns, unwrapped TSval) of every `stride`-th data packet with a timestamp.
    pub points: Vec<(u64, u64)>,
    stride: u64,
    /// Recent data packets' (TSval, first capture ns), for the lag to the ACK echoing them.
    recent: std::collections::VecDeque<(u32, u64)>,
    /// Lags (ns) from a data packet's capture to the first ACK echoing its TSval (RFC 7323
    /// §4.1), a thinned sample: about zero at the receiver, a round trip at the sender.
    pub ack_lags: Vec<u64>,
    lag_stride: u64,
    lag_seen: u64,
    /// Index of the reverse direction in `Survey::dirs`, once seen.
    rev: Option<u32>,
}

impl DirStats {
    pub(crate) fn new(key: Key, record: u64, t: u64) -> Self {
        DirStats {
            key,
            first_record: record,
            first_ns: t,
            last_ns: t,
            packets: 0,
            data_packets: 0,
            payload_bytes: 0,
            syn_ns: None,
            key_local: None,
            key_remote: None,
            mp_capable: false,
            join_token: None,
            sbd_ts_packets: 0,
            ts_data_packets: 0,
            echoes: 0,
            acks: 0,
            ts: Unwrap::default(),
            points: Vec::new(),
            stride: 1,
            recent: std::collections::VecDeque::new(),
            ack_lags: Vec::new(),
            lag_stride: 1,
            lag_seen: 0,
            rev: None,
        }
    }

    #[inline]
    fn add(&mut self, t: u64, s: &Segment) {
        self.packets += 1;
        self.last_ns = self.last_ns.max(t);
        if s.flags & SYN != 0 && self.syn_ns.is_none() {
            self.syn_ns = Some(t);
        }
        if s.flags & ACK != 0 {
            self.acks += 1;
        }
        let o = &s.opts;
        if let Some((tsval, tsecr)) = o.ts {
            if s.flags & ACK != 0 && tsecr != 0 {
                self.echoes += 1;
            }
            if s.payload > 0 {
                self.ts_data_packets += 1;
                let v = self.ts.extend(tsval);
                if self.recent.back().is_none_or(|&(v, _)| v != tsval) {
                    if self.recent.len() == RECENT {
                        self.recent.pop_front();
                    }
                    self.recent.push_back((tsval, t));
                }
                if self.ts_data_packets % self.stride == 0 {
                    if self.points.len() == POINTS {
                        // Keep every other point and halve the rate: a uniform thinning.
                        let kept: Vec<(u64, u64)> = self.points.iter().copied().step_by(2).collect();
                        self.points = kept;
                        self.stride *= 2;
                    }
                    self.points.push((t, v));
                }
            }
        }
        if s.payload > 0 {
            self.data_packets += 1;
            self.payload_bytes += s.payload as u64;
        }
        if let Some((k1, k2)) = o.mp_capable {
            self.mp_capable = true;
            self.key_local = Some(k1);
            if k2.is_some() {
                self.key_remote = k2;
            }
        }
        if o.mp_capable_syn {
            self.mp_capable = true;
        }
        if o.join_token.is_some() && s.flags & SYN != 0 && s.flags & ACK == 0 {
            self.join_token = o.join_token;
        }
        if o.sbd_ts.is_some() && s.payload > 0 {
            self.sbd_ts_packets += 1;
        }
    }
}

/// What the first pass found.
#[derive(Clone, Debug, Default)]
pub struct Survey {
    pub dirs: Vec<DirStats>,
    pub index: FxMap<Key, u32>,
    /// Records read, copies included.
    pub records: u64,
    /// TCP segments analysed (copies excluded).
    pub tcp_segments: u64,
    /// Records dropped as copies of a frame seen shortly before ([`crate::dedup`]).
    pub duplicates: u64,
    /// Frames that gave no TCP segment, per [`crate::packet::Skip`] (in `Skip::ALL` order).
    pub skipped: [u64; crate::packet::Skip::ALL.len()],
    /// Record number (from 1) of the first frame skipped as malformed.
    pub first_malformed: Option<u64>,
    pub first_ns: Option<u64>,
    pub last_ns: u64,
    /// Records whose time is before the one before them (in file order).
    pub out_of_order: u64,
    /// The largest step back in time from one record to the next (ns, record number from 1).
    pub largest_step_back: (u64, u64),
    /// The largest step forward in time from one record to the next (ns, record number).
    pub largest_jump: (u64, u64),
    prev_ns: u64,
    last: Option<(Key, u32)>,
    /// Directions without data (yet) whose reverse carries none either: a SYN flood or a port
    /// scan makes millions of them, so they are held apart, in two generations of at most
    /// [`PENDING`] each, and forgotten a generation at a time ([`Pending`]).
    pending: Pending,
    /// Data directions not analysed because [`MAX_DIRS`] were held already; the record
    /// number of the first.
    pub over_limit: Option<u64>,
}

/// Directions held with their full state (data directions and their reverses): each costs
/// a few hundred bytes plus its samples (at most about 100 kB), so this bounds the survey's
/// memory whatever the capture holds.
pub const MAX_DIRS: usize = 500_000;

/// Directions without data held in one generation: 2 x 131072 of about 400 bytes each.
pub const PENDING: usize = 1 << 17;

/// Directions seen without data: when the young generation is full, the old one is forgotten
/// and the young becomes old. A direction that then carries data (or whose reverse does)
/// moves to the survey's full state with what was seen of it; one forgotten starts anew,
/// without its handshake (its SYN time and MPTCP keys).
#[derive(Clone, Debug, Default)]
struct Pending {
    young: FxMap<Key, DirStats>,
    old: FxMap<Key, DirStats>,
    /// Directions forgotten so far.
    forgotten: u64,
}

impl Pending {
    fn take(&mut self, key: &Key) -> Option<DirStats> {
        self.young.remove(key).or_else(|| self.old.remove(key))
    }

    fn add(&mut self, key: Key, record: u64, t: u64, s: &Segment) {
        if let Some(d) = self.young.get_mut(&key) {
            return d.add(t, s);
        }
        let mut d = self.old.remove(&key).unwrap_or_else(|| DirStats::new(key, record, t));
        d.add(t, s);
        if self.young.len() == PENDING {
            self.forgotten += self.old.len() as u64;
            self.old = std::mem::take(&mut self.young);
        }
        self.young.insert(key, d);
    }

    fn len(&self) -> usize {
        self.young.len() + self.old.len()
    }
}

impl Survey {
    /// A record that copies one seen shortly before: counted, not analysed.
    pub fn copy(&mut self) {
        self.records += 1;
        self.duplicates += 1;
    }

    #[inline]
    pub fn record(&mut self, t: u64, parsed: Result<Segment, crate::packet::Skip>) {
        self.records += 1;
        if self.first_ns.is_none() {
            self.first_ns = Some(t);
        }
        if t < self.prev_ns {
            self.out_of_order += 1;
            if self.prev_ns - t > self.largest_step_back.0 {
                self.largest_step_back = (self.prev_ns - t, self.records);
            }
        } else if self.records > 1 && t - self.prev_ns > self.largest_jump.0 {
            self.largest_jump = (t - self.prev_ns, self.records);
        }
        self.prev_ns = t;
        self.last_ns = self.last_ns.max(t);
        let s = match parsed {
            Ok(s) => s,
            Err(skip) => {
                let i = crate::packet::Skip::ALL.iter().position(|&k| k == skip).expect("listed");
                self.skipped[i] += 1;
                if skip == crate::packet::Skip::Malformed && self.first_malformed.is_none() {
                    self.first_malformed = Some(self.records);
                }
                return;
            }
        };
        self.tcp_segments += 1;
        let key = Key::of(&s);
        let i = match self.last {
            Some((k, i)) if k == key => i,
            _ => match self.index.get(&key) {
                Some(&i) => {
                    self.last = Some((key, i));
                    i
                }
                None => {
                    // A direction enters the full state when it carries data or is the reverse
                    // of one that does (its ACKs); before, it is pending.
                    if s.payload == 0 && !self.index.contains_key(&key.reverse()) {
                        self.pending.add(key, self.records, t, &s);
                        return;
                    }
                    if self.dirs.len() + 2 > MAX_DIRS {
                        self.over_limit.get_or_insert(self.records);
                        return;
                    }
                    let rev = key.reverse();
                    let mine = self.pending.take(&key).unwrap_or_else(|| DirStats::new(key, self.records, t));
                    // The reverse moves with it, in the order first seen.
                    let mut moved = vec![mine];
                    moved.extend(self.pending.take(&rev));
                    moved.sort_by_key(|d| d.first_record);
                    for d in moved {
                        self.index.insert(d.key, self.dirs.len() as u32);
                        self.dirs.push(d);
                    }
                    let i = self.index[&key];
                    self.last = Some((key, i));
                    i
                }
            },
        };
        self.dirs[i as usize].add(t, &s);
        // An ACK echoing the reverse direction's TSval: that direction's lag to its ACKs.
        if let (Some((_, tsecr)), true) = (s.opts.ts, s.flags & ACK != 0) {
            if tsecr != 0 {
                // The reverse direction's index, looked up until it exists, then kept.
                let r = match self.dirs[i as usize].rev {
                    Some(r) => Some(r),
                    None => {
                        let r = self.index.get(&key.reverse()).copied();
                        self.dirs[i as usize].rev = r;
                        r
                    }
                };
                if let Some(r) = r {
                    // Only a direction that carries data has TSvals awaiting an echo.
                    if !self.dirs[r as usize].recent.is_empty() {
                        self.dirs[r as usize].echoed(tsecr, t);
                    }
                }
            }
        }
    }

    /// Flow directions seen: with their full state, pending, and forgotten.
    pub fn directions(&self) -> u64 {
        (self.dirs.len() + self.pending.len()) as u64 + self.pending.forgotten
    }

    /// Directions without data forgotten to bound memory ([`PENDING`]).
    pub fn forgotten(&self) -> u64 {
        self.pending.forgotten
    }

    pub fn dir(&self, key: &Key) -> Option<&DirStats> {
        self.index.get(key).map(|&i| &self.dirs[i as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::Addr;

    fn seg(fwd: bool, payload: u32, tsval: u32, tsecr: u32) -> Segment {
        let (a, b) = (Addr::v4([10, 0, 0, 1]), Addr::v4([10, 0, 0, 2]));
        let mut s = Segment { src: a, dst: b, sport: 1000, dport: 80, flags: ACK, payload, ..Segment::default() };
        if !fwd {
            (s.src, s.dst, s.sport, s.dport) = (b, a, 80, 1000);
        }
        s.opts.ts = Some((tsval, tsecr));
        s
    }

    /// Data with TSvals in 1 ms ticks, four segments per tick, echoed `lag` after the first
    /// segment of each tick (RFC 7323 §4.1: TSecr echoes the earliest unacknowledged TSval).
    fn lag_of(lag: u64) -> Option<u64> {
        let mut s = Survey::default();
        let mut events = Vec::new();
        for tick in 1..=400u32 {
            let t0 = tick as u64 * 1_000_000;
            for k in 0..4 {
                events.push((t0 + k * 200_000, seg(true, 1448, tick, 0)));
            }
            events.push((t0 + lag, seg(false, 0, 7, tick)));
        }
        events.sort_by_key(|e| e.0);
        for (t, e) in events {
            s.record(t, Ok(e));
        }
        s.dir(&Key::of(&seg(true, 0, 0, 0))).unwrap().median_ack_lag()
    }

    #[test]
    fn the_lag_from_data_to_its_echo_is_measured_from_the_first_segment_of_a_tick() {
        // At a receiver the echo leaves at once; at a sender it comes a round trip later.
        assert_eq!(lag_of(300_000), Some(300_000));
        assert_eq!(lag_of(30_000_000), Some(30_000_000));
        // No echoes: no lag.
        let mut s = Survey::default();
        s.record(0, Ok(seg(true, 1448, 5, 0)));
        assert_eq!(s.dirs[0].median_ack_lag(), None);
    }

    /// A SYN from its own address and port: a connection that never carries data.
    fn syn(i: u32) -> Segment {
        let b = i.to_be_bytes();
        Segment { src: Addr::v4([10, b[1], b[2], b[3]]), dst: Addr::v4([192, 0, 2, 1]), sport: 1024, dport: 80, flags: SYN, ..Segment::default() }
    }

    #[test]
    fn a_syn_flood_is_held_in_bounded_space_and_the_data_connection_keeps_its_handshake() {
        let mut s = Survey::default();
        let mut t = 0;
        let mut at = |s: &mut Survey, seg: Segment| {
            t += 1000;
            s.record(t, Ok(seg));
        };
        // A connection opens, then 3 x PENDING SYNs of a flood, then the SYN of a second one;
        // then both send data and are acknowledged.
        let open = |fwd: bool, port: u16| {
            let mut x = seg(fwd, 0, 1, 0);
            x.sport = if fwd { port } else { 80 };
            x.dport = if fwd { 80 } else { port };
            x.flags = SYN;
            x
        };
        at(&mut s, open(true, 1000));
        for i in 0..3 * PENDING as u32 {
            at(&mut s, syn(i));
        }
        at(&mut s, open(true, 2000));
        for port in [1000, 2000] {
            for k in 0..10 {
                let mut d = seg(true, 1448, 10 + k, 0);
                d.sport = port;
                at(&mut s, d);
                let mut a = seg(false, 0, 7, 10 + k);
                a.dport = port;
                at(&mut s, a);
            }
        }
        assert!(s.pending.len() <= 2 * PENDING, "{}", s.pending.len());
        assert!(s.forgotten() >= PENDING as u64);
        // Full state only for the two data directions and their ACKs.
        assert_eq!(s.dirs.len(), 4);
        let dir = |port: u16| {
            let mut k = Key::of(&seg(true, 0, 0, 0));
            k.sport = port;
            s.dir(&k).unwrap()
        };
        assert_eq!((dir(1000).data_packets, dir(2000).data_packets), (10, 10));
        // The first connection's SYN was forgotten in the flood; the second's was kept.
        assert_eq!((dir(1000).syn_ns, dir(2000).syn_ns), (None, Some((3 * PENDING as u64 + 2) * 1000)));
        assert!(dir(1000).median_ack_lag().is_some());
        // Seen: the flood, two SYN directions and two ACK directions; the first connection's
        // SYN direction counts twice (forgotten, then seen again with data).
        assert_eq!(s.directions(), 3 * PENDING as u64 + 5);
    }
}
