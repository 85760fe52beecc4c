//! Numeric keys at their extremes, alone and combined, end in an error that names the file
//! (or `--set`), the field and the limit; nothing the loader accepts can ask a run for
//! unbounded memory (crate::limits). `robustness_table_is_current` keeps the table of
//! docs/robustness.md in step with these cases (PATHPOOL_WRITE_DOCS=1 rewrites it).

use pathpool_scenario::load_str;
use proptest::prelude::*;
use std::path::Path;

const BASE: &str = include_str!("../../../scenarios/robustness/base.toml");

/// (what is tried, overrides, None if the scenario loads, else (field, part of the message)).
type Case = (&'static str, &'static [&'static str], Option<(&'static str, &'static str)>);

const CASES: &[Case] = &[
    ("probe every picosecond", &["simulation.probe_interval=\"1ps\""], Some(("simulation.probe_interval", "at most 20000000: set probe_interval to at least"))),
    ("longest duration, default probe interval", &["simulation.duration=\"1000000s\""], Some(("simulation.probe_interval", "probe values"))),
    ("duration beyond the limit", &["simulation.duration=\"1000001s\""], Some(("simulation.duration", "at most 1000000s"))),
    ("longest duration, probe every 1000 s", &["simulation.duration=\"1000000s\"", "simulation.probe_interval=\"1000s\""], None),
    ("buffer of 10^9 packets", &["links.bn.buffer=1000000000"], Some(("links.bn", "at most 10000000"))),
    ("buffer beyond 10^9 packets", &["links.bn.buffer=1000000001"], Some(("links.bn.buffer", "at most 1000000000 packets"))),
    ("buffer of 1000 GB", &["links.bn.buffer=\"1000GB\""], Some(("links.bn", "could hold"))),
    ("10 Tb/s link with 1000 s delay", &["links.bn.rate=\"10Tbps\"", "links.bn.delay=\"1000s\""], Some(("links.bn", "could hold"))),
    ("rate beyond 10 Tb/s", &["links.bn.rate=\"11Tbps\""], Some(("links.bn.rate", "at most 10Tbps"))),
    ("1 Tb/s link with 5 ms delay", &["links.bn.rate=\"1Tbps\""], None),
    ("1 B packets on a 10 Gb/s link", &["flows.tcp.packet_size=\"1B\"", "links.bn.rate=\"10Gbps\""], Some(("links.bn", "smallest size any flow sends, 1 B"))),
    ("UDP of 1 B packets at 1 Tb/s", &["flows.udp.packet_size=\"1B\"", "flows.udp.rate=\"1Tbps\""], Some(("flows.udp.name", "this UDP source sends the most"))),
    ("packet size 0", &["flows.tcp.packet_size=\"0B\""], Some(("flows.tcp.packet_size", "must be greater than zero"))),
    ("count of 99000 flows, default probe interval", &["flows.tcp.count=99000"], None),
    ("count beyond 100000", &["flows.tcp.count=100001"], Some(("flows.tcp.count", "from 1 to 100000"))),
    ("two templates of 60000 flows", &["flows.tcp.count=60000", "flows.udp.count=60000", "simulation.probe_interval=\"10s\""], Some(("flows.udp.name", "at most 100000"))),
    ("two link templates of 60000 copies", &["links.ac.count=60000", "links.cb.count=60000"], Some(("links.cb.count", "at most 100000 links"))),
    ("initial window 10^6 in 20 copies", &["flows.tcp.count=20", "flows.tcp.initial_window=1000000"], Some(("flows.tcp.name", "initial windows"))),
    ("initial window 10^6", &["flows.tcp.initial_window=1000000"], None),
    ("initial window beyond 10^6", &["flows.tcp.initial_window=1000001"], Some(("flows.tcp.initial_window", "from 1 to 1000000"))),
    ("start_spacing pushing copies past the end", &["flows.tcp.count=3", "flows.tcp.start_spacing=\"1000000s\""], Some(("flows.tcp.name", "starts at or after the end of the simulation"))),
    ("receive_buffer of 2^40 packets", &["flows.mp.receive_buffer=1099511627776"], None),
    ("receive_buffer beyond 2^40", &["flows.mp.receive_buffer=1099511627777"], Some(("flows.mp.receive_buffer", "from 1 to 1099511627776"))),
    ("sbd_sample_spacing 0", &["flows.mp.sbd_sample_spacing=\"0s\""], None),
    ("sbd_sample_spacing longest", &["flows.mp.sbd_sample_spacing=\"1000000s\""], None),
    ("seed beyond i64", &["simulation.seed=9223372036854775808"], Some(("simulation.seed", ""))),
];

fn outcome(sets: &[&str]) -> Result<(), pathpool_scenario::ScenarioError> {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    load_str("scenarios/robustness/base.toml", BASE, &sets).map(|_| ())
}

#[test]
fn extreme_values_end_in_a_located_error_or_load() {
    for (what, sets, expected) in CASES {
        match (outcome(sets), expected) {
            (Ok(()), None) => {}
            (Ok(()), Some(_)) => panic!("{what}: accepted {sets:?}"),
            (Err(e), None) => panic!("{what}: rejected {sets:?}: {e}"),
            (Err(e), Some((field, part))) => {
                assert!(e.location.starts_with("scenarios/robustness/base.toml:") || e.location.starts_with("--set "), "{what}: {e}");
                assert_eq!(&e.field, field, "{what}: {e}");
                assert!(e.message.contains(part), "{what}: expected '{part}' in: {e}");
            }
        }
    }
}

/// No scenario the project ships comes near a limit.
#[test]
fn every_shipped_scenario_is_within_the_limits() {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "toml") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios"), &mut files);
    assert!(files.len() > 20, "{} files", files.len());
    for f in files {
        if let Err(e) = pathpool_scenario::load(&f, &[]) {
            for limit in ["probe values", "could hold", "could send", "links would number", "flows (each subflow counted)"] {
                assert!(!e.message.contains(limit), "{e}");
            }
        }
    }
}

fn table() -> String {
    let mut t = String::from("| input tried (`--set` on the base scenario) | exit code | message |\n|---|---|---|\n");
    for (what, sets, _) in CASES {
        let sets = sets.iter().map(|s| format!("`{}`", s.replace('|', "\\|"))).collect::<Vec<_>>().join(" ");
        let (code, message) = match outcome(&CASES.iter().find(|c| c.0 == *what).unwrap().1) {
            Ok(()) => ("0", "loads; runs bounded".to_string()),
            Err(e) => ("2", e.to_string().replace('|', "\\|")),
        };
        t.push_str(&format!("| {what}: {sets} | {code} | {message} |\n"));
    }
    t
}

const BEGIN: &str = "<!-- table: cargo test -p pathpool-scenario --test limits robustness_table_is_current -->\n";
const END: &str = "<!-- end table -->";

#[test]
fn robustness_table_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/robustness.md");
    let doc = std::fs::read_to_string(&path).unwrap_or_default();
    let (head, rest) = doc.split_once(BEGIN).unwrap_or((&doc, ""));
    let tail = rest.split_once(END).map_or("", |(_, t)| t);
    let fresh = format!("{head}{BEGIN}{}{END}{tail}", table());
    if std::env::var_os("PATHPOOL_WRITE_DOCS").is_some() {
        std::fs::write(&path, &fresh).unwrap();
    } else {
        assert!(doc == fresh, "docs/robustness.md is out of date: PATHPOOL_WRITE_DOCS=1 cargo test -p pathpool-scenario --test limits");
    }
}

