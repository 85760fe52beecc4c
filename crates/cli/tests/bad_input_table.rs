//! Every kind of bad input a user may hand the binary (scenario files, `--set`, `--seed`,
//! detect's trace CSV, captures, output folders), run through the real `pathpool`: each ends with the exit
//! code and message recorded in docs/robustness.md ("Bad input through the binary"). The
//! test fails when that table is stale; `PATHPOOL_WRITE_DOCS=1 cargo test -p pathpool --test
//! bad_input_table` rewrites it. Numeric extremes are the table above it (crates/scenario's
//! limits test); this one covers what reaches the binary otherwise.

mod support;
use std::path::Path;
use std::process::Command;
use support::Scratch;

const GOOD: &str = include_str!("../../scenario/tests/fixtures/dumbbell.toml");

const TRACE_HEADER: &str = "flow,send_time_us,recv_time_us,lost\n";

/// One input: what is tried, the files written first (name, bytes), the arguments (run in
/// the folder holding the files), the exit code and parts the message must contain.
struct Case {
    what: &'static str,
    files: Vec<(&'static str, Vec<u8>)>,
    args: Vec<&'static str>,
    code: i32,
    says: Vec<&'static str>,
}

fn case(what: &'static str, files: Vec<(&'static str, Vec<u8>)>, args: &[&'static str], code: i32, says: &[&'static str]) -> Case {
    Case { what, files, args: args.to_vec(), code, says: says.to_vec() }
}

fn scenario(from: &str, to: &str) -> Vec<(&'static str, Vec<u8>)> {
    assert!(GOOD.contains(from), "{from}");
    vec![("s.toml", GOOD.replace(from, to).into_bytes())]
}

/// A two-flow one-way-delay trace long enough for the detectors, its rows in reverse order.
fn reversed_trace() -> Vec<u8> {
    let mut rows: Vec<String> = (0..20_000).flat_map(|i| ["a", "b"].map(|f| format!("{f},{},{},0", i * 1000, i * 1000 + 10_000 + (i % 7) * 100))).collect();
    rows.reverse();
    format!("{TRACE_HEADER}{}\n", rows.join("\n")).into_bytes()
}

/// A pcap header (microsecond, Ethernet) and the first record cut `missing` bytes short.
fn truncated_pcap(keep_header: usize, missing: u32) -> Vec<u8> {
    let mut b = Vec::new();
    for w in [0xa1b2_c3d4u32] {
        b.extend_from_slice(&w.to_le_bytes());
    }
    b.extend_from_slice(&2u16.to_le_bytes());
    b.extend_from_slice(&4u16.to_le_bytes());
    for w in [0u32, 0, 65535, 1] {
        b.extend_from_slice(&w.to_le_bytes());
    }
    b.truncate(keep_header);
    if keep_header == 24 {
        for w in [1u32, 0, 60, 60] {
            b.extend_from_slice(&w.to_le_bytes());
        }
        b.extend(std::iter::repeat_n(0u8, 60 - missing as usize));
    }
    b
}

/// Bytes that are no text: every byte value, twice.
fn garbage() -> Vec<u8> {
    (0..512u32).map(|i| (i * 151 % 256) as u8).collect()
}

