//! TCP receiver: cumulative ACKs, out-of-order buffering, SACK blocks (RFC 2018) and
//! optional delayed ACKs (RFC 5681 §4.2: at least every second full segment, a timer,
//! and an immediate ACK for out-of-order segments and for segments that fill a gap).

use crate::ctx::Ctx;
use crate::event::EventKind;
use crate::packet::{
    Packet, PacketId, PacketKind, SackBlock, FLAG_ECHO_VALID, FLAG_MP_GROUP, FLAG_PUSH, FLAG_RETRANSMIT, MAX_SACK_BLOCKS,
};
use crate::time::Time;

use super::delay_log::OwdSample;
use super::FlowOwner;
use super::seqset::SeqSet;
use super::timer::LazyTimer;

/// Cumulative receiver counters.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ReceiverCounters {
    /// Segments delivered in order to the application (goodput), and their wire bytes.
    pub delivered_packets: u64,
    pub delivered_bytes: u64,
    /// Data segments that arrived (including duplicates).
    pub received_packets: u64,
    pub acks_sent: u64,
}

pub struct TcpReceiver {
    flow: u32,
    ack_route: u32,
    ack_bytes: u32,
    sack: bool,
    delayed_ack: Option<Time>,
    rcv_nxt: u64,
    ooo: SeqSet,
    blocks: [SackBlock; MAX_SACK_BLOCKS],
    n_blocks: usize,
    /// In-order segments not yet acknowledged (delayed ACK).
    unacked: u32,
    last_ts: Time,
    last_echo_valid: bool,
    timer: LazyTimer,
    /// Linux's read-time ACK (`TcpFlowConfig::linux_receiver`; `read_now`).
    pub(crate) read_ack: bool,
    /// A plain TCP flow's application reads only once this many in-order segments wait
    /// (SO_RCVLOWAT, `TcpFlowConfig::read_lowat_segments`); `unread` counts them.
    pub(crate) read_lowat: u32,
    unread: u32,
    /// The lone segment waiting for its ACK was pushed (Linux's ICSK_ACK_PUSHED): a later read
    /// that empties the connection's memory ACKs it (`on_connection_read`).
    pushed: bool,
    pub counters: ReceiverCounters,
    pub(crate) owd_log: Option<Vec<OwdSample>>,
}

impl TcpReceiver {
    pub fn new(flow: u32, ack_route: u32, ack_bytes: u32, sack: bool, delayed_ack: Option<Time>) -> Self {
        TcpReceiver {
            flow,
            ack_route,
            ack_bytes,
            sack,
            delayed_ack,
            rcv_nxt: 0,
            ooo: SeqSet::new(256),
            blocks: [SackBlock::default(); MAX_SACK_BLOCKS],
            n_blocks: 0,
            unacked: 0,
            last_ts: 0,
            last_echo_valid: false,
            timer: LazyTimer::new(EventKind::DelayedAck),
            read_ack: false,
            read_lowat: 0,
            unread: 0,
            pushed: false,
            counters: ReceiverCounters::default(),
            owd_log: None,
        }
    }

    pub fn flow(&self) -> u32 {
        self.flow
    }

    /// Next segment expected.
    pub fn rcv_nxt(&self) -> u64 {
        self.rcv_nxt
    }

    /// Handles a data segment; the packet is turned into the ACK (or freed). The owner learns
    /// of the data (an MPTCP connection reassembles it) and gives the ACK's option.
    #[inline]
    pub(crate) fn on_data(&mut self, id: PacketId, ctx: &mut Ctx, owner: &mut impl FlowOwner) {
        let p = *ctx.pool.get(id);
        // A plain TCP flow's application reads every in-order segment at once, emptying its
        // receive memory, unless it waits for a low-water mark (below).
        let mut memory_empty = self.owner_data(&p, ctx, owner).unwrap_or(true);
        self.counters.received_packets += 1;
        if let Some(log) = &mut self.owd_log {
            log.push(OwdSample { sent: p.ts, received: ctx.now, retransmission: p.flags & FLAG_RETRANSMIT != 0 });
        }
        let seq = p.seq;
        let mut immediate = false;
        if seq == self.rcv_nxt {
            let filled_gap = !self.ooo.is_empty();
            self.rcv_nxt = if filled_gap { self.ooo.next_absent(seq + 1) } else { seq + 1 };
            let advanced = self.rcv_nxt - seq;
            if filled_gap {
                self.ooo.advance(self.rcv_nxt);
                self.prune_blocks();
                immediate = true;
            } else {
                self.ooo.advance(self.rcv_nxt);
            }
            self.counters.delivered_packets += advanced;
            self.counters.delivered_bytes += advanced * p.size_bytes as u64;
            if self.read_lowat > 1 {
                memory_empty = self.read_at_lowat(advanced);
            }
        } else if seq > self.rcv_nxt {
            if self.ooo.insert(seq) && self.sack {
                self.report_block_around(seq);
            }
            immediate = true;
        } else {
            // Below rcv_nxt: a spurious retransmission; ACK at once so the sender learns.
            immediate = true;
        }
        self.last_ts = p.ts;
        self.last_echo_valid = p.flags & FLAG_RETRANSMIT == 0;
        if let (Some(delay), false) = (self.delayed_ack, immediate) {
            self.unacked += 1;
            if self.unacked < 2 && !self.read_now(&p, memory_empty) {
                self.timer.arm(ctx.now + delay, ctx);
                ctx.pool.free(id);
                return;
            }
        }
        let option = owner.ack_option();
        self.turn_into_ack(id, ctx, option);
    }

