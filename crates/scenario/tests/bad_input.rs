//! Each class of bad scenario input is rejected before anything runs, with the file, line,
//! field and what was expected.

use pathpool_scenario::{load_str, ScenarioError};

/// A dumbbell with one bottleneck and two TCP flows (also the base of the CLI's bad-input table).
const GOOD: &str = include_str!("fixtures/dumbbell.toml");

fn err(text: &str, sets: &[&str]) -> ScenarioError {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    match load_str("bad.toml", text, &sets) {
        Ok(_) => panic!("accepted a bad scenario (sets {sets:?}):\n{text}"),
        Err(e) => e,
    }
}

/// The 1-based line of the first occurrence of `needle` in `text`.
fn line_of(text: &str, needle: &str) -> usize {
    let at = text.find(needle).unwrap_or_else(|| panic!("{needle} not in text"));
    text[..at].matches('\n').count() + 1
}

fn assert_at(e: &ScenarioError, text: &str, needle: &str, field: &str, message_part: &str) {
    let line = line_of(text, needle);
    assert!(e.location.starts_with(&format!("bad.toml:{line}:")), "expected line {line}: {e}");
    assert_eq!(e.field, field, "{e}");
    assert!(e.message.contains(message_part), "expected '{message_part}' in: {e}");
}

#[test]
fn the_good_scenario_loads() {
    let loaded = load_str("good.toml", GOOD, &[]).unwrap();
    assert_eq!(loaded.topology.flows.len(), 2);
    assert_eq!(loaded.topology.flows[1].name, "bulk.1");
    assert_eq!(loaded.topology.bottleneck, Some(0));
}

#[test]
fn unknown_keys_name_their_path_and_the_likely_key() {
    let text = GOOD.replace("delay = \"10ms\"", "dealy = \"10ms\"");
    let e = err(&text, &[]);
    assert_at(&e, &text, "dealy", "links.bottleneck.dealy", "unknown key (did you mean 'delay'?)");

    let text = GOOD.replace("count = 2", "count = 2\ninitial_windw = 4");
    let e = err(&text, &[]);
    assert_at(&e, &text, "initial_windw", "flows.bulk.initial_windw", "did you mean 'initial_window'?");

    let text = GOOD.replace("[simulation]", "[simulaton]");
    let e = err(&text, &[]);
    assert_at(&e, &text, "simulaton", "simulaton", "did you mean 'simulation'?");

    // Far from every key: list them instead of guessing.
    let text = GOOD.replace("buffer = 100", "buffer = 100\ncolour = \"red\"");
    let e = err(&text, &[]);
    assert!(e.message.contains("known keys: rate, delay, buffer"), "{e}");
}

#[test]
fn a_route_through_a_missing_node() {
    let text = GOOD.replace("route = [\"left\", \"right\"]", "route = [\"left\", \"rigth\"]");
    let e = err(&text, &[]);
    assert_at(&e, &text, "route", "flows.bulk.route", "node \"rigth\" (copy 0) is not an end of any link (did you mean 'right'?)");
}

#[test]
fn a_flow_template_with_more_copies_than_its_access_links() {
    let text = GOOD.replace("[[flows]]", "[links.access]\ncount = 2\nfrom = \"s{i}\"\nto = \"left\"\nrate = \"1Gbps\"\ndelay = \"1ms\"\nbuffer = 10\n\n[[flows]]");
    let text = text.replace("count = 2\nroute = [\"left\", \"right\"]", "count = 3\nroute = [\"s{i}\", \"left\", \"right\"]");
    let e = err(&text, &[]);
    assert_at(&e, &text, "route = [\"s{i}", "flows.bulk.route", "node \"s{i}\" is \"s2\" for copy 2, but no link has that end");
}

#[test]
fn zero_or_negative_rates_and_delays() {
    for (from, to, field, part) in [
        ("rate = \"100Mbps\"", "rate = \"0Mbps\"", "links.bottleneck.rate", "must be greater than zero"),
        ("rate = \"100Mbps\"", "rate = \"-5Mbps\"", "links.bottleneck.rate", "must not be negative"),
        ("delay = \"10ms\"", "delay = \"0s\"", "links.bottleneck.delay", "must be greater than zero"),
        ("delay = \"10ms\"", "delay = \"-10ms\"", "links.bottleneck.delay", "must not be negative"),
    ] {
        let text = GOOD.replace(from, to);
        let e = err(&text, &[]);
        assert_at(&e, &text, to, field, part);
    }
}

#[test]
fn values_without_or_with_wrong_units_say_what_was_expected() {
    let text = GOOD.replace("rate = \"100Mbps\"", "rate = 100");
    let e = err(&text, &[]);
    assert_at(&e, &text, "rate = 100", "links.bottleneck.rate", "expected a rate with a unit, like \"100Mbps\"");
    assert!(e.message.contains("got the integer 100"), "{e}");

    let text = GOOD.replace("delay = \"10ms\"", "delay = \"10 fortnights\"");
    let e = err(&text, &[]);
    assert_at(&e, &text, "10 fortnights", "links.bottleneck.delay", "expected a time with a unit, like \"20ms\"");

    let e = err(GOOD, &["simulation.host_latency=600"]);
    assert_eq!(e.field, "simulation.host_latency", "{e}");
    assert!(e.message.contains("expected a time with a unit"), "{e}");
}

