//! The owner of a plain TCP flow: its application, whose every hook is empty or the
//! application's answer and compiles to nothing (the owner interface is in mod.rs).

use pathpool_cc::Controller;

use super::{ConnectionMemory, FlowOwner, TcpSender};
use crate::ctx::Ctx;
use crate::packet::Packet;
use crate::time::Time;

/// The owner of a plain TCP flow: its application, which the endpoints model themselves.
pub(crate) struct Application;

impl FlowOwner for Application {
    #[inline(always)]
    fn data_limit(&self, _retransmissions_first: bool) -> Option<u64> {
        None
    }

    #[inline(always)]
    fn new_data_coming(&self) -> bool {
        false
    }

    #[inline(always)]
    fn data_option(&mut self, _retransmit: bool, _now: Time) -> Option<[u8; 4]> {
        None
    }

    #[inline(always)]
    fn before_ack(&mut self, _s: &TcpSender, _ctl: &mut Controller, _p: &Packet, _now: Time) {}

    #[inline(always)]
    fn after_sender(&mut self, _s: &mut TcpSender, _ctx: &mut Ctx, _ctl: &mut Controller) {}

    #[inline(always)]
    fn on_data(&mut self, _p: &Packet, _now: Time) -> Option<ConnectionMemory> {
        None
    }

    #[inline(always)]
    fn subflow_receivers(&self) -> &[u32] {
        &[]
    }

    #[inline(always)]
    fn ack_option(&mut self) -> Option<[u8; 4]> {
        None
    }
}