    /// Whether the application's read of lone segment `p` sends its ACK at once. Linux: a
    /// full-sized segment with PSH sets ICSK_ACK_PUSHED (`tcp_measure_rcv_mss`,
    /// net/ipv4/tcp_input.c, 6.5 on), and `tcp_cleanup_rbuf` (net/ipv4/tcp.c) ACKs it when
    /// the read empties the receive memory; a subflow's read must empty its whole
    /// connection's (`mptcp_subflow_could_cleanup`, net/mptcp/protocol.c). The application
    /// reads at once, before the next segment can arrive (docs/fidelity.md).
    #[inline(never)]
    fn read_now(&mut self, p: &Packet, memory_empty: bool) -> bool {
        if !self.read_ack || p.flags & FLAG_PUSH == 0 {
            return false;
        }
        if !memory_empty {
            self.pushed = true;
            return false;
        }
        true
    }

    /// `advanced` more in-order segments wait; whether the application, woken only once
    /// `read_lowat` segments wait (Linux wakes a reader with SO_RCVLOWAT only then,
    /// `tcp_data_ready`), reads them all now and so empties the receive memory.
    fn read_at_lowat(&mut self, advanced: u64) -> bool {
        self.unread = self.unread.saturating_add(advanced.min(u32::MAX as u64) as u32);
        if self.unread < self.read_lowat {
            return false;
        }
        self.unread = 0;
        true
    }

    /// The application read the connection's data and emptied its memory.
    pub fn on_connection_read(&mut self, ctx: &mut Ctx) {
        if self.pushed && self.unacked > 0 {
            let id = ctx.pool.alloc(Packet::EMPTY);
            self.turn_into_ack(id, ctx, None);
        }
    }

    /// The data reaches the owner; for an MPTCP subflow, returns whether the connection's
    /// memory is empty after the read (`None`: the flow's own application reads it). The
    /// read that empties it lets every subflow holding a pushed segment ACK it
    /// (mptcp_cleanup_rbuf, net/mptcp/protocol.c, runs over all).
    #[inline(always)]
    fn owner_data(&mut self, p: &Packet, ctx: &mut Ctx, owner: &mut impl FlowOwner) -> Option<bool> {
        let memory = owner.on_data(p, ctx.now)?;
        if memory.emptied && self.read_ack {
            for &r in owner.subflow_receivers() {
                if r != ctx.me {
                    ctx.events.schedule(ctx.now, r, EventKind::ConnectionRead);
                }
            }
        }
        Some(memory.empty)
    }

    /// The delayed-ACK timer event.
    pub fn on_timer(&mut self, ctx: &mut Ctx) {
        if self.timer.on_event(ctx) && self.unacked > 0 {
            // An ACK of the timer carries no option (the owner is asked only in answer to
            // data, as before the owner was asked while the ACK is built).
            let id = ctx.pool.alloc(Packet::EMPTY);
            self.turn_into_ack(id, ctx, None);
        }
    }

    #[inline(always)]
    fn turn_into_ack(&mut self, id: PacketId, ctx: &mut Ctx, option: Option<[u8; 4]>) {
        self.unacked = 0;
        self.pushed = false;
        self.timer.cancel();
        self.counters.acks_sent += 1;
        let p = ctx.pool.get_mut(id);
        p.kind = PacketKind::TcpAck;
        p.seq = self.rcv_nxt;
        p.ts = self.last_ts;
        p.flags = if self.last_echo_valid { FLAG_ECHO_VALID } else { 0 };
        if let Some(bytes) = option {
            p.flags |= FLAG_MP_GROUP;
            p.mp_option = bytes;
        }
        p.route = self.ack_route;
        p.hop = 0;
        p.size_bytes = self.ack_bytes;
        p.flow = self.flow;
        p.set_sack(&self.blocks[..self.n_blocks]);
        ctx.forward(id);
    }

    /// RFC 2018 §4: the first block holds the segment that just arrived; the others repeat
    /// the most recently reported blocks that still stand apart from it.
    fn report_block_around(&mut self, seq: u64) {
        let start = self.ooo.run_start_before(seq + 1);
        let end = self.ooo.next_absent(seq);
        let mut out = [SackBlock { start, end }; MAX_SACK_BLOCKS];
        let mut n = 1;
        for b in &self.blocks[..self.n_blocks] {
            let merged = b.start <= end && b.end >= start;
            if !merged && b.end > self.rcv_nxt && n < MAX_SACK_BLOCKS {
                out[n] = *b;
                n += 1;
            }
        }
        self.blocks = out;
        self.n_blocks = n;
    }

    /// Drops blocks the cumulative ACK has overtaken (a block is contiguous, so it is
    /// either wholly above rcv_nxt or wholly covered).
    fn prune_blocks(&mut self) {
        let mut n = 0;
        for i in 0..self.n_blocks {
            if self.blocks[i].end > self.rcv_nxt {
                self.blocks[n] = self.blocks[i];
                n += 1;
            }
        }
        self.n_blocks = n;
    }
}
