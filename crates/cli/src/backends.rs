//! The backends `--backend` and `--backends` name, built in one place.

use pathpool_experiment::outcome::Outcome;
use pathpool_experiment::schema::FlowKind;
use pathpool_experiment::{Backend, Loaded, RunError};
use std::path::PathBuf;

/// Every backend's name, as `pathpool run --backend` takes it.
pub const NAMES: [&str; 3] = ["sim", "linux", "quic"];

/// Backend `name` (one of `NAMES`); `progress`: a progress bar; `capture`: the simulator's
/// pcap folder.
pub fn make(name: &str, progress: bool, capture: Option<PathBuf>) -> Box<dyn Backend> {
    match name {
        "linux" => Box::new(LinuxWithoutDaemon(pathpool_testbed::Linux { options: pathpool_testbed::RunOptions { progress, capture: None, host_captures: Vec::new() } })),
        "quic" => Box::new(pathpool_quic::Quic { progress }),
        _ => Box::new(pathpool_scenario::Simulator { progress, capture }),
    }
}

/// Whether backend `name` builds real networks (namespaces, TUN devices, queues), which
/// needs root.
pub fn real(name: &str) -> bool {
    matches!(name, "linux" | "quic")
}

/// The testbed as `run` drives it: without the SBD daemon, which `pathpool compare` and
/// `pathpool fidelity` run beside a real run (crate::comparison::one_run), an MPTCP-SBD
/// connection on Linux keeps its subflows in one group (coupled OLIA), so a scenario that asks
/// for MPTCP-SBD is refused rather than run as something else.
struct LinuxWithoutDaemon(pathpool_testbed::Linux);

impl Backend for LinuxWithoutDaemon {
    fn name(&self) -> &'static str {
        self.0.name()
    }

    fn check(&self, l: &Loaded) -> Result<(), RunError> {
        self.0.check(l)?;
        for spec in &l.scenario.flows {
            if matches!(&spec.kind, FlowKind::Mptcp(m) if m.cc.value == "mptcp-sbd") {
                let base = spec.name.path.strip_suffix(".name").unwrap_or(&spec.name.path);
                let why = "\"mptcp-sbd\" on the linux backend needs the SBD daemon beside the run, which `pathpool compare --backends linux` and `pathpool fidelity` start (or `pathpool kernel sbd` beside `pathpool testbed run`); without it the subflows stay in one group (coupled OLIA, not MPTCP-SBD)";
                return Err(RunError::Refused(l.source.error(&spec.name.origin, &format!("{base}.cc"), why.to_string()).to_string()));
            }
        }
        Ok(())
    }

    fn run(&self, l: &Loaded) -> Result<Outcome, RunError> {
        self.check(l)?;
        self.0.run(l)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mptcp_sbd_on_linux_without_the_daemon_is_refused_naming_the_key() {
        let text = "[simulation]\nduration = \"5s\"\n[links.l]\nfrom = \"a\"\nto = \"b\"\nrate = \"10Mbps\"\ndelay = \"10ms\"\nbuffer = 50\n[links.m]\nfrom = \"a\"\nto = \"c\"\nrate = \"10Mbps\"\ndelay = \"10ms\"\nbuffer = 50\n[links.n]\nfrom = \"c\"\nto = \"b\"\nrate = \"10Mbps\"\ndelay = \"10ms\"\nbuffer = 50\n[[flows]]\nname = \"mp\"\nkind = \"mptcp\"\nsubflows = [[\"a\", \"b\"], [\"a\", \"c\", \"b\"]]\ncc = \"mptcp-sbd\"\n";
        let l = pathpool_experiment::load_str("sbd.toml", text, &[]).expect("valid");
        match make("linux", false, None).check(&l) {
            Err(RunError::Refused(e)) => assert!(e.contains("sbd.toml") && e.contains("flows.mp.cc") && e.contains("SBD daemon"), "{e}"),
            other => panic!("not refused: {:?}", other.err()),
        }
        let uncoupled = pathpool_experiment::load_str("u.toml", &text.replace("mptcp-sbd", "uncoupled"), &[]).expect("valid");
        assert!(make("linux", false, None).check(&uncoupled).is_ok());
    }
}
