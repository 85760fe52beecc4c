//! The controllers' names. Each is derived from its scheme's name in the scheme table
//! (`pathpool_cc::Scheme`): `pp_` and the name with '-' as '_' (a C identifier within the
//! kernel's TCP_CA_NAME_MAX of 16 bytes with the NUL), so `mptcp-sbd` runs as `pp_mptcp_sbd`.
//! The BPF object defines the same names in the same order (`bpf/pathpool_cc.bpf.c`, its
//! `PP_CC` lines; a test below compares them).

use pathpool_cc::{Algorithm, Backend, Scheme, SinglePath};
use std::sync::OnceLock;

/// What every BPF controller's name starts with.
pub const PREFIX: &str = "pp_";

/// What Linux runs for a scheme on an MPTCP connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinuxCc {
    /// The kernel's own single-path controller on every subflow (uncoupled).
    Stock(&'static str),
    /// One of pathpool's BPF struct_ops controllers, registered for the run.
    Bpf(&'static str),
}

/// The controller Linux runs for `scheme`; None where the scheme table lists no Linux.
pub fn linux_cc(scheme: Scheme) -> Option<LinuxCc> {
    if !scheme.runs_on(Backend::Linux) {
        return None;
    }
    Some(match scheme {
        Scheme::Window(Algorithm::Uncoupled(SinglePath::Reno)) => LinuxCc::Stock("reno"),
        Scheme::Window(Algorithm::Uncoupled(SinglePath::Cubic)) => LinuxCc::Stock("cubic"),
        other => LinuxCc::Bpf(bpf_name(other)),
    })
}

/// The struct_ops congestion controls the BPF object registers, in its order (the index is
/// the object's algorithm number).
pub fn controllers() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    NAMES.get_or_init(|| Scheme::all().filter_map(|s| match linux_cc(s) { Some(LinuxCc::Bpf(n)) => Some(n), _ => None }).collect())
}

/// The controller of MPTCP-SBD, which takes its groups from the SBD daemon.
pub fn sbd_controller() -> &'static str {
    bpf_name(Scheme::MptcpSbd)
}

/// The kernel controller for a scenario's `cc` on an MPTCP flow, if it is one of ours.
pub fn controller_for(cc: &str) -> Option<&'static str> {
    match cc.parse().ok().and_then(linux_cc) {
        Some(LinuxCc::Bpf(n)) => Some(n),
        _ => None,
    }
}

/// `pp_` and the scheme's name with '-' as '_', made once per scheme.
fn bpf_name(scheme: Scheme) -> &'static str {
    static NAMES: OnceLock<Vec<(Scheme, &'static str)>> = OnceLock::new();
    let names = NAMES.get_or_init(|| Scheme::all().map(|s| (s, &*Box::leak(format!("{PREFIX}{}", s.name().replace('-', "_")).into_boxed_str()))).collect());
    names.iter().find(|(s, _)| *s == scheme).map(|&(_, n)| n).expect("every scheme is in Scheme::all")
}

#[cfg(test)]
mod tests {
    use super::*;

    const BPF: &str = include_str!("../bpf/pathpool_cc.bpf.c");

    /// The longest congestion-control name the kernel takes (TCP_CA_NAME_MAX less the NUL).
    const NAME_MAX: usize = 15;

    #[test]
    fn names_fit_the_kernel_limit_and_map_from_scenario_names() {
        for n in controllers() {
            assert!(n.len() <= NAME_MAX, "{n} exceeds TCP_CA_NAME_MAX");
        }
        assert_eq!(controllers(), ["pp_lia", "pp_olia", "pp_balia", "pp_mptcp_sbd"]);
        assert_eq!(controller_for("olia"), Some("pp_olia"));
        assert_eq!(controller_for("mptcp-sbd"), Some("pp_mptcp_sbd"));
        assert_eq!(sbd_controller(), "pp_mptcp_sbd");
        assert_eq!(controller_for("uncoupled"), None);
        assert_eq!(linux_cc("uncoupled-cubic".parse().unwrap()), Some(LinuxCc::Stock("cubic")));
        assert_eq!(controller_for("wvegas"), None);
        assert_eq!(controller_for("reno"), None);
    }

    /// The BPF object's `PP_CC(NAME, ALGO)` lines name the controllers of the scheme table in
    /// order, the i-th with algorithm number i (its enum of `PP_*` values).
    #[test]
    fn the_bpf_object_defines_the_derived_names_in_order() {
        let numbers: Vec<(String, usize)> = BPF
            .lines()
            .find(|l| l.starts_with("enum { PP_LIA"))
            .expect("the algorithm enum")
            .trim_start_matches("enum {")
            .trim_end_matches("};")
            .split(',')
            .map(|kv| {
                let (k, v) = kv.split_once('=').expect("NAME = number");
                (k.trim().to_string(), v.trim().parse().expect("a number"))
            })
            .collect();
        let defined: Vec<(&str, usize)> = BPF
            .lines()
            .filter_map(|l| l.strip_prefix("PP_CC(")?.strip_suffix(')'))
            .map(|args| {
                let (name, algo) = args.split_once(',').expect("PP_CC(NAME, ALGO)");
                let n = numbers.iter().find(|(k, _)| k == algo.trim()).unwrap_or_else(|| panic!("{algo} not in the enum")).1;
                (name.trim(), n)
            })
            .collect();
        let expected: Vec<(&str, usize)> = controllers().iter().enumerate().map(|(i, &n)| (n, i)).collect();
        assert_eq!(defined, expected, "bpf/pathpool_cc.bpf.c's PP_CC lines against the scheme table");
    }
}
