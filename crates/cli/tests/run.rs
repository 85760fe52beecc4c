//! `pathpool run` end to end: bad input exits 2 with file, line and field and leaves no
//! output folder; a good run writes every output file.

use std::path::PathBuf;
use std::process::Command;

fn temp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pathpool-cli-run-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn scenario(tag: &str, text: &str) -> PathBuf {
    let dir = temp(tag);
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("s.toml");
    std::fs::write(&f, text).unwrap();
    f
}

const SHORT: &str = "[simulation]\nhosts = \"ideal\"\nduration = \"2s\"\n\n[links.bn]\nfrom = \"a\"\nto = \"b\"\nrate = \"10Mbps\"\ndelay = \"5ms\"\nbuffer = 20\n\n[[flows]]\nname = \"f\"\ncount = 2\nroute = [\"a\", \"b\"]\n";

#[test]
fn bad_input_exits_2_naming_file_line_and_field_without_output() {
    let file = scenario("bad", &SHORT.replace("rate = \"10Mbps\"", "rate = \"10Mbps\"\nrat = 3"));
    let out = temp("bad-out");
    let r = Command::new(env!("CARGO_BIN_EXE_pathpool")).arg("run").arg(&file).arg("--out").arg(&out).output().unwrap();
    assert_eq!(r.status.code(), Some(2));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains(&format!("{}:9:1: links.bn.rat: unknown key (did you mean 'rate'?)", file.display())), "{err}");
    assert!(!out.exists(), "no output folder for a scenario that did not run");

    let good = scenario("bad-set", SHORT);
    let r = Command::new(env!("CARGO_BIN_EXE_pathpool")).arg("run").arg(&good).arg("--out").arg(&out).args(["--set", "links.bn.delay=-3ms"]).output().unwrap();
    assert_eq!(r.status.code(), Some(2));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("--set links.bn.delay=-3ms: links.bn.delay: must not be negative"), "{err}");
    assert!(!out.exists());
    for f in [file, good] {
        std::fs::remove_dir_all(f.parent().unwrap()).unwrap();
    }
}

#[test]
fn a_run_writes_every_output_and_stays_quiet_off_a_terminal() {
    let file = scenario("good", SHORT);
    let out = temp("good-out");
    let r = Command::new(env!("CARGO_BIN_EXE_pathpool")).arg("run").arg(&file).arg("--out").arg(&out).args(["--seed", "7"]).output().unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    // stderr is not a terminal here, so no progress bar; only the warning that seed 7 of a
    // drop-tail TCP scenario is no different from any other seed.
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("warning: the seed changes nothing here"), "{err}");
    for f in ["summary.json", "flows.csv", "links.csv", "throughput.png", "queue.png"] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    let stdout = String::from_utf8_lossy(&r.stdout);
    assert!(stdout.contains("hosts = \"ideal\"") && stdout.contains("note: hosts = \"ideal\" is not validated"), "idealised hosts are said to be unvalidated: {stdout}");
    let summary: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["seed"], 7);
    assert_eq!(summary["jain_flows"], 2, "the index says how many flows it covers");
    // With a random element (random tail drop) the seed matters and nothing is said; one flow has no index.
    let out1 = temp("good-out-red");
    let r = Command::new(env!("CARGO_BIN_EXE_pathpool")).arg("run").arg(&file).arg("--out").arg(&out1).args(["--seed", "7", "--set", "links.bn.queue=random-tail-drop", "--set", "flows.f.count="]).output().unwrap();
    assert!(r.status.success() && r.stderr.is_empty(), "{}", String::from_utf8_lossy(&r.stderr));
    let one: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out1.join("summary.json")).unwrap()).unwrap();
    assert_eq!(one["jain_flows"], 1);
    assert!(one.get("jain_index").is_none(), "Jain's index over one flow is 1 by definition: {one}");
    std::fs::remove_dir_all(&out1).unwrap();
    assert_eq!(summary["bottleneck"], "bn", "a single link is the bottleneck");
    std::fs::remove_dir_all(&out).unwrap();
    std::fs::remove_dir_all(file.parent().unwrap()).unwrap();
}

/// Two Reno flows through one 10 Mb/s drop-tail queue, both logging their delays, and a third
/// flow through a queue of its own.
const LOGGED: &str = r#"
[simulation]
hosts = "ideal"
duration = "60s"

[links.shared]
from = "a"
to = "b"
rate = "10Mbps"
delay = "10ms"
buffer = 40

[links.alone]
from = "c"
to = "d"
rate = "8Mbps"
delay = "15ms"
buffer = 30

[[flows]]
name = "together"
count = 2
route = ["a", "b"]
start_spacing = "300ms"
log_delays = true

