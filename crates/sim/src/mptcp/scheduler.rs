//! The connection's scheduler, run after one of its subflow senders handled an ACK or an
//! event: the subflow's DSN mapping trimmed, new data mapped to subflows with window room as
//! the scheduler picks (each subflow then sends below its map's end:
//! `FlowOwner::data_limit`), and those subflows let send. It runs at the connection level
//! because one subflow's ACK can give data to another (as Linux's MPTCP scheduler runs on the
//! connection after an ACK).
//!
//! What it costs per ACK: only the subflow that acted can have gained window room. A
//! subflow's room changes only when it acts itself (its window and flight are its own; a
//! coupled increase or decrease changes only the window of the subflow it runs for), or when
//! data is mapped to it (one segment less each) and it sends (room unchanged: window and
//! mapped-unsent data shrink together). So after a pass that left a subflow without room,
//! it stays without until it acts, and the pass reads only the subflows in
//! `Connection::may_have_room` (the acting one and those the receive window kept from
//! taking all their room): the same rooms, so the same picks, as reading every subflow.
//! Linux's scheduler (subflows with Linux's send buffers) compares every subflow's queue on
//! each pick, as Linux's `mptcp_subflow_get_send` does, so it needs every subflow's room,
//! SRTT and window; but by the same argument those of a subflow that has neither acted nor
//! been sent on since the last pass are what that pass left (`Connection::views`), and only
//! the others are read from their senders.
//!
//! The common case needs no pick at all: when only the acting subflow can have room and no
//! receive window or Linux's scheduler holds data back, every pick would find it until its
//! room is used up, so its sender sends as far as its window allows in its own `try_send`
//! (`FlowOwner::data_limit` without bound, `Connection::maps_as_sent`) and what it sent beyond
//! its map is mapped here, in the order it left: the same segments and DSNs as mapping first
//! and sending after, without computing the room and running the send loop a second time. A
//! subflow that acted without sending (stopped, or a timer pushed back) has no room either:
//! the pass before left it none, and it has not acted since (checked in debug builds).

use pathpool_cc::{Controller, SubflowSet};

use super::config::MAX_SUBFLOWS;
use super::engine::{Subflow, SubflowView};
use super::sender::linux_linger;
use crate::ctx::Ctx;
use crate::tcp::TcpSender;

