//! pathpool-testbed: a scenario file run on real Linux instead of the simulator.
//!
//! Every node of the scenario becomes a network namespace; every link a pair of TUN devices
//! joined by the delay element (`delay`), with a tbf queue on the sending side of each
//! direction (`shape`); every flow a real socket (TCP, MPTCP or UDP) driven by a thread that
//! lives in its node's namespace (`traffic`). Probes read TCP_INFO, MPTCP_TCPINFO and the
//! queues' counters every `probe_interval` (`probe`), and the result is the same `Outcome`
//! the simulator produces, so the outputs and their keys are the same as `pathpool run`'s:
//! the testbed is the `linux` backend of pathpool-experiment (`Linux`). It depends on no
//! other backend.
//!
//! Needs root (namespaces, TUN, tc). A key the testbed cannot honour is rejected before
//! anything is built (`support`). Namespaces carry a per-run prefix and are removed on
//! success, on error and on Ctrl-C (`netns`); `clean` removes what a crashed run left.

mod backend;
pub mod bench;
pub mod capture;
pub mod delay;
pub mod host_capture;
pub mod netns;
mod outcome;
pub mod plan;
pub mod probe;
pub mod run;
pub mod shape;
pub mod skip;
pub mod support;
pub mod tcp_info;
pub mod traffic;
pub mod tun;

pub use backend::Linux;
pub use run::{run, RunOptions};

/// Everything the testbed refuses or fails at, as one message for the user.
#[derive(Debug)]
pub struct TestbedError(pub String);

impl std::fmt::Display for TestbedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TestbedError {}

pub type Result<T> = std::result::Result<T, TestbedError>;

pub(crate) fn fail<T>(message: impl Into<String>) -> Result<T> {
    Err(TestbedError(message.into()))
}

/// True when this process may build namespaces (effective uid 0).
pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}