#[test]
fn a_buffer_smaller_than_one_packet() {
    let text = GOOD.replace("buffer = 100", "buffer = \"1000B\"");
    let e = err(&text, &[]);
    assert_at(&e, &text, "1000B", "links.bottleneck.buffer", "smaller than one packet of flow \"bulk.0\" (1500 B)");

    let text = GOOD.replace("buffer = 100", "buffer = 0");
    let e = err(&text, &[]);
    assert_at(&e, &text, "buffer = 0", "links.bottleneck.buffer", "at least one packet");
}

#[test]
fn an_endpoint_with_no_route_back() {
    let text = GOOD.replace("buffer = 100", "buffer = 100\none_way = true");
    let e = err(&text, &[]);
    assert_at(&e, &text, "route", "flows.bulk.route", "no route back from the receiver \"right\" to the sender \"left\"");
    assert!(e.message.contains("link \"bottleneck\" is one-way, from \"left\" to \"right\""), "{e}");
}

#[test]
fn cross_references_and_choices() {
    let text = GOOD.replace("bottleneck = \"bottleneck\"", "bottleneck = \"bottlenek\"");
    let e = err(&text, &[]);
    assert_at(&e, &text, "bottlenek", "simulation.bottleneck", "did you mean 'bottleneck'?");

    let text = GOOD.replace("count = 2", "count = 2\ncc = \"cubci\"");
    let e = err(&text, &[]);
    assert_at(&e, &text, "cubci", "flows.bulk.cc", "did you mean 'cubic'?");

    let text = GOOD.replace("buffer = 100", "buffer = 100\nqueue = \"red\"\ndrop_slots = 3");
    let e = err(&text, &[]);
    assert_at(&e, &text, "drop_slots", "links.bottleneck.drop_slots", "only applies with queue = \"random-tail-drop\"");

    let text = GOOD.replace("count = 2", "count = 2\nkind = \"udp\"\nrate = \"1Mbps\"\nlog_delays = true");
    let e = err(&text, &[]);
    assert_at(&e, &text, "log_delays", "flows.bulk.log_delays", "only applies with kind = \"tcp\"");

    // An unknown kind is named as such, before the keys that kind would need (route).
    let text = GOOD.replace("count = 2\nroute = [\"left\", \"right\"]", "kind = \"mptpc\"");
    let e = err(&text, &[]);
    assert_at(&e, &text, "mptpc", "flows.bulk.kind", "unknown value \"mptpc\" (did you mean 'mptcp'?); expected one of: tcp, udp, mptcp");

    let text = GOOD.replace("count = 2", "count = 0");
    let e = err(&text, &[]);
    assert_at(&e, &text, "count = 0", "flows.bulk.count", "expected an integer from 1");

    let e = err(&GOOD.replace("[simulation]\nduration = \"10s\"", "[simulation]"), &[]);
    assert_eq!(e.field, "simulation.duration");
    assert!(e.message.starts_with("missing; expected a time"), "{e}");
}

#[test]
fn overrides_are_checked_like_the_file() {
    let loaded = load_str("good.toml", GOOD, &["links.bottleneck.rate=50Mbps".into(), "simulation.duration=60s".into()]).unwrap();
    assert_eq!(loaded.scenario.links[0].forward.rate_bps, 50_000_000);
    assert_eq!(loaded.scenario.simulation.duration, 60_000_000_000_000);

    let e = err(GOOD, &["links.bottleneck.rate=50"]);
    assert_eq!(e.location, "--set links.bottleneck.rate=50");
    assert_eq!(e.field, "links.bottleneck.rate");
    assert!(e.message.contains("expected a rate with a unit"), "{e}");

    let e = err(GOOD, &["links.bottleneck.rat=50Mbps"]);
    assert_eq!(e.location, "--set links.bottleneck.rat=50Mbps");
    assert!(e.message.contains("did you mean 'rate'?"), "{e}");

    // A misspelt link name is refused with the closest name, not added as a new link.
    let e = err(GOOD, &["links.botleneck.rate=5Mbps"]);
    assert_eq!(e.location, "--set links.botleneck.rate=5Mbps");
    assert_eq!(e.field, "links.botleneck");
    assert!(e.message.contains("no link 'botleneck'") && e.message.contains("did you mean 'bottleneck'?"), "{e}");

    let e = err(GOOD, &["flows.bulk.route=[\"left\", \"nowhere\"]"]);
    assert_eq!(e.field, "flows.bulk.route");
    assert!(e.message.contains("\"nowhere\""), "{e}");
}

#[test]
fn toml_syntax_errors_have_a_line() {
    let text = GOOD.replace("delay = \"10ms\"", "delay = \"10ms");
    let e = err(&text, &[]);
    assert!(e.location.starts_with(&format!("bad.toml:{}:", line_of(&text, "delay"))), "{e}");
}

/// An integer beyond i64 is shown as the integer it is, with the limit, not as "inf".
#[test]
fn an_integer_beyond_the_largest_says_so() {
    let e = err(GOOD, &["simulation.seed=9223372036854775808"]);
    assert!(e.to_string().contains("simulation.seed") && e.message.contains("9223372036854775808, beyond the largest integer a scenario holds (9223372036854775807)"), "{e}");
}