fn cases() -> Vec<Case> {
    let run = ["run", "s.toml", "--out", "out"];
    vec![
        // Scenario files.
        case("missing scenario file", vec![], &run, 2, &["s.toml", "cannot read"]),
        case("scenario path is a folder", vec![("s.toml/", vec![])], &run, 2, &["s.toml"]),
        case("empty scenario file", vec![("s.toml", vec![])], &run, 2, &["s.toml:1:1", "simulation"]),
        case("binary garbage as scenario", vec![("s.toml", garbage())], &run, 2, &["s.toml", "UTF-8"]),
        case("TOML syntax error (unclosed string)", scenario("delay = \"10ms\"", "delay = \"10ms"), &run, 2, &["s.toml:9:"]),
        case("duplicate key", scenario("buffer = 100", "buffer = 100\nbuffer = 200"), &run, 2, &["s.toml:11:", "duplicate key"]),
        case("wrong type (rate = true)", scenario("rate = \"100Mbps\"", "rate = true"), &run, 2, &["links.bottleneck.rate", "got a boolean"]),
        case("number without unit", scenario("rate = \"100Mbps\"", "rate = 100"), &run, 2, &["links.bottleneck.rate", "with a unit"]),
        case("negative rate", scenario("rate = \"100Mbps\"", "rate = \"-5Mbps\""), &run, 2, &["links.bottleneck.rate", "must not be negative"]),
        case("zero rate", scenario("rate = \"100Mbps\"", "rate = \"0bps\""), &run, 2, &["links.bottleneck.rate", "greater than zero"]),
        case("0-delay link", scenario("delay = \"10ms\"", "delay = \"0ms\""), &run, 2, &["links.bottleneck.delay", "greater than zero"]),
        case("huge float buffer", scenario("buffer = 100", "buffer = 1e300"), &run, 2, &["links.bottleneck.buffer", "got the number 1e300"]),
        case("huge integer buffer", scenario("buffer = 100", "buffer = 99999999999999999999"), &run, 2, &["s.toml:10:", "beyond the largest integer"]),
        case("missing duration", scenario("duration = \"10s\"", ""), &run, 2, &["simulation.duration", "missing"]),
        case("route with a cycle", scenario("route = [\"left\", \"right\"]", "route = [\"left\", \"right\", \"left\", \"right\"]"), &run, 2, &["flows.bulk.route", "comes twice"]),
        case("route through a missing node", scenario("route = [\"left\", \"right\"]", "route = [\"left\", \"rigth\"]"), &run, 2, &["flows.bulk.route", "did you mean 'right'?"]),
        case("flow without a route", scenario("route = [\"left\", \"right\"]", ""), &run, 2, &["flows.bulk.route", "missing"]),
        case("unknown cc", scenario("name = \"bulk\"", "name = \"bulk\"\ncc = \"cubci\""), &run, 2, &["flows.bulk.cc", "did you mean 'cubic'?"]),
        case("unknown flow kind", scenario("name = \"bulk\"", "name = \"bulk\"\nkind = \"mptpc\""), &run, 2, &["flows.bulk.kind", "unknown value \"mptpc\""]),
        case("unknown key", scenario("delay = \"10ms\"", "dealy = \"10ms\""), &run, 2, &["links.bottleneck.dealy", "did you mean 'delay'?"]),
        case("unknown key in [fidelity]", vec![("s.toml", format!("{GOOD}\n[fidelity]\nmeasures = \"Jain's index\"\norder = 1\nkey = \"jain_index\"\ntolerance = 0.10\nquick = \"15s\"\n").into_bytes())], &run, 2, &["fidelity.quick", "unknown key"]),
        case("two quantities in [fidelity]", vec![("s.toml", format!("{GOOD}\n[fidelity]\nmeasures = \"Jain's index\"\norder = 1\nkey = \"jain_index\"\nratio = [\"a\", \"b\"]\ntolerance = 0.10\n").into_bytes())], &["compare", "s.toml", "--backends", "sim", "--out", "out"], 2, &["fidelity.ratio", "exactly one of key"]),
        case("compare --repeats for a backend not compared", scenario("", ""), &["compare", "s.toml", "--backends", "sim", "--repeats", "linux=2", "--out", "out"], 2, &["--repeats", "\"linux\" is not among --backends sim"]),
        case("--set on a misspelt link", scenario("", ""), &["run", "s.toml", "--out", "out", "--set", "links.botleneck.rate=5Mbps"], 2, &["no link 'botleneck'", "did you mean 'bottleneck'?"]),
        case("--set without =", scenario("", ""), &["run", "s.toml", "--out", "out", "--set", "links.bottleneck.rate"], 2, &["--set"]),
        case("--seed -1", scenario("", ""), &["run", "s.toml", "--out", "out", "--seed", "-1"], 2, &["--seed", "expected a whole number"]),
        case("--out is a file", vec![("s.toml", GOOD.as_bytes().to_vec()), ("out", vec![])], &run, 2, &["--out"]),
        // Output folders (docs/robustness.md, "Output folders").
        case("--out holds files pathpool did not write", vec![("s.toml", GOOD.as_bytes().to_vec()), ("out/notes.txt", b"mine".to_vec())], &run, 2, &["--out", "did not write (notes.txt)"]),
        case("--pcap holds files pathpool did not write", vec![("s.toml", GOOD.as_bytes().to_vec()), ("cap/a.pcap", vec![])], &["run", "s.toml", "--out", "out", "--pcap", "cap"], 2, &["--pcap", "did not write (a.pcap)"]),
        case("--out holds the trace read", vec![("out/t.csv", reversed_trace())], &["detect", "--input", "out/t.csv", "--out", "out"], 2, &["--out", "holds the input 'out/t.csv'"]),
        // detect's trace CSV.
        case("missing trace", vec![], &["detect", "--input", "t.csv", "--out", "out"], 2, &["t.csv", "cannot read"]),
        case("empty trace", vec![("t.csv", vec![])], &["detect", "--input", "t.csv", "--out", "out"], 2, &["t.csv", "expected the header"]),
        case("binary garbage as trace", vec![("t.csv", garbage())], &["detect", "--input", "t.csv", "--out", "out"], 2, &["t.csv"]),
        case("header only", vec![("t.csv", TRACE_HEADER.into())], &["detect", "--input", "t.csv", "--out", "out"], 2, &["t.csv", "no data rows"]),
        case("NaN in a trace", vec![("t.csv", format!("{TRACE_HEADER}a,0,1000,0\na,NaN,2000,0\n").into())], &["detect", "--input", "t.csv", "--out", "out"], 2, &["t.csv", "line 3", "send_time_us"]),
        case("time beyond 64 bits in a trace", vec![("t.csv", format!("{TRACE_HEADER}a,99999999999999999999,1000,0\n").into())], &["detect", "--input", "t.csv", "--out", "out"], 2, &["t.csv", "line 2"]),
        case("wrong column count", vec![("t.csv", format!("{TRACE_HEADER}a,0\n").into())], &["detect", "--input", "t.csv", "--out", "out"], 2, &["t.csv", "line 2"]),
        case("trace too short for a decision", vec![("t.csv", format!("{TRACE_HEADER}a,0,1000,0\nb,0,1000,0\n").into())], &["detect", "--input", "t.csv", "--out", "out"], 2, &["t.csv", "warm-up"]),
        case("unsorted timestamps (rows reversed)", vec![("t.csv", reversed_trace())], &["detect", "--input", "t.csv", "--out", "out"], 0, &["2 flows"]),
        // Captures.
        case("a device as trace", vec![], &["detect", "--input", "/dev/zero", "--out", "out"], 2, &["--input '/dev/zero'", "a device or socket"]),
        case("a folder as trace", vec![("d/x", vec![])], &["detect", "--input", "d", "--out", "out"], 2, &["--input 'd'", "a folder"]),
        case("tracegen --duration without a unit", vec![], &["tracegen", "--duration", "120", "--out", "out"], 2, &["--duration", "expected a time with a unit"]),
        case("quic run --rate without a unit", vec![], &["quic", "run", "--topology", "alone", "--rate", "10", "--out", "out"], 2, &["--rate", "expected a rate with a unit"]),
        case("missing capture", vec![], &["detect", "--pcap", "c.pcap", "--out", "out"], 2, &["c.pcap", "cannot open"]),
        case("a device as capture", vec![], &["detect", "--pcap", "/dev/zero", "--out", "out"], 2, &["--pcap '/dev/zero'", "magic number", "read from a pipe or device"]),
        case("empty capture", vec![("c.pcap", vec![])], &["detect", "--pcap", "c.pcap", "--out", "out"], 2, &["c.pcap", "empty"]),
        case("text as capture", vec![("c.pcap", b"hello, not a capture\n".to_vec())], &["detect", "--pcap", "c.pcap", "--out", "out"], 2, &["c.pcap", "magic number"]),
        case("capture truncated in its header", vec![("c.pcap", truncated_pcap(10, 0))], &["detect", "--pcap", "c.pcap", "--out", "out"], 2, &["c.pcap", "ends inside the 24-byte pcap header"]),
        case("capture truncated in a record", vec![("c.pcap", truncated_pcap(24, 50))], &["detect", "--pcap", "c.pcap", "--out", "out"], 2, &["c.pcap", "cut short"]),
    ]
}

