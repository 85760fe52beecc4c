//! One module per subcommand.

pub mod cwndsim;
mod window_flags;
pub mod windowsim;
pub mod bench;
pub mod detect;
#[cfg(test)]
mod detect_tests;
pub mod tracegen;
pub mod run;
pub mod compare;
pub mod reproduce;
pub mod testbed;
pub mod fidelity;
pub mod kernel;
pub mod quic;
mod quic_netns;
mod quic_netns_layout;
mod quic_output;
mod quic_shape;
mod quic_split;
