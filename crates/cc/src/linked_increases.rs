//! LINKED INCREASES (S1 §3): `a/w` per ack over the coupling set, no cap (the cap is what turns
//! it into the RTT COMPENSATOR, i.e. LIA); the decrease is Reno's. Windows in segments.

use crate::check::positive_finite;
use crate::connection::{CongestionControl, Connection};
use crate::lia::{total_window, AlphaCache};
use crate::set::SubflowSet;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LinkedIncreases {
    /// S1 §3's `a`. `None`: recomputed from windows and RTTs with the S1 §4 formula (the
    /// value LIA uses).
    pub a: Option<f64>,
}

/// The error names the field and what was expected.
pub(crate) fn validate_a(a: Option<f64>) -> Result<(), String> {
    match a {
        Some(a) => positive_finite("linked_increases_a", a),
        None => Ok(()),
    }
}

impl CongestionControl for LinkedIncreases {
    type Path = ();
    type Shared = AlphaCache;
    const COUPLED: bool = true;

    fn new_path(&self) {}

    fn validate(&self) -> Result<(), String> {
        validate_a(self.a)
    }

    fn coupled_increase(c: &mut Connection<Self>, sf: usize, set: SubflowSet, units: f64) {
        let a = match c.algo.a {
            Some(a) => a,
            None => c.shared.get(&c.paths, set),
        };
        let total = total_window(&c.paths, set);
        c.paths[sf].cwnd += units * a / total;
    }

    fn invalidate(shared: &mut AlphaCache) {
        shared.invalidate();
    }

    fn alpha(c: &Connection<Self>) -> f64 {
        c.algo.a.unwrap_or_else(|| c.shared.last())
    }
}
