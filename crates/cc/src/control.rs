//! What one algorithm supplies: its per-path state, its connection-level state, and the
//! hooks the shared window logic of [`Connection`] calls. Everything common to all algorithms
//! (slow start, recovery, timeouts, ECN, the coupling set) lives in `connection.rs`; a file
//! per algorithm implements this trait. Hooks without a default are the ones every algorithm
//! decides; the defaults are Reno's behaviour and compile to nothing (static dispatch).

use crate::connection::Connection;
use crate::set::SubflowSet;
use crate::{reno, Nanos};
use std::fmt::Debug;

/// A congestion signal on path `sf` as the ssthresh hook sees it.
#[derive(Clone, Copy, Debug)]
pub struct CongestionEvent {
    pub sf: usize,
    /// `sf`'s coupling set.
    pub set: SubflowSet,
    /// FlightSize, segments (finite, >= 0).
    pub flight: f64,
    /// The ssthresh floor.
    pub min: f64,
}

pub trait CongestionControl: Clone + Debug + Sized {
    /// What the algorithm remembers per path beyond the common window state.
    type Path: Clone + Copy + Debug;
    /// What the algorithm keeps per connection (LIA's alpha cache); `()` when nothing.
    type Shared: Clone + Debug + Default;
    /// True when windows of different paths influence each other (the ssthresh floor 1 of
    /// `MinSsthresh::Auto` applies only then).
    const COUPLED: bool;

    fn new_path(&self) -> Self::Path;

    /// Checks the algorithm's parameters; the error names the field and what was expected.
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }

    /// A Karn-valid RTT sample arrived on this path.
    fn on_rtt_sample(_path: &mut Self::Path, _rtt: Nanos) {}

    /// Segments newly acknowledged on this path (> 0).
    fn on_acked(_path: &mut Self::Path, _segments: f64) {}

    /// The sender was not cwnd-limited; `idle` has passed since the previous ACK.
    fn on_app_limited(_path: &mut Self::Path, _idle: Nanos) {}

    /// Congestion-avoidance increase of `sf` by `units` (acked segments or ACK events),
    /// outside recovery and slow start. Default: the coupled increase over `sf`'s coupling
    /// set, Reno's when `sf` is alone in it.
    fn increase(c: &mut Connection<Self>, sf: usize, now: Nanos, units: f64) {
        let _ = now;
        if let Some(set) = c.coupled_increase_set(sf, units) {
            Self::coupled_increase(c, sf, set, units);
        }
    }

    /// The increase of a coupled algorithm over `set` (at least two paths, all with an RTT).
    fn coupled_increase(c: &mut Connection<Self>, sf: usize, set: SubflowSet, units: f64) {
        let _ = (c, sf, set, units);
    }

    /// ssthresh after a congestion signal. Default: RFC 5681 eq. 4.
    fn ssthresh_after_congestion(c: &mut Connection<Self>, e: CongestionEvent) -> f64 {
        let _ = c;
        reno::ssthresh_after_loss(e.flight, e.min)
    }

    /// End of an RTT round on `sf` (only algorithms that act per round use it).
    fn on_round_end(_c: &mut Connection<Self>, _sf: usize, _now: Nanos) {}

    fn on_recovery_exit(&self, _path: &mut Self::Path) {}

    fn on_timeout(&self, _path: &mut Self::Path) {}

    /// A window, the usable paths or a congestion state changed (LIA recomputes its alpha).
    fn invalidate(_shared: &mut Self::Shared) {}

    /// LIA's alpha / LINKED INCREASES' a for probes (1.0 where the algorithm has none).
    fn alpha(_c: &Connection<Self>) -> f64 {
        1.0
    }
}
