//! Frames captured twice: `tcpdump -i any` on a forwarding host or on loopback records a
//! packet on the way in and on the way out, and merged captures of one link repeat it. A
//! copy has the same addresses, ports, sequence and ACK numbers, flags, length, IPv4
//! identification and TSval as a frame seen shortly before; a retransmission differs in its
//! identification (Linux numbers a socket's packets in order; RFC 6864 §4.1) or its TSval
//! (RFC 7323 §4.1: a new transmission carries the current clock). Copies are dropped before
//! anything else reads the frame, so a copy never counts as a retransmission (a loss).

use crate::packet::Segment;
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// How far apart a frame and its copy may be. A forwarding host sees the two copies apart by
/// its own queueing (up to its buffer, tens of ms); a retransmission by timeout comes at least
/// Linux's minimum RTO (200 ms; RFC 6298 §2.4 asks for 1 s) after the original, and one sooner
/// (fast retransmit) carries a newer TSval unless the round trip is shorter than one tick.
pub const WINDOW_NS: u64 = 100_000_000;

/// Frames remembered at most: bounds memory whatever the rate (10 Gb/s of full-size frames
/// fill 100 ms with about 83000). A map that reaches it after its sweep is emptied: a copy of
/// a frame seen before that is then kept (and counted as a retransmission).
const REMEMBERED: usize = 1 << 17;

