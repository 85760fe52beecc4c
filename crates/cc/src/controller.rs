//! The controller a transport holds when the algorithm is chosen at run time (scenario files,
//! command lines): one [`Connection`] of the named algorithm, dispatched by `match` so that the
//! hooks stay statically dispatched and inlined. Adding an algorithm: its file implementing
//! [`CongestionControl`], its name in algorithm.rs, and one line in `registry!` below.

use crate::algorithm::{Algorithm, SinglePath};
use crate::config::CcConfig;
use crate::connection::Connection;
use crate::rtt::SmoothedRtt;
use crate::interface::{AckInfo, Signal};
use crate::set::SubflowSet;
use crate::{balia, cubic, fully_coupled, lia, linked_increases, olia, reno, wvegas, Nanos};

/// The registry: variant, algorithm type, the names it serves, and how it takes its
/// parameters from a [`CcConfig`]. `$d` is `$`, so that the macro can define `each!`.
macro_rules! registry {
    ($d:tt $($variant:ident($ty:ty) = $($name:pat_param)|+ => |$cfg:ident| $make:expr;)*) => {
        #[derive(Clone, Debug)]
        enum Inner {
            $($variant(Connection<$ty>),)*
        }

        impl Inner {
            fn build(algo: Algorithm, cfg: &CcConfig, n: usize) -> Result<Inner, String> {
                match algo {
                    $($($name)|+ => {
                        let $cfg = cfg;
                        Ok(Inner::$variant(Connection::try_new($make, cfg.window(), n)?))
                    })*
                }
            }
        }

        /// Runs `$body` with `$c` bound to the connection, whatever its algorithm.
        macro_rules! each {
            ($d inner:expr, $d c:ident => $d body:expr) => {
                match $d inner {
                    $(Inner::$variant($d c) => $d body,)*
                }
            };
        }
    };
}

registry! {
    $
    Reno(reno::Reno) = Algorithm::Reno | Algorithm::Uncoupled(SinglePath::Reno) => |_c| reno::Reno;
    Cubic(cubic::Cubic) = Algorithm::Cubic | Algorithm::Uncoupled(SinglePath::Cubic)
        => |c| cubic::Cubic { params: c.cubic };
    FullyCoupled(fully_coupled::FullyCoupled) = Algorithm::FullyCoupled
        => |_c| fully_coupled::FullyCoupled;
    LinkedIncreases(linked_increases::LinkedIncreases) = Algorithm::LinkedIncreases
        => |c| linked_increases::LinkedIncreases { a: c.linked_increases_a };
    Lia(lia::Lia) = Algorithm::Lia => |_c| lia::Lia;
    Olia(olia::Olia) = Algorithm::Olia => |c| olia::Olia { best_path: c.olia_best_path };
    Balia(balia::Balia) = Algorithm::Balia
        => |c| balia::Balia { integer_alpha: c.balia_integer_alpha };
    WVegas(wvegas::WVegas) = Algorithm::WVegas => |c| wvegas::WVegas { params: c.wvegas };
}

/// One multipath connection's congestion control (a single-path flow has one subflow), of an
/// algorithm named at run time. Windows are `f64` segments, always finite and >= 1.
#[derive(Clone, Debug)]
pub struct Controller {
    name: Algorithm,
    inner: Inner,
}

impl Controller {
    /// Panics on what [`Controller::try_new`] rejects; callers that handle user input use that.
    pub fn new(algo: Algorithm, cfg: CcConfig, n_subflows: usize) -> Self {
        match Controller::try_new(algo, cfg, n_subflows) {
            Ok(c) => c,
            Err(e) => panic!("invalid congestion-control setup: {e}"),
        }
    }

    /// Checks `cfg` ([`CcConfig::validate`]) and that `n_subflows` is in 1..=64; the error
    /// names the field and what was expected.
    pub fn try_new(algo: Algorithm, cfg: CcConfig, n_subflows: usize) -> Result<Self, String> {
        cfg.validate()?;
        Ok(Controller {
            name: algo,
            inner: Inner::build(algo, &cfg, n_subflows)?,
        })
    }

    pub fn algorithm(&self) -> Algorithm {
        self.name
    }

    pub fn n_subflows(&self) -> usize {
        self.n_paths()
    }

