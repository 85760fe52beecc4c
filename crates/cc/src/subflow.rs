//! Per-subflow state: everything one subflow's controller remembers between events.

use crate::config::CcConfig;
use crate::cubic::CubicState;
use crate::olia::OliaState;
use crate::rtt::RttEstimator;
use crate::wvegas::WVegasState;
use crate::Nanos;

#[derive(Clone, Copy, Debug)]
pub(crate) struct Subflow {
    /// Segments, un-inflated (the sender adds dupACK inflation during recovery).
    pub cwnd: f64,
    pub ssthresh: f64,
    /// SRTT source (RFC 6298 smoothing); the RTO part is unused here.
    pub rtt: RttEstimator,
    pub usable: bool,
    pub in_recovery: bool,
    /// A timeout happened and no new data was acknowledged since: a further timeout keeps
    /// ssthresh (RFC 5681 §3.1 note on eq. 4).
    pub in_timeout_streak: bool,
    /// ECN reactions are at most once per RTT (RFC 3168 §6.1.2).
    pub ecn_quiet_until: Nanos,
    /// Time of the last ACK, to discount application-limited periods (CUBIC).
    pub last_ack: Option<Nanos>,
    pub cubic: CubicState,
    pub olia: OliaState,
    pub wvegas: WVegasState,
}

impl Subflow {
    pub fn new(cfg: &CcConfig) -> Self {
        Subflow {
            cwnd: cfg.initial_cwnd,
            ssthresh: cfg.initial_ssthresh,
            rtt: RttEstimator::default(),
            usable: true,
            in_recovery: false,
            in_timeout_streak: false,
            ecn_quiet_until: 0,
            last_ack: None,
            cubic: CubicState::new(cfg),
            olia: OliaState::default(),
            wvegas: WVegasState::new(&cfg.wvegas),
        }
    }

    /// The window the coupled formulas read: ssthresh while in recovery, where cwnd may be
    /// inflated (RFC 6356 §3, Linux `mptcp_get_crt_cwnd`).
    pub fn effective_cwnd(&self) -> f64 {
        if self.in_recovery {
            self.ssthresh
        } else {
            self.cwnd
        }
    }

    pub fn srtt(&self) -> Option<f64> {
        self.rtt.srtt_f64().filter(|&r| r > 0.0)
    }
}