[[flows]]
name = "apart"
route = ["c", "d"]
log_delays = true
"#;

#[test]
fn delay_logs_of_a_run_feed_the_detectors() {
    let file = scenario("logged", LOGGED);
    let out = temp("logged-out");
    let r = Command::new(env!("CARGO_BIN_EXE_pathpool")).arg("run").arg(&file).arg("--out").arg(&out).output().unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    for (input, detector) in [("owd.csv", "mptcp-sbd"), ("rtt.csv", "tr")] {
        let det = out.join(format!("detect-{detector}"));
        let r = Command::new(env!("CARGO_BIN_EXE_pathpool"))
            .args(["detect", "--input"])
            .arg(out.join(input))
            .args(["--detector", detector, "--out"])
            .arg(&det)
            .output()
            .unwrap();
        assert!(r.status.success(), "{detector}: {}", String::from_utf8_lossy(&r.stderr));
        // Decisions after a 20 s warm-up: the two flows of the shared queue together, the
        // third apart from them.
        let text = std::fs::read_to_string(det.join("decisions.csv")).unwrap();
        let mut by_time: std::collections::BTreeMap<String, Vec<(String, String)>> = Default::default();
        for line in text.lines().skip(1) {
            let f: Vec<&str> = line.split(',').collect();
            by_time.entry(f[0].to_string()).or_default().push((f[1].to_string(), f[2].to_string()));
        }
        let judged: Vec<_> = by_time.iter().filter(|(t, _)| t.parse::<f64>().unwrap() >= 20.0).collect();
        let group = |g: &[(String, String)], flow: &str| g.iter().find(|(f, _)| f == flow).map(|(_, g)| g.clone()).unwrap();
        let together = judged.iter().filter(|(_, g)| group(g, "together.0") != "0" && group(g, "together.0") == group(g, "together.1")).count();
        let merged = judged.iter().filter(|(_, g)| group(g, "apart") != "0" && [group(g, "together.0"), group(g, "together.1")].contains(&group(g, "apart"))).count();
        eprintln!("{detector}: of {} decisions, {together} group the shared flows, {merged} merge the other with them", judged.len());
        // RFC 8382 with MPTCP-SBD's filter is the steadier detector; trend lines compare one
        // rising run per 5 s window and miss some (measured: 11 of 12 and 5 of 8).
        let need = if detector == "tr" { 0.5 } else { 0.8 };
        assert!(!judged.is_empty() && together as f64 >= need * judged.len() as f64, "{detector}: {together} of {}", judged.len());
        assert_eq!(merged, 0, "{detector}: separate queues merged");
    }
    std::fs::remove_dir_all(&out).unwrap();
    std::fs::remove_dir_all(file.parent().unwrap()).unwrap();
}

#[test]
fn misleading_input_gets_the_message_it_deserves() {
    let file = scenario("misleading", SHORT);
    let out = temp("misleading-out");
    let run = |extra: &[&str]| Command::new(env!("CARGO_BIN_EXE_pathpool")).arg("run").arg(&file).arg("--out").arg(&out).args(extra).output().unwrap();
    // A negative seed: a plain message naming the flag and what it takes, not clap's "-- -1" tip.
    let r = run(&["--seed", "-1"]);
    assert_eq!(r.status.code(), Some(2));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("--seed") && err.contains("expected a whole number from 0 to 9223372036854775807") && err.contains("got '-1'"), "{err}");
    assert!(!err.contains("-- -1"), "{err}");
    // A typo in a link name: refused with the link it most likely meant, no talk of `from`.
    let r = run(&["--set", "links.b.rate=5Mbps"]);
    assert_eq!(r.status.code(), Some(2));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("--set links.b.rate=5Mbps: links.b: no link 'b' in the scenario (did you mean 'bn'?)"), "{err}");
    assert!(!out.exists());
    std::fs::remove_dir_all(file.parent().unwrap()).unwrap();
}