    pub fn n_paths(&self) -> usize {
        each!(&self.inner, c => c.n_paths())
    }

    /// Established subflows take part in coupling; a subflow is usable from the start.
    pub fn set_usable(&mut self, sf: usize, usable: bool) {
        each!(&mut self.inner, c => c.set_usable(sf, usable))
    }

    /// Puts subflow `sf` back in its initial state and makes it usable (a new path reusing
    /// a closed path's slot; [`Connection::reset_path`]).
    pub fn reset_path(&mut self, sf: usize) {
        each!(&mut self.inner, c => c.reset_path(sf))
    }

    /// The usable subflows.
    pub fn usable(&self) -> SubflowSet {
        each!(&self.inner, c => c.usable())
    }

    /// The subflows `sf`'s coupled increase and decrease run over (default: all).
    #[inline]
    pub fn set_coupling(&mut self, sf: usize, coupling: SubflowSet) {
        each!(&mut self.inner, c => c.set_coupling(sf, coupling))
    }

    /// Coupling per bottleneck group ([`Connection::set_groups`]); an empty list turns it off.
    pub fn set_groups(&mut self, groups: &[SubflowSet]) {
        each!(&mut self.inner, c => c.set_groups(groups))
    }

    #[inline]
    pub fn on_ack(&mut self, sf: usize, now: Nanos, ack: AckInfo) {
        each!(&mut self.inner, c => c.on_ack(sf, now, ack))
    }

    pub fn on_congestion(&mut self, sf: usize, now: Nanos, signal: Signal, flight: f64) {
        each!(&mut self.inner, c => c.on_congestion(sf, now, signal, flight))
    }

    pub fn on_recovery_exit(&mut self, sf: usize, now: Nanos) {
        each!(&mut self.inner, c => c.on_recovery_exit(sf, now))
    }

    #[inline]
    pub fn on_round_end(&mut self, sf: usize, now: Nanos) {
        each!(&mut self.inner, c => c.on_round_end(sf, now))
    }

    /// Sets a subflow's window state directly (tests, fluid models, restoring a state).
    /// Values are kept finite and >= 1; LIA's alpha is recomputed on the next use.
    pub fn set_window(&mut self, sf: usize, cwnd: f64, ssthresh: f64) {
        each!(&mut self.inner, c => c.set_window(sf, cwnd, ssthresh))
    }

    /// Inlined: a simulated sender reads the window two or three times per ACK.
    #[inline(always)]
    pub fn cwnd(&self, sf: usize) -> f64 {
        each!(&self.inner, c => c.cwnd(sf))
    }

    pub fn ssthresh(&self, sf: usize) -> f64 {
        each!(&self.inner, c => c.ssthresh(sf))
    }

    pub fn srtt(&self, sf: usize) -> Option<Nanos> {
        each!(&self.inner, c => c.srtt(sf))
    }

    /// The transport's own smoothed RTT of `sf` (the estimator it keeps for its RTO): from
    /// the first call on, the controller reads this instead of smoothing the samples handed
    /// in with ACKs, so the path has one RTT estimator, the transport's (as a kernel
    /// controller reads `tp->srtt_us`). A caller without an estimator never calls it.
    #[inline]
    pub fn set_srtt(&mut self, sf: usize, srtt: SmoothedRtt) {
        each!(&mut self.inner, c => c.set_srtt(sf, srtt))
    }

    pub fn in_recovery(&self, sf: usize) -> bool {
        each!(&self.inner, c => c.in_recovery(sf))
    }

    pub fn in_slow_start(&self, sf: usize) -> bool {
        each!(&self.inner, c => c.in_slow_start(sf))
    }

    /// Current LIA alpha / LINKED INCREASES a (1.0 for other algorithms), for probes.
    pub fn lia_alpha(&self) -> f64 {
        each!(&self.inner, c => c.alpha())
    }

    /// OLIA's alpha_r over `coupling` into `out[r]` (0 for subflows outside the set, and for
    /// every subflow of another algorithm).
    pub fn olia_alphas(&self, coupling: SubflowSet, out: &mut [f64]) {
        match &self.inner {
            Inner::Olia(c) => c.olia_alphas(coupling, out),
            _ => out.iter_mut().for_each(|a| *a = 0.0),
        }
    }
}