/// Runs a case in a fresh folder; returns (exit code, message: stderr, or the first line
/// of stdout when it exits 0).
fn outcome(c: &Case, dir: &Path) -> (i32, String) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    for (name, bytes) in &c.files {
        // A name ending in '/' is a folder.
        let p = dir.join(name);
        if name.ends_with('/') {
            std::fs::create_dir_all(&p).unwrap();
        } else {
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, bytes).unwrap();
        }
    }
    let o = Command::new(env!("CARGO_BIN_EXE_pathpool")).current_dir(dir).args(&c.args).output().expect("the binary runs");
    let code = o.status.code().unwrap_or(-1);
    let text = if code == 0 { String::from_utf8_lossy(&o.stdout).lines().next().unwrap_or("").to_string() } else { String::from_utf8_lossy(&o.stderr).trim_end().to_string() };
    // clap adds a blank line and "For more information, try '--help'."
    let text = text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with("For more information")).collect::<Vec<_>>().join(" / ");
    (code, text)
}

fn table(rows: &[(&Case, i32, String)]) -> String {
    let mut t = String::from("| input tried | command | exit code | message (stderr; stdout's first line on exit 0) |\n|---|---|---|---|\n");
    for (c, code, msg) in rows {
        let esc = |s: &str| s.replace('|', "\\|").replace('`', "'");
        t.push_str(&format!("| {} | `pathpool {}` | {code} | {} |\n", c.what, esc(&c.args.join(" ")), esc(msg)));
    }
    t
}

const BEGIN: &str = "<!-- table: cargo test -p pathpool --test bad_input_table -->\n";
const END: &str = "<!-- end bad input table -->";

#[test]
fn every_bad_input_exits_as_the_table_says() {
    let scratch = Scratch::new("bad-input-table");
    let cases = cases();
    let (mut rows, mut wrong) = (Vec::new(), Vec::new());
    for (i, c) in cases.iter().enumerate() {
        let (code, msg) = outcome(c, &scratch.join(&i.to_string()));
        if code != c.code {
            wrong.push(format!("{}: exit code {code}, expected {}; message: {msg}", c.what, c.code));
        }
        for part in c.says.iter().filter(|p| !msg.contains(*p)) {
            wrong.push(format!("{}: expected '{part}' in: {msg}", c.what));
        }
        // One line, from pathpool (or clap's `error:` for a flag).
        if code != 0 && !(msg.starts_with("pathpool: ") || msg.starts_with("error: ")) {
            wrong.push(format!("{}: not a pathpool error: {msg}", c.what));
        }
        rows.push((c, code, msg));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    support::doc_section("docs/robustness.md", BEGIN, END, &table(&rows), "PATHPOOL_WRITE_DOCS=1 cargo test -p pathpool --test bad_input_table");
}