#[test]
fn run_help_names_every_multipath_scheme() {
    let r = Command::new(env!("CARGO_BIN_EXE_pathpool")).args(["run", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&r.stdout);
    let words: Vec<&str> = help.split(|c: char| c.is_whitespace() || matches!(c, ',' | '.' | ':')).collect();
    for scheme in pathpool_cc::Scheme::names() {
        assert!(words.contains(&scheme), "`run --help` does not name \"{scheme}\":\n{help}");
    }
}

/// Every argument and option of the commands users reach first says what it is.
#[test]
fn help_leaves_no_option_unexplained() {
    for args in [&["testbed", "check", "--help"][..], &["tracegen", "--help"], &["reproduce", "--help"]] {
        let r = Command::new(env!("CARGO_BIN_EXE_pathpool")).args(args).output().unwrap();
        let help = String::from_utf8_lossy(&r.stdout);
        // clap prints an item without help as its name alone: "  <FILE>" or "      --out <OUT>",
        // followed by a blank line in the long form.
        let lines: Vec<&str> = help.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            let t = l.trim_end();
            let item = t.trim_start();
            let flag = |s: &str| s.starts_with("--") || s.starts_with('<') || (s.starts_with('-') && s.chars().nth(1).is_some_and(|c| c.is_ascii_alphabetic()));
            let bare = flag(item) && !item.contains("  ") && !item.contains("--help");
            let next = lines.get(i + 1).map_or("", |n| n.trim());
            assert!(!(bare && (next.is_empty() || flag(next) || next.starts_with('['))), "{args:?}: '{item}' has no help:\n{help}");
        }
        if args[0] == "reproduce" {
            for paper in ["ferlin2016", "raiciu2009", "zhang2019", "jowkar2022", "zongor2019"] {
                assert!(help.contains(paper), "reproduce --help does not name {paper}");
            }
        }
    }
}

/// `pathpool run FILE --out TEMP ARGS --set SETS...`, which must succeed: (stdout, summary.json).
fn run_set(tag: &str, file: &str, args: &[&str], sets: &[&str]) -> (String, String) {
    let out = temp(tag);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pathpool"));
    cmd.arg("run").arg(file).arg("--out").arg(&out).args(args);
    for s in sets {
        cmd.args(["--set", s]);
    }
    let r = cmd.output().unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let summary = std::fs::read_to_string(out.join("summary.json")).unwrap();
    let _ = std::fs::remove_dir_all(&out);
    (String::from_utf8_lossy(&r.stdout).into_owned(), summary)
}

/// An MPTCP run with nothing to compare it with says why it has no sum_ratio, rather than
/// printing `tcp_mbps = 0.0` and leaving the ratio out silently.
#[test]
fn a_missing_sum_ratio_is_explained() {
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/examples/mptcp-shared-bottleneck.toml");
    let run = |tag: &str, sets: &[&str]| run_set(tag, example, &["--set", "simulation.duration=5s", "--set", "simulation.warmup=1s"], sets).0;
    let with = run("ratio", &[]);
    assert!(with.contains("sum_ratio = ") && !with.contains("no sum_ratio"), "{with}");
    let without = run("no-ratio", &["flows.tcp.competitor=false"]);
    assert!(!without.contains("sum_ratio = "), "{without}");
    assert!(without.contains("note: no sum_ratio and tcp_mbps = 0: no flow is marked `competitor = true`"), "{without}");
}

/// A clock offset near the ends of i64 would wrap the receive times around (release build):
/// refused with the bounds, and nothing written.
#[test]
fn tracegen_refuses_a_clock_offset_that_would_wrap() {
    let out = temp("tracegen-offset");
    for offset in [i64::MIN, i64::MAX] {
        let r = Command::new(env!("CARGO_BIN_EXE_pathpool"))
            .args(["tracegen", "--duration", "1s", "--clock-offset-us", &offset.to_string(), "--out"])
            .arg(&out)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "{err}");
        assert!(err.contains("--clock-offset-us: expected"), "{err}");
        assert!(!out.exists(), "nothing written");
    }
}

/// A detector memory far beyond any detector's (10^8 intervals) is refused with its bounds
/// before anything is allocated, instead of aborting on the allocation.
#[test]
fn detect_refuses_an_unbounded_detector_window() {
    let trace = temp("detect-n-trace");
    let made = Command::new(env!("CARGO_BIN_EXE_pathpool")).args(["tracegen", "--duration", "5s", "--flows", "2", "--out"]).arg(&trace).output().unwrap();
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let out = temp("detect-n-out");
    for param in ["n=100000000", "t_ms=1000000000"] {
        let r = Command::new(env!("CARGO_BIN_EXE_pathpool"))
            .args(["detect", "--input"])
            .arg(trace.join("owd.csv"))
            .args(["--param", param, "--out"])
            .arg(&out)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "--param {param}: {err}");
        assert!(err.contains("--param") && err.contains("at most") || err.contains("must be in 2..="), "--param {param}: {err}");
        assert!(!out.exists(), "nothing written");
    }
    let _ = std::fs::remove_dir_all(&trace);
}

/// A scenario "file" that is a device (or an endless stream) is refused by name at once,
/// not read until memory runs out.
#[test]
fn a_device_as_scenario_file_is_refused() {
    let out = temp("device");
    let r = Command::new(env!("CARGO_BIN_EXE_pathpool")).args(["run", "/dev/zero", "--out"]).arg(&out).output().unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(2), "{err}");
    assert!(err.contains("/dev/zero") && err.contains("device"), "{err}");
    assert!(!out.exists());
}

