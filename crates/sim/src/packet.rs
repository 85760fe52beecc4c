//! Packets. TCP sequence numbers count segments (packets), not bytes: every data segment of
//! a flow carries `mss_bytes` of payload, as in htsim.

use crate::time::Time;

/// Index of a packet in the [`crate::pool::PacketPool`].
pub type PacketId = u32;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum PacketKind {
    TcpData,
    TcpAck,
    Udp,
}

/// Data segment that is a retransmission (Karn: no RTT sample from its ACK).
pub const FLAG_RETRANSMIT: u8 = 1;
/// ACK whose `ts` echoes the send time of a segment sent once only: a valid RTT sample.
pub const FLAG_ECHO_VALID: u8 = 2;
/// `mp_option` holds an MPTCP-SBD MP_TIMESTAMP option (data segments).
pub const FLAG_MP_TIMESTAMP: u8 = 4;
/// `mp_option` holds an MPTCP-SBD MP_GROUP option (ACKs).
pub const FLAG_MP_GROUP: u8 = 8;
/// Data segment with PSH set: the last of one of the application's writes (only with
/// `TcpFlowConfig::linux_send_buffer`; tcp/send_buffer.rs).
pub const FLAG_PUSH: u8 = 16;

/// One SACK block: segments `start..end` (half-open) received above the cumulative ACK.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SackBlock {
    pub start: u64,
    pub end: u64,
}

/// SACK blocks carried per ACK (RFC 2018 allows 4 without, 3 with timestamps).
pub const MAX_SACK_BLOCKS: usize = 3;

/// One cache line: a packet that waited in a queue or a pipe costs one miss to read.
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
pub struct Packet {
    /// Data: segment number. ACK: cumulative ACK (next segment expected).
    pub seq: u64,
    /// Data: time sent. ACK: echo of the triggering segment's send time.
    pub ts: Time,
    /// Interned route and the index of the next element on it.
    pub route: u32,
    pub hop: u16,
    pub kind: PacketKind,
    pub flags: u8,
    pub size_bytes: u32,
    /// The flow this packet belongs to (index into the simulation's flow table).
    pub flow: u32,
    n_sack: u8,
    /// The 4 variable bytes of an MPTCP-SBD option (see `mptcp::options`), present when
    /// `flags` has FLAG_MP_TIMESTAMP or FLAG_MP_GROUP.
    pub mp_option: [u8; 4],
    /// SACK blocks as (start, end) offsets above the cumulative ACK in `seq`.
    sack: [[u32; 2]; MAX_SACK_BLOCKS],
}

impl Packet {
    pub const EMPTY: Packet = Packet {
        seq: 0,
        ts: 0,
        route: 0,
        hop: 0,
        kind: PacketKind::Udp,
        flags: 0,
        size_bytes: 0,
        flow: 0,
        n_sack: 0,
        mp_option: [0; 4],
        sack: [[0; 2]; MAX_SACK_BLOCKS],
    };

    pub fn sack_count(&self) -> usize {
        self.n_sack as usize
    }

    /// SACK block `i` (< `sack_count()`) in absolute segment numbers.
    pub fn sack_block(&self, i: usize) -> SackBlock {
        let [s, e] = self.sack[i];
        SackBlock { start: self.seq + s as u64, end: self.seq + e as u64 }
    }

    /// Stores SACK blocks; set `seq` (the cumulative ACK) first. Blocks lie above it.
    pub fn set_sack(&mut self, blocks: &[SackBlock]) {
        let n = blocks.len().min(MAX_SACK_BLOCKS);
        for (dst, b) in self.sack.iter_mut().zip(&blocks[..n]) {
            *dst = [(b.start.saturating_sub(self.seq)) as u32, (b.end.saturating_sub(self.seq)) as u32];
        }
        self.n_sack = n as u8;
    }
}
