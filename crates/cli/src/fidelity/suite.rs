//! The cases: which file, which quantity of its summary.json, and how close the simulator
//! must come.

use serde_json::Value;
use std::collections::BTreeMap;

/// What a case measures, read from summary.json.
#[derive(Clone, Copy, Debug)]
pub enum Quantity {
    Key(&'static str),
    /// a / b
    Ratio(&'static str, &'static str),
    /// a / (a + b)
    Share(&'static str, &'static str),
}

impl Quantity {
    pub fn of(&self, summary: &BTreeMap<String, Value>) -> Option<f64> {
        let get = |k: &str| summary.get(k).and_then(Value::as_f64);
        match *self {
            Quantity::Key(k) => get(k),
            Quantity::Ratio(a, b) => Some(get(a)? / get(b)?).filter(|v| v.is_finite()),
            Quantity::Share(a, b) => Some(get(a)? / (get(a)? + get(b)?)).filter(|v| v.is_finite()),
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Quantity::Key(k) => format!("`{k}`"),
            Quantity::Ratio(a, b) => format!("`{a}` / `{b}`"),
            Quantity::Share(a, b) => format!("`{a}` / (`{a}` + `{b}`)"),
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Case {
    /// `scenarios/fidelity/NAME.toml`.
    pub name: &'static str,
    /// The quantity in words, for the report.
    pub measures: &'static str,
    pub quantity: Quantity,
    pub multipath: bool,
    /// Quick mode's duration and warm-up, long enough for the quantity to settle.
    pub quick: (&'static str, &'static str),
}

impl Case {
    /// Largest relative error of the simulator's median against real Linux's that passes.
    pub fn tolerance(&self) -> f64 {
        if self.multipath {
            0.15
        } else {
            0.10
        }
    }
}

pub const SUITE: &[Case] = &[
    Case { name: "reno-alone", measures: "bottleneck utilisation", quantity: Quantity::Key("bottleneck_utilization"), multipath: false, quick: ("15s", "5s") },
    Case { name: "reno-rtt", measures: "throughput RTT 20 ms / RTT 40 ms", quantity: Quantity::Ratio("flow.rtt20.throughput_mbps", "flow.rtt40.throughput_mbps"), multipath: false, quick: ("25s", "5s") },
    Case { name: "reno-phase", measures: "throughput path 1.1 ms / 1 ms", quantity: Quantity::Ratio("flow.far.throughput_mbps", "flow.near.throughput_mbps"), multipath: false, quick: ("25s", "5s") },
    Case { name: "reno-cubic", measures: "CUBIC's share", quantity: Quantity::Share("flow.cubic.throughput_mbps", "flow.reno.throughput_mbps"), multipath: false, quick: ("25s", "5s") },
    Case { name: "ten-reno", measures: "Jain's index", quantity: Quantity::Key("jain_index"), multipath: false, quick: ("20s", "5s") },
    Case { name: "long-rtt", measures: "bottleneck utilisation", quantity: Quantity::Key("bottleneck_utilization"), multipath: false, quick: ("30s", "10s") },
    Case { name: "small-buffer", measures: "bottleneck utilisation", quantity: Quantity::Key("bottleneck_utilization"), multipath: false, quick: ("20s", "5s") },
    Case { name: "mptcp-shared", measures: "MPTCP / TCP", quantity: Quantity::Ratio("mptcp_mbps", "tcp_mbps"), multipath: true, quick: ("25s", "5s") },
    Case { name: "mptcp-disjoint", measures: "MPTCP / TCP", quantity: Quantity::Ratio("mptcp_mbps", "tcp_mbps"), multipath: true, quick: ("25s", "5s") },
    // The coupled controllers (on the testbed: pathpool's BPF struct_ops, docs/kernel.md).
    Case { name: "lia-shared", measures: "MPTCP (LIA) / TCP", quantity: Quantity::Ratio("mptcp_mbps", "tcp_mbps"), multipath: true, quick: ("25s", "5s") },
    Case { name: "olia-shared", measures: "MPTCP (OLIA) / TCP", quantity: Quantity::Ratio("mptcp_mbps", "tcp_mbps"), multipath: true, quick: ("25s", "5s") },
    Case { name: "balia-shared", measures: "MPTCP (BALIA) / TCP", quantity: Quantity::Ratio("mptcp_mbps", "tcp_mbps"), multipath: true, quick: ("25s", "5s") },
    Case { name: "olia-disjoint", measures: "MPTCP (OLIA) / TCP", quantity: Quantity::Ratio("mptcp_mbps", "tcp_mbps"), multipath: true, quick: ("25s", "5s") },
    // The detector's first decision comes some 20 s in (docs/kernel.md): quick runs count
    // from there.
    Case { name: "sbd-disjoint", measures: "MPTCP (MPTCP-SBD) / TCP", quantity: Quantity::Ratio("mptcp_mbps", "tcp_mbps"), multipath: true, quick: ("40s", "20s") },
    Case { name: "sbd-shared", measures: "MPTCP (MPTCP-SBD) / TCP", quantity: Quantity::Ratio("mptcp_mbps", "tcp_mbps"), multipath: true, quick: ("40s", "20s") },
    // The bottleneck moves at 30 s (UDP cross traffic, no TCP flow): what matters is the SBD
    // daemon's reaction (scripts/realfair.py); the goodput only keeps the run honest.
    Case { name: "sbd-shifting", measures: "MPTCP (MPTCP-SBD) goodput, Mb/s", quantity: Quantity::Key("mptcp_mbps"), multipath: true, quick: ("60s", "5s") },
    // The same the other way round: separate bottlenecks until 30 s, then one shared.
    Case { name: "sbd-shifting-join", measures: "MPTCP (MPTCP-SBD) goodput, Mb/s", quantity: Quantity::Key("mptcp_mbps"), multipath: true, quick: ("60s", "5s") },
];

#[cfg(test)]
mod tests {
    use super::SUITE;
    use std::path::PathBuf;

    fn folder() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/fidelity")
    }

    /// A scenario file without its comments and description, and with the MPTCP flow's cc
    /// put back to "uncoupled".
    fn skeleton(name: &str, cc: &str) -> String {
        let text = std::fs::read_to_string(folder().join(format!("{name}.toml"))).unwrap();
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim_start().starts_with('#') && !l.starts_with("description = ")).collect();
        let ccs = lines.iter().filter(|l| **l == format!("cc = \"{cc}\"")).count();
        assert_eq!(ccs, 1, "{name}: one flow with cc = \"{cc}\"");
        lines.join("\n").replace(&format!("cc = \"{cc}\""), "cc = \"uncoupled\"")
    }

    #[test]
    fn every_case_has_its_file_and_every_file_its_case() {
        let mut files: Vec<String> = std::fs::read_dir(folder())
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".toml").map(str::to_string))
            .collect();
        files.sort();
        let mut cases: Vec<String> = SUITE.iter().map(|c| c.name.to_string()).collect();
        cases.sort();
        assert_eq!(files, cases);
    }

    /// The coupled cases differ from the uncoupled ones only in the MPTCP flow's controller:
    /// the same links, queues, host settings and host latency, so a difference between them is
    /// the controller's.
    #[test]
    fn coupled_cases_are_the_uncoupled_ones_with_another_cc() {
        for (name, base, cc) in [
            ("lia-shared", "mptcp-shared", "lia"),
            ("olia-shared", "mptcp-shared", "olia"),
            ("balia-shared", "mptcp-shared", "balia"),
            ("olia-disjoint", "mptcp-disjoint", "olia"),
            ("sbd-disjoint", "mptcp-disjoint", "mptcp-sbd"),
            ("sbd-shared", "mptcp-shared", "mptcp-sbd"),
        ] {
            assert_eq!(skeleton(name, cc), skeleton(base, "uncoupled"), "{name} against {base}");
            let case = SUITE.iter().find(|c| c.name == name).expect("registered");
            assert!(case.multipath && (case.tolerance() - 0.15).abs() < 1e-12, "{name}: a multipath case, 15 %");
            assert_eq!(case.quantity.describe(), "`mptcp_mbps` / `tcp_mbps`");
        }
    }
}
