//! Reno / NewReno (RFC 5681, RFC 6582): the shared window rules of window.rs and nothing more.

use crate::connection::{CongestionControl, Connection};
use crate::Nanos;

/// Reno / NewReno (RFC 5681, RFC 6582): no state beyond the common window.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Reno;

impl CongestionControl for Reno {
    type Path = ();
    type Shared = ();
    const COUPLED: bool = false;

    fn new_path(&self) {}

    fn increase(c: &mut Connection<Self>, sf: usize, _now: Nanos, units: f64) {
        c.increase_reno(sf, units);
    }
}
