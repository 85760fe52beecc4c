//! pathpool-testbed: a scenario file run on real Linux instead of the simulator.
//!
//! Every node of the scenario becomes a network namespace; every link a pair of TUN devices
//! joined by the delay element (`delay`), with a tbf queue on the sending side of each
//! direction (`shape`); every flow a real socket (TCP, MPTCP or UDP) driven by a thread that
//! lives in its node's namespace (`traffic`). Probes read TCP_INFO, MPTCP_TCPINFO and the
//! queues' counters every `probe_interval` (`probe`), and the result is the same `Outcome`
//! the simulator produces, so the outputs and their keys are the same as `pathpool run`'s.
//!
//! Needs root (namespaces, TUN, tc). A key the testbed cannot honour is rejected before
//! anything is built (`support`). Namespaces carry a per-run prefix and are removed on
//! success, on error and on Ctrl-C (`netns`); `clean` removes what a crashed run left.

pub mod bench;
pub mod capture;
pub mod delay;
pub mod fidelity;
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

/// Writes a testbed run's output folder (the same files and keys as `pathpool run`) and
/// returns the summary; `backend = "testbed"` says where the numbers come from.
pub fn write_outputs(dir: &std::path::Path, outcome: &pathpool_scenario::outcome::Outcome) -> std::io::Result<std::collections::BTreeMap<String, serde_json::Value>> {
    let mut summary = pathpool_scenario::output::write_all(dir, outcome)?;
    summary.insert("backend".into(), serde_json::json!("testbed"));
    std::fs::write(dir.join("summary.json"), pathpool_scenario::summary::to_json(&summary))?;
    Ok(summary)
}
