//! Whatever a `--set` override says, loading answers with a scenario or an error that names
//! where the problem is; it never panics.

use pathpool_scenario::load_str;
use proptest::prelude::*;

const BASE: &str = r#"
[simulation]
duration = "10s"
warmup = "1s"
bottleneck = "bn"

[links.bn]
from = "a"
to = "b"
rate = "10Mbps"
delay = "5ms"
buffer = 20
queue = "red"
red_min = 5
red_max = 15

[links.access]
count = 2
from = "s{i}"
to = "a"
rate = "100Mbps"
delay = "1ms"
buffer = "30000B"

[[flows]]
name = "tcp"
count = 2
route = ["s{i}", "a", "b"]
start_spacing = "10ms"

[[flows]]
name = "udp"
kind = "udp"
traffic = "on-off"
rate = "1Mbps"
mean_on = "100ms"
mean_off = "100ms"
route = ["s0", "a", "b"]
"#;

const PATHS: &[&str] = &[
    "simulation.duration",
    "simulation.warmup",
    "simulation.seed",
    "simulation.probe_interval",
    "simulation.bottleneck",
    "links.bn.rate",
    "links.bn.delay",
    "links.bn.buffer",
    "links.bn.queue",
    "links.bn.red_min",
    "links.bn.loss",
    "links.bn.one_way",
    "links.bn.reverse",
    "links.access.count",
    "links.access.from",
    "flows.tcp.count",
    "flows.tcp.route",
    "flows.tcp.reverse_route",
    "flows.tcp.cc",
    "flows.tcp.traffic",
    "flows.tcp.start",
    "flows.tcp.start_spacing",
    "flows.tcp.stop",
    "flows.tcp.packet_size",
    "flows.tcp.initial_window",
    "flows.udp.kind",
    "flows.udp.pareto_shape",
    "flows.0.name",
    "flows.1",
    "links",
    "flows",
    "nonsense.key",
];

fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        "[-0-9.]{0,6}(s|ms|us|ps|B|KiB|Mbps|Gbps|Tbps|pkt|)",
        "-?[0-9]{1,25}",
        Just("[\"s{i}\", \"a\", \"b\"]".to_string()),
        Just("[\"b\", \"a\"]".to_string()),
        Just("[]".to_string()),
        Just("{ rate = \"1Mbps\" }".to_string()),
        Just("true".to_string()),
        Just("1e308".to_string()),
        Just("nan".to_string()),
        "[a-z{}\\[\\]\" =,._-]{0,12}",
    ]
}

/// Cases per property: `make fuzz` raises it with PATHPOOL_FUZZ_CASES.
fn cases(default: u32) -> u32 {
    std::env::var("PATHPOOL_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(2000), ..ProptestConfig::default() })]

    #[test]
    fn any_override_loads_or_names_the_problem(path in prop::sample::select(PATHS), v in value(), second in prop::sample::select(PATHS), w in value()) {
        let sets = vec![format!("{path}={v}"), format!("{second}={w}")];
        if let Err(e) = load_str("base.toml", BASE, &sets) {
            prop_assert!(e.location.starts_with("--set ") || e.location.starts_with("base.toml"), "{e}");
            prop_assert!(!e.message.is_empty());
        }
    }
}
