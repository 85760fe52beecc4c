//! `pathpool-sim`: a deterministic packet-level network simulator (htsim's design, in Rust).
//!
//! # Model
//! - Time is integer picoseconds ([`Time`]); events are ordered by (time, insertion
//!   sequence), so the same scenario and seed give byte-identical results.
//! - A scenario link A->B is a [queue](Simulation::add_queue) (serialisation at the link
//!   rate, a buffer and a discipline) followed by a [pipe](Simulation::add_pipe)
//!   (propagation delay). A [random-loss element](Simulation::add_random_loss) can be put
//!   anywhere on a route.
//! - A flow's route is the list of elements from its source; the simulation appends the
//!   receiving endpoint. TCP ACKs travel the flow's reverse route.
//! - TCP sequence numbers count segments; every data segment is `mss_bytes` on the wire.
//!
//! # Building and running
//! ```
//! use pathpool_sim::*;
//! let mut sim = Simulation::new(42);
//! let q = sim.add_queue(QueueConfig::drop_tail(10_000_000, Buffer::Packets(20))).unwrap();
//! let p = sim.add_pipe(time::millis(10));
//! let back = sim.add_pipe(time::millis(10));
//! let f = sim.add_tcp_flow(TcpFlowConfig::new(vec![q, p], vec![back])).unwrap();
//! sim.set_probe_interval(time::millis(100)).unwrap();
//! sim.run_until(time::secs(2), &mut |_| {});
//! sim.mark_warmup_end();
//! sim.run_until(time::secs(10), &mut |_| {});
//! let s = sim.flow_stats(f);
//! assert!(s.throughput_bps > 9.0e6);
//! assert!(sim.queue_stats(q).utilisation > 0.95);
//! ```
//!
//! # Public API
//! - [`Simulation::new`]`(seed)`; builders [`add_queue`](Simulation::add_queue)
//!   ([`QueueConfig`]: `rate_bps`, [`Buffer`] `Packets(n)`/`Bytes(n)`, [`Discipline`]
//!   `DropTail` / `Red(`[`RedParams`]`)` / `RandomTailDrop(`[`RandomTailParams`]`)`),
//!   [`add_pipe`](Simulation::add_pipe)`(delay)`,
//!   [`add_random_loss`](Simulation::add_random_loss)`(p)`,
//!   [`add_scripted_loss`](Simulation::add_scripted_loss)`(segments)` (drops the first
//!   transmission of chosen TCP segments, for tests),
//!   [`add_tcp_flow`](Simulation::add_tcp_flow)`(`[`TcpFlowConfig`]`)` (fwd/rev routes,
//!   `pathpool_cc::Algorithm` + `CcConfig`, [`Recovery`] `NewReno`/`Sack`, delayed ACK,
//!   segment and ACK sizes, RTO bounds, [`TcpTraffic`] `Bulk`/`RateLimited`/`Bytes`,
//!   start/stop), [`add_udp_source`](Simulation::add_udp_source)`(`[`UdpConfig`]`)`
//!   ([`UdpPattern`] `Constant`/`Poisson`/`OnOff`), and
//!   [`set_probe_interval`](Simulation::set_probe_interval). Builders return
//!   `Result<_, `[`ConfigError`]`>` whose message names the bad field.
//! - [`add_mptcp_connection`](Simulation::add_mptcp_connection)`(`[`MptcpConfig`]`)`: an
//!   MPTCP connection of up to 8 TCP subflows with one coupled controller
//!   ([`MultipathCc`]: any `Algorithm`, MPTCP-SBD, TR-LIA), a [`Scheduler`] and an optional
//!   receive buffer; results from [`mptcp_stats`](Simulation::mptcp_stats),
//!   [`mptcp_observations`](Simulation::mptcp_observations),
//!   [`mptcp_decisions`](Simulation::mptcp_decisions) (docs/mptcp.md).
//! - [`run_until`](Simulation::run_until)`(end, progress)`,
//!   [`mark_warmup_end`](Simulation::mark_warmup_end).
//! - Results: [`flow_stats`](Simulation::flow_stats) -> [`FlowStats`],
//!   [`queue_stats`](Simulation::queue_stats) -> [`QueueStats`],
//!   [`series`](Simulation::series) -> [`ProbeSeries`],
//!   [`events_processed`](Simulation::events_processed), [`jain_index`]. Statistics cover
//!   the window since the warm-up mark (or time 0); probes record every interval from the
//!   call to `set_probe_interval` on.
//! - Randomness: each queue, loss element and UDP source draws from its own stream
//!   ([`rng::Rng::for_stream`]) keyed by (master seed, element id); element ids are
//!   assigned in creation order, so adding components after the existing ones changes
//!   nothing that the existing ones draw.

pub mod capture;
mod ctx;
mod element;
mod error;
mod ids;
pub mod event;
mod jitter;
mod lead_in;
mod loss;
pub mod mptcp;
pub mod packet;
mod pipe;
mod pool;
mod ring;
pub mod probe;
pub mod queue;
pub mod rng;
mod route;
mod sim;
pub mod stats;
pub mod tcp;
pub mod time;
pub mod udp;

pub use capture::{CaptureFlow, CaptureMptcp};
pub use ids::{ElementId, FlowId};
pub use mptcp::{CouplingAudit, CouplingRecord, MptcpConfig, MptcpId, MptcpStats, MultipathCc, ReceiverReport, SbdFeedback, SbdPolicy, Scheduler, SubflowRoute, VerifyFollow, VerifyStart};
pub use probe::{FlowSeries, ProbeSeries, QueueSeries};
pub use queue::{Buffer, Discipline, QueueConfig, RandomTailParams, RedParams};
pub use error::ConfigError;
pub use sim::{host_latency, Simulation};
pub use stats::{jain_index, FlowKind, FlowStats, QueueStats};
pub use tcp::{Recovery, TcpFlowConfig, TcpTraffic};
pub use time::{Time, PS_PER_SEC};
pub use udp::{UdpConfig, UdpPattern};

/// Re-exported so callers need not depend on `pathpool-cc` to configure flows.
pub use pathpool_cc::{Algorithm, CcConfig};
