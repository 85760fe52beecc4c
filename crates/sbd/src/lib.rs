//! `pathpool-sbd`: shared bottleneck detection as streaming state machines. No I/O, no clock
//! (time is passed in as `u64` nanoseconds) and no allocation per sample.
//!
//! # Detectors
//!
//! * [`Rfc8382Detector`]: RFC 8382 statistics on relative one-way delay (skew_est, var_est as
//!   MAD, freq_est from significant mean crossings, pkt_loss) over cyclic buffers of N base
//!   intervals of length T on one grid for all flows, with the M/F responsiveness weighting,
//!   oscillation-noise removal, optional clock-skew removal (RFC 8382 §5.2) and the grouping of
//!   RFC 8382 §3.3.1. Parameters: [`SbdParams`], presets [`SbdParams::rfc8382`] and
//!   [`SbdParams::mptcp_sbd`] ([S0] Table I).
//!   Optionally ([`SbdParams::corr_split`], an extension beyond RFC 8382) groups are also
//!   split where the flows' interval mean delays do not move together ([`correlation`]).
//!   Optionally ([`SbdParams::change_detect`], an extension) the memory of flows whose
//!   bottleneck changed is restarted ([`change`]); [`SbdParams::pathpool`] is the preset with
//!   both extensions.
//! * [`DecisionFilter`]: MPTCP-SBD's filter ([S0] §III-B): one [`Decision`] per 10
//!   observations, flows together in at least 5 of them are grouped.
//! * [`TrendLineDetector`]: trend-line regression on RTT ([S2] §4.3), every 5 s.
//! * [`comparison`]: Rubenstein et al.'s delay comparison test on a pair of flows' binned RTTs
//!   (the kernel daemon's grouping and the simulator's sender check).
//! * [`Detector`]: the interface over the detectors; [`FilteredDetector`]: a detector and its
//!   decision filter, restarted with the detector's memory: the one loop the simulator, QUIC,
//!   the kernel daemon, captures and replays all run (docs/sbd.md, "One filtered detector").
//!
//! All produce an [`Observation`]: at an evaluation time, a group id per flow; 0 means "not
//! traversing a bottleneck", equal non-zero ids mean "sharing one". Ids are canonical (1, 2, ..
//! in order of each group's lowest flow index).
//!
//! ```
//! use pathpool_sbd::{FilterParams, FilteredDetector, Rfc8382Detector, SbdParams};
//! let mut sbd = FilteredDetector::new(Rfc8382Detector::new(SbdParams::mptcp_sbd(), 2), FilterParams::default());
//! for i in 0..20_000u64 {
//!     let now = i * 1_000_000; // one sample per flow per ms
//!     while let Some(step) = sbd.poll(now) {
//!         let _observed: &[u32] = &sbd.observation().groups;
//!         if step.decided {
//!             let _groups: &[u32] = &sbd.decision().groups;
//!         }
//!     }
//!     for flow in 0..2 {
//!         sbd.on_delay(flow, now, 20_000_000 + (i % 97) as i64 * 10_000);
//!     }
//! }
//! assert!(sbd.detector().intervals_closed() > 50);
//! ```
//!
//! # API summary
//!
//! | call | effect |
//! |---|---|
//! | `Rfc8382Detector::new(params, n_flows)` | flows are `0..n_flows`; the grid starts at the first event |
//! | `on_owd_sample(flow, now_ns, owd_ns: i64)` | one relative OWD (any constant offset) |
//! | `on_loss(flow, now_ns)` | one lost packet |
//! | `poll(now_ns) -> Option<&Observation>` | closes the next interval ending by `now_ns`; call in a loop before feeding samples of time `now_ns` |
//! | `flow_stats() -> &[FlowStats]` | skew_est, var_est, freq_est, pkt_loss, bottlenecked after the last interval |
//! | `DecisionFilter::new(FilterParams, n_flows)`, `push(&Observation) -> Option<&Decision>`, `current()` | decisions stay valid until the next |
//! | `TrendLineDetector::new(TrendParams, n_flows)`, `on_rtt_sample(flow, now_ns, rtt_ns)`, `poll(now_ns)`, `fits()` | TR |
//! | `FilteredDetector::new(detector, FilterParams)`, `on_delay`/`on_loss`/`on_unsampled`, `poll(now_ns) -> Option<Step>`, `observation()`, `decision()` | any [`Detector`] through the decision filter; `Step` says whether the filter restarted and whether it decided |
//!
//! `now_ns` must not decrease. If samples cross several interval ends between two polls,
//! only the newest observation is kept ([`Rfc8382Detector::observations_skipped`] counts the
//! others); the statistics are unaffected.
//!
//! Trace rows, their CSV files, the events replayed from them and the synthetic trace
//! generator live in `pathpool-trace`, which depends on this crate (not the reverse).
//! Deviations from the sources and ambiguity resolutions are listed in docs/sbd.md.

pub mod change;
mod clock_skew;
pub mod comparison;
pub mod correlation;
mod detector;
mod filter;
mod grouping;
mod observation;
mod pairs;
mod params;
pub mod replay;
mod rfc8382;
mod trend;
mod union_find;
mod weighted;

pub use clock_skew::SkewEstimator;
pub use detector::{Detector, FilteredDetector, Step};
pub use filter::{Decision, DecisionFilter, FilterParams, MergeRule, RESTART_WINDOW};
pub use grouping::{FlowStats, Grouper};
pub use observation::{canonicalize, Observation, NOT_BOTTLENECKED};
pub use pairs::{PairFilter, PairRelation, PAIR_CORR_MIN};
pub use params::{
    LossSplit, SbdParams, CHANGE_CONFIRM, CHANGE_DISCORD, CHANGE_ENERGY, CHANGE_GROUPS, CHANGE_HIGH, CHANGE_KEEP_STATS, CHANGE_LOW, CHANGE_WINDOW, CORR_MIN,
};
pub use rfc8382::Rfc8382Detector;
pub use trend::{TrendFit, TrendLineDetector, TrendParams};
pub use weighted::WeightedWindow;
