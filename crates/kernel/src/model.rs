//! The host build of the controllers' arithmetic (`host/pp_model.c` over
//! `bpf/pathpool_cc_math.h`): one connection driven by the same events as pathpool-cc's
//! `Connection`, for the differential test (docs/kernel.md, "One arithmetic, two homes").

use std::os::raw::{c_int, c_uint, c_ulonglong};

/// Windows handed to the model: Q20 segments (PP_WSHIFT of the header).
const W_SHIFT: u32 = 20;

#[repr(C)]
struct RawModel {
    _private: [u8; 0],
}

extern "C" {
    fn pp_model_new(algo: c_int, n: c_uint) -> *mut RawModel;
    fn pp_model_free(m: *mut RawModel);
    fn pp_model_ack(m: *mut RawModel, me: c_uint, acked: c_uint, rtt_us: c_ulonglong, limited: c_int);
    fn pp_model_loss(m: *mut RawModel, me: c_uint, flight_w: c_ulonglong);
    fn pp_model_timeout(m: *mut RawModel, me: c_uint, flight_w: c_ulonglong);
    fn pp_model_recovery_exit(m: *mut RawModel, me: c_uint);
    fn pp_model_set_coupling(m: *mut RawModel, me: c_uint, mask: c_ulonglong);
    fn pp_model_cwnd_q30(m: *const RawModel, me: c_uint) -> c_ulonglong;
}

/// The algorithms the BPF object implements (pp_mptcp_sbd is OLIA over a smaller set).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algo {
    Lia = 0,
    Olia = 1,
    Balia = 2,
}

/// One connection of up to 8 subflows (Linux MPTCP's limit).
pub struct Model {
    raw: *mut RawModel,
    n: usize,
}

impl Model {
    /// `None` when `n` is not in 1..=8.
    pub fn new(algo: Algo, n: usize) -> Option<Model> {
        if !(1..=8).contains(&n) {
            return None;
        }
        let raw = unsafe { pp_model_new(algo as c_int, n as c_uint) };
        (!raw.is_null()).then_some(Model { raw, n })
    }

    fn check(&self, sf: usize) -> c_uint {
        assert!(sf < self.n, "subflow {sf} of {}", self.n);
        sf as c_uint
    }

    /// `acked` whole segments; `rtt_us` 0 = no sample.
    pub fn ack(&mut self, sf: usize, acked: u32, rtt_us: u64, cwnd_limited: bool) {
        let sf = self.check(sf);
        unsafe { pp_model_ack(self.raw, sf, acked, rtt_us, cwnd_limited as c_int) }
    }

    /// Flight size in whole segments.
    pub fn loss(&mut self, sf: usize, flight: u32) {
        let sf = self.check(sf);
        unsafe { pp_model_loss(self.raw, sf, (flight as u64) << W_SHIFT) }
    }

    pub fn timeout(&mut self, sf: usize, flight: u32) {
        let sf = self.check(sf);
        unsafe { pp_model_timeout(self.raw, sf, (flight as u64) << W_SHIFT) }
    }

    pub fn recovery_exit(&mut self, sf: usize) {
        let sf = self.check(sf);
        unsafe { pp_model_recovery_exit(self.raw, sf) }
    }

    /// The subflows `sf` couples with (bit i = subflow i).
    pub fn set_coupling(&mut self, sf: usize, mask: u64) {
        let sf = self.check(sf);
        unsafe { pp_model_set_coupling(self.raw, sf, mask) }
    }

    /// Window in segments (the Q30 value converted exactly).
    pub fn cwnd(&self, sf: usize) -> f64 {
        let sf = self.check(sf);
        unsafe { pp_model_cwnd_q30(self.raw, sf) as f64 / (1u64 << 30) as f64 }
    }
}

impl Drop for Model {
    fn drop(&mut self) {
        unsafe { pp_model_free(self.raw) }
    }
}
