//! `pathpool-trace`: per-packet delay traces, in one place.
//!
//! - [`rows`]: a trace row as the receiver logs it ([`OwdRow`]: send and receive times on two
//!   clocks, or a loss) or as the sender logs it ([`RttRow`]: ACK time and round-trip time).
//! - [`csv`]: the two CSV files (`flow,send_time_us,recv_time_us[,lost]` and
//!   `flow,ack_time_us,rtt_us`) read with errors that name the file, line and field, and
//!   written.
//! - [`events`]: rows in any order turned into the time-ordered event stream that
//!   `pathpool_sbd::replay` feeds to a detector.
//! - [`gen`]: synthetic traces with a known answer from a seeded fluid queue model
//!   (docs/tracegen.md).
//!
//! The sources of rows are the generator, the simulator's delay logs (`pathpool-scenario`
//! turns `log_delays` flows into rows) and CSV files. Packet captures do not pass through
//! rows: `pathpool-pcap` streams its samples straight into the detector, so memory stays
//! bounded by the number of connections. `pathpool-sbd` knows nothing of this crate.

pub mod bounded;
pub mod csv;
pub mod events;
pub mod gen;
pub mod rows;

pub use rows::{OwdRow, RttRow};
