//! `pathpool detect` on hostile trace files: arbitrary bytes, and structure-aware CSV with
//! extreme, unsorted, duplicated and malformed values. Every input ends in a result or a
//! clear error (exit 0, 1 or 2 with a message naming the file), never a panic (exit 101),
//! a signal or a hang. `make fuzz` runs it with many more cases (PATHPOOL_FUZZ_CASES).

mod support;
use proptest::prelude::*;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::Scratch;

fn cases(default: u32) -> u32 {
    std::env::var("PATHPOOL_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// A run of every detector on `content`; returns (detector, exit code, stderr) of each.
fn detect_all(scratch: &Scratch, content: &[u8]) -> Vec<(&'static str, i32, String)> {
    let input = scratch.join("trace.csv");
    std::fs::create_dir_all(&scratch.0).unwrap();
    std::fs::write(&input, content).unwrap();
    ["rfc8382", "mptcp-sbd", "pathpool", "tr"]
        .into_iter()
        .map(|detector| {
            let out = scratch.join(&format!("out-{detector}"));
            let _ = std::fs::remove_dir_all(&out);
            let mut child = Command::new(env!("CARGO_BIN_EXE_pathpool"))
                .args(["detect", "--input", input.to_str().unwrap(), "--detector", detector, "--out", out.to_str().unwrap()])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("the binary runs");
            let start = Instant::now();
            let status = loop {
                if let Some(s) = child.try_wait().unwrap() {
                    break s;
                }
                if start.elapsed() > Duration::from_secs(60) {
                    let _ = child.kill();
                    panic!("detect --detector {detector} hangs on {:?}", String::from_utf8_lossy(content));
                }
                std::thread::sleep(Duration::from_millis(2));
            };
            let mut stderr = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
            (detector, status.code().unwrap_or(-1), stderr)
        })
        .collect()
}

fn assert_handled(scratch: &Scratch, content: &[u8]) {
    for (detector, code, stderr) in detect_all(scratch, content) {
        let shown = String::from_utf8_lossy(&content[..content.len().min(300)]).into_owned();
        assert!(matches!(code, 0..=2), "detect --detector {detector}: exit {code} on {shown:?}: {stderr}");
        if code != 0 {
            assert!(stderr.contains("trace.csv") || stderr.contains("--param"), "detect --detector {detector}: the error names no file: {stderr}");
        }
    }
}

/// Times that break naive arithmetic: zero, signs, the edges of i64/u32, and near values.
fn time() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (0i64..2_000_000_000).prop_map(|t| t.to_string()),
        1 => prop::sample::select(vec![
            "0", "-1", "1", "4294967295", "4294967296", "9223372036854775807", "-9223372036854775808",
            "9223372036854775808", "1e6", "NaN", "inf", "", " ", "12.5", "0x10", "١٢",
        ])
        .prop_map(str::to_string),
    ]
}

fn row(owd: bool) -> impl Strategy<Value = String> {
    let flow = prop::sample::select(vec!["a", "b", "c", "sf0", "", "\"x,y\"", "é"]);
    let lost = prop::sample::select(vec!["0", "1", "", "2", "true", "-1"]);
    (flow, time(), time(), lost).prop_map(move |(f, t1, t2, l)| if owd { format!("{f},{t1},{t2},{l}") } else { format!("{f},{t1},{t2}") })
}

/// A trace of `n` rows of one form, mostly well formed in its times (increasing), with
/// hostile rows mixed in.
fn trace() -> impl Strategy<Value = String> {
    let header = prop::sample::select(vec![
        "flow,send_time_us,recv_time_us,lost",
        "flow,send_time_us,recv_time_us",
        "flow,ack_time_us,rtt_us",
        "flow,send_time_us",
        "",
    ]);
    (header, any::<bool>(), prop::collection::vec(row(true), 0..40), 0usize..3, 1u64..3_000, 1usize..3000).prop_map(
        |(header, owd, hostile, flows, step_us, n)| {
            // A long regular part gets the detectors past their warm-up.
            let mut lines = vec![header.to_string()];
            for k in 0..n as u64 {
                let flow = ["a", "b", "c"][k as usize % (flows + 1)];
                let t = k * step_us * 100;
                lines.push(if owd { format!("{flow},{t},{},0", t + 20_000 + k % 7 * 300) } else { format!("{flow},{t},{}", 40_000 + k % 11 * 500) });
            }
            for (i, h) in hostile.into_iter().enumerate() {
                lines.insert((i * 7919) % lines.len().max(1) + 1.min(lines.len()), h);
            }
            lines.join("\n") + "\n"
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(24), ..ProptestConfig::default() })]

    #[test]
    fn fuzz_detect_survives_arbitrary_bytes(prefix in prop::sample::select(vec!["", "flow,send_time_us,recv_time_us,lost\n", "flow,ack_time_us,rtt_us\n"]), bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        let scratch = Scratch::new("fuzz-bytes");
        let mut content = prefix.as_bytes().to_vec();
        content.extend(bytes);
        assert_handled(&scratch, &content);
    }

    #[test]
    fn fuzz_detect_survives_hostile_traces(text in trace()) {
        let scratch = Scratch::new("fuzz-trace");
        assert_handled(&scratch, text.as_bytes());
    }
}

#[test]
fn fuzz_regressions() {
    // Inputs kept because they once needed a fix or are edge cases worth pinning.
    let scratch = Scratch::new("fuzz-regressions");
    for content in [
        "",
        "flow,send_time_us,recv_time_us,lost\n",
        "flow,send_time_us,recv_time_us,lost\na,9223372036854775807,-9223372036854775808,0\nb,0,0,0\n",
        "flow,ack_time_us,rtt_us\na,0,0\na,0,0\na,-5,18446744073709551615\n",
        "flow,send_time_us,recv_time_us,lost\na,0,,1\na,1,,1\n",
    ] {
        assert_handled(&scratch, content.as_bytes());
    }
}