/// A 64-bit digest of what a copy shares with its original: addresses, ports, sequence and
/// ACK numbers, flags, length, IPv4 identification and TSval (FxHash's multiply-rotate over
/// the fields, then a final mix). Two different frames share it with probability 2^-64 per
/// pair, far below anything a capture's 100 ms window holds.
#[inline]
fn signature(s: &Segment) -> u64 {
    const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
    let mut h = 0u64;
    let mut mix = |w: u64| h = (h.rotate_left(5) ^ w).wrapping_mul(K);
    for a in [&s.src.0, &s.dst.0] {
        mix(u64::from_le_bytes(a[..8].try_into().expect("8")));
        mix(u64::from_le_bytes(a[8..].try_into().expect("8")));
    }
    mix((s.sport as u64) << 48 | (s.dport as u64) << 32 | s.seq as u64);
    mix((s.ack as u64) << 32 | s.payload as u64);
    let id = s.ip_id.map_or(1 << 16, |i| i as u64);
    let ts = s.opts.ts.map_or(1 << 32, |t| t.0 as u64);
    mix((s.flags as u64) << 56 ^ id << 33 ^ ts);
    // splitmix64's finaliser: every input bit reaches every output bit.
    h ^= h >> 30;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^= h >> 27;
    h = h.wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

/// The digests are already mixed: the map uses them as they are.
#[derive(Default, Clone, Copy)]
pub struct Identity(u64);

impl Hasher for Identity {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | b as u64;
        }
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.0 = i;
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// The frames of the last [`WINDOW_NS`], to recognise copies. Each frame costs one map
/// lookup; frames older than the window are swept out all at once every [`WINDOW_NS`] of
/// capture time (one pass over a map of at most two windows' frames), not one by one: the
/// time kept with each digest already tells a copy from a frame seen too long ago.
#[derive(Default)]
pub struct Dedup {
    latest: HashMap<u64, u64, BuildHasherDefault<Identity>>,
    /// Capture time of the next sweep, and the latest time seen.
    sweep_at: u64,
    now: u64,
    /// Copies recognised so far.
    pub dropped: u64,
    /// Several files are merged: times carry their file ([`FILE_BITS`]).
    several: bool,
    /// Of them, copies of a frame of another file ([`Dedup::is_copy_in`]).
    pub across_files: u64,
}

/// Low bits of a remembered time that name the file the frame came from (several files
/// only): 256 files, the times then kept to 256 ns, far within [`WINDOW_NS`].
const FILE_BITS: u64 = 0xff;

impl Dedup {
    /// A copy check over `files` merged captures.
    pub fn for_files(files: usize) -> Dedup {
        Dedup { several: files > 1, ..Dedup::default() }
    }

    /// [`Dedup::is_copy`] for a frame of file `file` of several merged ones: a copy of a
    /// frame of another file (one link captured twice, one file given twice) is also counted
    /// in `across_files`. With one file this is `is_copy` exactly.
    #[inline]
    pub fn is_copy_in(&mut self, t: u64, s: &Segment, file: usize) -> bool {
        if !self.several {
            return self.is_copy(t, s);
        }
        let tagged = (t & !FILE_BITS) | (file as u64 & FILE_BITS);
        let (copy, original) = self.check(tagged, s);
        if copy && original & FILE_BITS != file as u64 & FILE_BITS {
            self.across_files += 1;
        }
        copy
    }

    /// True when `s`, captured at `t`, is a copy of a frame seen within the window (and is
    /// counted); false for a frame to analyse.
    #[inline]
    pub fn is_copy(&mut self, t: u64, s: &Segment) -> bool {
        self.check(t, s).0
    }

    /// Whether a copy, and the time kept of the frame it copies.
    #[inline]
    fn check(&mut self, t: u64, s: &Segment) -> (bool, u64) {
        self.now = self.now.max(t);
        if self.now >= self.sweep_at || self.latest.len() >= REMEMBERED {
            let cutoff = self.now.saturating_sub(WINDOW_NS);
            self.latest.retain(|_, seen| *seen >= cutoff);
            if self.latest.len() >= REMEMBERED {
                self.latest.clear();
            }
            self.sweep_at = self.now.saturating_add(WINDOW_NS);
        }
        match self.latest.entry(signature(s)) {
            // Records of one file may be slightly out of time order: either side counts.
            Entry::Occupied(e) if t.abs_diff(*e.get()) <= WINDOW_NS => {
                self.dropped += 1;
                (true, *e.get())
            }
            Entry::Occupied(mut e) => {
                e.insert(t);
                (false, 0)
            }
            Entry::Vacant(e) => {
                e.insert(t);
                (false, 0)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::{parse, linktype};

    fn frame(ip_id: u16, seq: u32, tsval: u32) -> Segment {
        let mut p = vec![0x45, 0, 0, 0, 0, 0, 0x40, 0, 64, 6, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2];
        p[2..4].copy_from_slice(&(20u16 + 32 + 1000).to_be_bytes());
        p[4..6].copy_from_slice(&ip_id.to_be_bytes());
        let mut t = vec![0u8; 20];
        t[0..2].copy_from_slice(&1234u16.to_be_bytes());
        t[2..4].copy_from_slice(&80u16.to_be_bytes());
        t[4..8].copy_from_slice(&seq.to_be_bytes());
        t[12] = 8 << 4;
        t[13] = 0x10;
        t.extend_from_slice(&[1, 1, 8, 10]);
        t.extend_from_slice(&tsval.to_be_bytes());
        t.extend_from_slice(&[0, 0, 0, 0]);
        p.extend(t);
        parse(linktype::RAW, &p).unwrap()
    }

    #[test]
    fn a_copy_within_the_window_is_dropped_and_counted() {
        let mut d = Dedup::default();
        assert!(!d.is_copy(1_000, &frame(7, 100, 5)));
        assert!(d.is_copy(1_050, &frame(7, 100, 5)), "the same frame 50 ns later");
        assert_eq!(d.dropped, 1);
        // Out of order by a little: still a copy.
        assert!(!d.is_copy(2_000, &frame(8, 1100, 5)));
        assert!(d.is_copy(1_990, &frame(8, 1100, 5)));
        assert_eq!(d.dropped, 2);
    }

    #[test]
    fn a_sweep_between_a_frame_and_its_copy_keeps_the_frame() {
        let mut d = Dedup::default();
        let ms = 1_000_000;
        assert!(!d.is_copy(0, &frame(1, 1, 1)));
        assert!(!d.is_copy(50 * ms, &frame(7, 100, 5)));
        // Frames every 10 ms pass the sweep at 100 ms (cutoff 0: nothing older to drop).
        for k in 6..14u32 {
            assert!(!d.is_copy(u64::from(k) * 10 * ms, &frame(k as u16 + 100, k, k)));
        }
        assert!(d.is_copy(140 * ms, &frame(7, 100, 5)), "90 ms after its original");
        // The frame of time 0 was swept at 200 ms; its copy 210 ms later is a new frame.
        assert!(!d.is_copy(210 * ms, &frame(1, 1, 1)));
        assert_eq!(d.dropped, 1);
    }

    #[test]
    fn retransmissions_are_not_copies() {
        let mut d = Dedup::default();
        assert!(!d.is_copy(0, &frame(7, 100, 5)));
        // Same sequence, a new identification (Linux) or a newer TSval: a retransmission.
        assert!(!d.is_copy(1_000_000, &frame(9, 100, 5)));
        assert!(!d.is_copy(2_000_000, &frame(7, 100, 6)));
        // The same header after the window: a new transmission (identification wrapped).
        assert!(!d.is_copy(WINDOW_NS + 10, &frame(7, 100, 5)));
        assert_eq!(d.dropped, 0);
    }

    #[test]
    fn every_field_of_the_signature_counts() {
        let base = frame(7, 100, 5);
        let mut other = vec![frame(8, 100, 5), frame(7, 101, 5), frame(7, 100, 6)];
        for f in [|s: &mut Segment| s.ack += 1, |s: &mut Segment| s.flags ^= 0x08, |s: &mut Segment| s.payload += 1, |s: &mut Segment| s.sport += 1, |s: &mut Segment| s.dst.0[15] ^= 1, |s: &mut Segment| s.ip_id = None] {
            let mut s = base;
            f(&mut s);
            other.push(s);
        }
        for o in &other {
            assert_ne!(signature(o), signature(&base), "{o:?}");
        }
        assert_eq!(signature(&frame(7, 100, 5)), signature(&base));
    }

    #[test]
    fn memory_is_bounded() {
        let mut d = Dedup::default();
        for i in 0..(REMEMBERED as u32 + 1000) {
            d.is_copy(i as u64, &frame(i as u16, i, i));
        }
        assert!(d.latest.len() <= REMEMBERED);
    }
}