/// `quic run` prints its headline figures as `run` does, not only a path.
#[test]
fn quic_run_prints_its_summary() {
    let out = temp("quic-summary");
    let r = Command::new(env!("CARGO_BIN_EXE_pathpool"))
        .args(["quic", "run", "--topology", "shared", "--duration", "2s", "--warmup", "1s", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&r.stdout);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    for key in ["backend = \"mpquic-loopback\"", "total_throughput_mbps = ", "bottleneck_utilization = ", "sum_ratio = ", "wrote "] {
        assert!(stdout.contains(key), "{key} missing: {stdout}");
    }
    // The multipath connection is counted once in the total, as pathpool run counts an MPTCP
    // connection (its paths, or itself where they are not measured, never both).
    let s: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    let (total, mp, tcp) = (s["total_throughput_mbps"].as_f64().unwrap(), s["mptcp_mbps"].as_f64().unwrap(), s["tcp_mbps"].as_f64().unwrap());
    assert!(mp > 0.0 && tcp > 0.0 && total <= 1.1 * (mp + tcp), "total {total} Mb/s against connection {mp} + single-path {tcp}");
    assert!((s["sum_ratio"].as_f64().unwrap() - mp / tcp).abs() < 1e-9);
    let _ = std::fs::remove_dir_all(&out);
}

/// A report read by something that stops reading (`| head -1`) ends the command quietly, not
/// with a panic: here `kernel receiver status`, which needs no root.
#[test]
fn a_closed_stdout_ends_kernel_commands_quietly() {
    let line = format!("set -o pipefail; '{}' kernel receiver status | true; echo status=${{PIPESTATUS[0]}}", env!("CARGO_BIN_EXE_pathpool"));
    let r = Command::new("bash").args(["-c", &line]).output().unwrap();
    let (out, err) = (String::from_utf8_lossy(&r.stdout), String::from_utf8_lossy(&r.stderr));
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.contains("status=0") || err.contains("cannot run `ip`"), "{out}{err}");
}

/// Every run prints and records what ran: the scheme, the detector preset, the host model. A
/// detector that cannot see its bottleneck (RED drops before a queue builds) is named as such
/// instead of leaving decision_accuracy = 0.0 to be read as the detector's failure.
#[test]
fn a_run_names_its_scheme_and_a_blind_detector() {
    let sb2 = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/papers/ferlin2016/sb-2.toml");
    let run = |tag: &str, sets: &[&str]| run_set(tag, sb2, &["--cc", "mptcp-sbd", "--set", "simulation.duration=40s"], sets);
    let (seen, summary) = run("drop-tail", &[]);
    for line in ["hosts = \"ideal\"", "scheme = \"mptcp-sbd\"", "sbd_detector = \"pathpool\""] {
        assert!(seen.contains(line), "{line} missing from:\n{seen}");
    }
    assert!(summary.contains("\"scheme\": \"mptcp-sbd\""), "{summary}");
    assert!(!seen.contains("found no bottleneck") && !summary.contains("detector_warnings"), "{seen}");
    let red = ["links.bn0.queue=red", "links.bn0.red_min=5", "links.bn0.red_max=15", "links.bn0.red_max_p=0.1", "links.bn0.red_weight=0.002"];
    let (blind, summary) = run("red", &red);
    assert!(blind.contains("warning: connection mptcp: the shared-bottleneck detector found no bottleneck in 100 %"), "{blind}");
    assert!(summary.contains("\"detector_warnings\""), "{summary}");
}

/// `quic run` and `tracegen` take quantities as scenario files do: with units, a bare number refused with
/// the scenario files' message (it once took `--rate 10 --delay-ms 10 --duration 40`).
#[test]
fn quic_quantities_take_units_as_scenario_files_do() {
    let refused = |args: &[&str], expected: &str| {
        let r = Command::new(env!("CARGO_BIN_EXE_pathpool")).args(["quic", "run", "--topology", "alone", "--out"]).arg(temp("quic-units")).args(args).output().unwrap();
        assert_eq!(r.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(err.contains(expected), "{args:?}: {err}");
    };
    refused(&["--duration", "40"], "--duration: expected a time with a unit, like \"20ms\"");
    refused(&["--rate", "10"], "--rate: expected a rate with a unit, like \"100Mbps\"");
    refused(&["--delay", "10"], "--delay: expected a time with a unit");
    refused(&["--warmup", "50s"], "--warmup: expected a time shorter than --duration");
    let r = Command::new(env!("CARGO_BIN_EXE_pathpool")).args(["tracegen", "--duration", "120", "--out"]).arg(temp("tracegen-units")).output().unwrap();
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("--duration: expected a time with a unit"), "{}", String::from_utf8_lossy(&r.stderr));
}
