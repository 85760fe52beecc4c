//! pathpool's coupled congestion control for multipath QUIC with [noq].
//!
//! noq (a quinn fork implementing the IETF multipath QUIC draft) gives each path its own
//! congestion controller; its paths are not coupled. [`CoupledFactory`] is a noq
//! `ControllerFactory` whose per-path controllers share one pathpool-cc state, so that the
//! paths of one connection run LIA (RFC 6356), OLIA, BALIA, or OLIA coupled over the paths
//! that shared bottleneck detection groups together ([`QuicCc::MptcpSbd`]). The window
//! arithmetic is pathpool-cc's, the same code the simulator runs; time comes only from the
//! `Instant`s noq hands in.
//!
//! ```
//! use std::sync::Arc;
//! use pathpool_quic::{CoupledFactory, QuicCc};
//!
//! // One factory per connection: its paths share one coupled state.
//! let factory = CoupledFactory::new("lia".parse::<QuicCc>().unwrap());
//! let mut transport = noq::TransportConfig::default();
//! transport.max_concurrent_multipath_paths(4);
//! transport.congestion_controller_factory(factory.clone());
//! let transport = Arc::new(transport);
//! // client_config.transport_config(transport); endpoint.connect_with(client_config, ...)
//! // Later, while the connection runs: every path's window.
//! for path in factory.snapshot() {
//!     println!("path {}: cwnd {} B", path.slot, path.cwnd_bytes);
//! }
//! ```
//!
//! docs/quic.md describes the mapping of noq's callbacks, the measurements and the limits.
//! [noq]: https://crates.io/crates/noq

mod ack_delay;
mod backend;
pub mod loopback;
mod name;
mod path_cc;
mod sbd;
mod shared;

pub use backend::{check as check_scenario, Quic, QuicFlow};
pub use name::QuicCc;
pub use ack_delay::AckDelayStats;
pub use path_cc::{CoupledFactory, PathCc, PathSnapshot};
pub use sbd::{coupling_sets, detector_params, SbdDecision, SbdInput};
pub use shared::SLOTS;