impl Subflow<'_> {
    /// After this subflow's sender `s` acted (`FlowOwner::after_sender`). Inlined into the
    /// ACK handler for its common case, a few instructions; the rest is out of line.
    #[inline]
    pub(crate) fn schedule(&mut self, s: &mut TcpSender, ctx: &mut Ctx, ctl: &mut Controller) {
        let k = self.k;
        let conn = &mut *self.conn;
        conn.data.maps[k].trim(s.snd_una());
        if conn.maps_as_sent(k) && !s.in_sack_recovery() {
            // The sender had no bound on new data (`FlowOwner::data_limit`) and filled its
            // window, as the picks would have; what it sent is mapped now.
            let end = conn.data.maps[k].end();
            conn.data.grant(k, s.high_sent().saturating_sub(end));
            debug_assert_eq!(s.new_data_room(ctl, conn.data.maps[k].end(), conn.new_data_coming & (1 << k) != 0), 0);
            conn.may_have_room = 0;
            return;
        }
        self.schedule_by_picks(s, ctx, ctl);
    }

    /// The scheduler's picks after subflow sender `s` acted, its map trimmed.
    #[inline(never)]
    fn schedule_by_picks(&mut self, s: &mut TcpSender, ctx: &mut Ctx, ctl: &mut Controller) {
        let k = self.k;
        let Some(siblings) = self.siblings.as_mut() else { return };
        let conn = &mut *self.conn;
        if conn.only_taker(k) {
            // Only this subflow can have room, and no receive window holds the data back, so
            // every pick would find it until its room is used up.
            let room = s.new_data_room(ctl, conn.data.maps[k].end(), conn.new_data_coming & (1 << k) != 0);
            conn.may_have_room = 0;
            if room > 0 {
                conn.data.grant(k, room);
                let mut view = Subflow { conn: &mut *conn, k, siblings: None };
                s.pump(ctx, ctl, &mut view);
            }
            return;
        }
        let n = conn.senders.len();
        let mut room = [0u64; MAX_SUBFLOWS];
        let mut srtt = [None; MAX_SUBFLOWS];
        let readers = if conn.linux_buffers { SubflowSet::all(n).0 } else { conn.may_have_room | 1 << k };
        let mut queued = [0u64; MAX_SUBFLOWS];
        let mut cwnd = [0f64; MAX_SUBFLOWS];
        for j in (0..n).filter(|&j| readers & (1 << j) != 0) {
            if conn.linux_buffers {
                queued[j] = conn.data.maps[j].queued();
                if j != k && conn.views_hold & (1 << j) != 0 {
                    let v = conn.views[j];
                    debug_assert_eq!(v, view(siblings.sender(conn.senders[j]), ctl, conn.data.maps[j].end()), "subflow {j}");
                    (room[j], srtt[j], cwnd[j]) = (v.room, v.srtt, v.cwnd);
                    continue;
                }
            }
            let sj: &TcpSender = if j == k { s } else { siblings.sender(conn.senders[j]) };
            room[j] = sj.new_data_room(ctl, conn.data.maps[j].end(), conn.new_data_coming & (1 << j) != 0);
            srtt[j] = sj.srtt();
            if conn.linux_buffers {
                cwnd[j] = if sj.is_active() { sj.effective_cwnd(ctl) } else { 0.0 };
            }
        }
        let mut linger = [0f64; MAX_SUBFLOWS];
        if conn.linux_buffers {
            for j in 0..n {
                linger[j] = linux_linger(queued[j], srtt[j], cwnd[j]);
            }
        }
        let mut touched = 0u64;
        let with_room = (0..n).filter(|&j| room[j] > 0).fold(0u64, |m, j| m | 1 << j);
        if !conn.linux_buffers && conn.data.receive_buffer.is_none() && with_room.count_ones() == 1 {
            // One candidate and no receive window: every pick would find it until its room
            // is used up.
            let j = with_room.trailing_zeros() as usize;
            conn.data.grant(j, room[j]);
            room[j] = 0;
            touched = with_room;
        } else {
            while conn.data.window_open() {
                let pick = if conn.linux_buffers {
                    conn.data.pick_linux(&room[..n], &cwnd[..n], &linger[..n])
                } else {
                    conn.data.pick(&room[..n], &srtt[..n])
                };
                let Some(j) = pick else { break };
                conn.data.maps[j].push(conn.data.dsn_next);
                conn.data.dsn_next += 1;
                room[j] -= 1;
                queued[j] += 1;
                if conn.linux_buffers {
                    linger[j] = linux_linger(queued[j], srtt[j], cwnd[j]);
                }
                touched |= 1 << j;
            }
        }
        conn.may_have_room = (0..n).filter(|&j| room[j] > 0).fold(0u64, |m, j| m | 1 << j);
        if conn.linux_buffers {
            // What this pass leaves: the rooms less what it mapped. A subflow sent on below
            // may change (its buffer grows with its window), so it is read again next time.
            for j in 0..n {
                conn.views[j] = SubflowView { room: room[j], srtt: srtt[j], cwnd: cwnd[j] };
            }
            conn.views_hold = SubflowSet::all(n).0 & !touched;
        }
        for j in (0..n).filter(|&j| touched & (1 << j) != 0) {
            let el = conn.senders[j];
            let mut view = Subflow { conn: &mut *conn, k: j, siblings: None };
            let mut cj = Ctx { now: ctx.now, me: el, events: &mut *ctx.events, pool: &mut *ctx.pool, outbox: &mut *ctx.outbox };
            let sj: &mut TcpSender = if j == k { &mut *s } else { siblings.sender(el) };
            sj.pump(&mut cj, ctl, &mut view);
        }
    }
}

/// What Linux's scheduler reads of subflow sender `s` whose map ends at `data_limit`.
fn view(s: &TcpSender, ctl: &Controller, data_limit: u64) -> SubflowView {
    SubflowView { room: s.new_data_room(ctl, data_limit, false), srtt: s.srtt(), cwnd: if s.is_active() { s.effective_cwnd(ctl) } else { 0.0 } }
}
