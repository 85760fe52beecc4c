//! Multipath TCP pieces of the simulator.

pub mod options;
