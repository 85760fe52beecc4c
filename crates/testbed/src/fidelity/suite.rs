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
];