const NUMERIC: &[&str] = &[
    "simulation.duration",
    "simulation.warmup",
    "simulation.probe_interval",
    "simulation.seed",
    "links.bn.rate",
    "links.bn.delay",
    "links.bn.buffer",
    "links.bn.loss",
    "links.ac.count",
    "flows.tcp.count",
    "flows.tcp.start",
    "flows.tcp.start_spacing",
    "flows.tcp.stop",
    "flows.tcp.packet_size",
    "flows.tcp.ack_size",
    "flows.tcp.initial_window",
    "flows.tcp.min_rto",
    "flows.udp.rate",
    "flows.udp.packet_size",
    "flows.udp.count",
    "flows.mp.count",
    "flows.mp.receive_buffer",
    "flows.mp.sbd_sample_spacing",
    "flows.mp.sbd_corr_min",
    "flows.mp.initial_window",
];

/// A number at an extreme, bare or with any unit the format knows.
fn extreme() -> impl Strategy<Value = String> {
    let n = prop_oneof![
        Just("0".to_string()),
        Just("1".to_string()),
        Just("-1".to_string()),
        Just("0.000001".to_string()),
        Just("99999".to_string()),
        Just("100000".to_string()),
        Just("1000000000".to_string()),
        Just("1099511627776".to_string()),
        Just("9223372036854775807".to_string()),
        Just("18446744073709551616".to_string()),
        Just("1e308".to_string()),
        Just("nan".to_string()),
        Just("inf".to_string()),
        (0u32..20).prop_map(|e| format!("1{}", "0".repeat(e as usize))),
    ];
    let unit = prop::sample::select(&["", "ps", "ns", "s", "ms", "B", "GB", "GiB", "pkt", "bps", "Tbps", "Mbps"][..]);
    (n, unit, any::<bool>()).prop_map(|(n, u, quoted)| if quoted || !u.is_empty() { format!("\"{n}{u}\"") } else { n })
}

/// Cases per property: `make fuzz` raises it with PATHPOOL_FUZZ_CASES.
fn cases(default: u32) -> u32 {
    std::env::var("PATHPOOL_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(1000), ..ProptestConfig::default() })]

    #[test]
    fn extremes_of_numeric_keys_load_or_name_the_problem(keys in prop::collection::vec((prop::sample::select(NUMERIC), extreme()), 1..5)) {
        let sets: Vec<String> = keys.iter().map(|(k, v)| format!("{k}={v}")).collect();
        match load_str("scenarios/robustness/base.toml", BASE, &sets) {
            Ok(l) => prop_assert!(pathpool_scenario::limits::check(&l.scenario, &l.source).is_ok()),
            Err(e) => {
                prop_assert!(e.location.starts_with("--set ") || e.location.starts_with("scenarios/robustness/base.toml:"), "{e}");
                prop_assert!(!e.message.is_empty(), "{e}");
            }
        }
    }
}
