//! The backends `--backend` and `--backends` name, built in one place.

use pathpool_experiment::Backend;
use std::path::PathBuf;

/// Every backend's name, as `pathpool run --backend` takes it.
pub const NAMES: [&str; 3] = ["sim", "linux", "quic"];

/// Backend `name` (one of `NAMES`); `progress`: a progress bar; `capture`: the simulator's
/// pcap folder.
pub fn make(name: &str, progress: bool, capture: Option<PathBuf>) -> Box<dyn Backend> {
    match name {
        // The SBD daemon that MPTCP-SBD needs beside a real run is comparison::one_run's.
        "linux" => Box::new(pathpool_testbed::Linux { options: pathpool_testbed::RunOptions { progress, capture: None, host_captures: Vec::new() } }),
        "quic" => Box::new(pathpool_quic::Quic { progress }),
        _ => Box::new(pathpool_scenario::Simulator { progress, capture }),
    }
}

/// Whether backend `name` builds real networks (namespaces, TUN devices, queues), which
/// needs root.
pub fn real(name: &str) -> bool {
    matches!(name, "linux" | "quic")
}
