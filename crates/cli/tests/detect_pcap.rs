//! `pathpool run --pcap` then `pathpool detect --pcap` end to end: the simulator's capture of
//! a shared bottleneck is read back, the MPTCP subflows are grouped into one connection and
//! found to share it, every output is written; captures that cannot be analysed exit 2 with a
//! message naming the file and what it held.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn temp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pathpool-cli-pcap-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn pathpool(args: &[&str]) -> (Option<i32>, String, String) {
    let r = Command::new(env!("CARGO_BIN_EXE_pathpool")).args(args).output().unwrap();
    (r.status.code(), String::from_utf8_lossy(&r.stdout).into_owned(), String::from_utf8_lossy(&r.stderr).into_owned())
}

#[test]
fn a_simulated_shared_bottleneck_is_found_in_its_capture() {
    let dir = temp("sb");
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let scenario = root.join("scenarios/examples/mptcp-shared-bottleneck.toml");
    let caps = dir.join("pcap");
    let (code, _, err) = pathpool(&["run", scenario.to_str().unwrap(), "--out", dir.join("run").to_str().unwrap(), "--set", "simulation.duration=40s", "--pcap", caps.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    // The receiving host of the MPTCP connection.
    let receiver = std::fs::read_dir(&caps).unwrap().map(|e| e.unwrap().path()).find(|p| p.file_stem().is_some_and(|s| s == "server")).expect("server.pcap");
    let out = dir.join("detect");
    let (code, stdout, err) = pathpool(&["detect", "--pcap", receiver.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(stdout.contains("connection mptcp-") && stdout.contains("(2 subflows)"), "{stdout}");
    for f in ["decisions.csv", "decisions.json", "observations.csv", "summary.json", "summary.txt", "timeline.png"] {
        assert!(out.join(f).exists(), "{f} missing");
    }
    let last = stdout.lines().find(|l| l.starts_with("last decision")).unwrap();
    // The TCP competitor reaches the same host through the same bottleneck: all in one group.
    assert!(last.split('{').any(|g| g.contains(".sf0") && g.contains(".sf1") && g.contains("tcp-")), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn captures_that_cannot_be_analysed_exit_2_and_say_why() {
    let dir = temp("bad");
    std::fs::create_dir_all(&dir).unwrap();
    let empty = dir.join("empty.pcap");
    std::fs::write(&empty, b"").unwrap();
    let (code, _, err) = pathpool(&["detect", "--pcap", empty.to_str().unwrap(), "--out", dir.join("o").to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(err.contains("empty.pcap") && err.contains("empty"), "{err}");
    // One UDP datagram over raw IPv4.
    let mut udp = Vec::new();
    for w in [0xa1b2_c3d4u32, 0x0004_0002, 0, 0, 65535, 101] {
        udp.extend_from_slice(&w.to_le_bytes());
    }
    let ip = [0x45, 0, 0, 28, 0, 0, 0, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2, 0, 53, 0, 53, 0, 8, 0, 0];
    for w in [1u32, 0, 28, 28] {
        udp.extend_from_slice(&w.to_le_bytes());
    }
    udp.extend_from_slice(&ip);
    let f = dir.join("udp.pcap");
    std::fs::write(&f, &udp).unwrap();
    let (code, _, err) = pathpool(&["detect", "--pcap", f.to_str().unwrap(), "--out", dir.join("o").to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(err.contains("udp.pcap") && err.contains("no TCP data flow") && err.contains("1 IP packets that are not TCP"), "{err}");
    assert!(!dir.join("o").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The simulator's captures of S0's SB-2 (two MPTCP-SBD subflows behind one bottleneck),
/// 40 s, made once for the tests that need them: (sender `s.pcap`, receiver `d.pcap`).
fn sb2() -> &'static (PathBuf, PathBuf) {
    static CAPS: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    CAPS.get_or_init(|| {
        let dir = temp("sb2-shared");
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
        let scenario = root.join("scenarios/papers/ferlin2016/sb-2.toml");
        let caps = dir.join("pcap");
        let (code, _, err) = pathpool(&["run", scenario.to_str().unwrap(), "--cc", "mptcp-sbd", "--set", "simulation.duration=40s", "--out", dir.join("run").to_str().unwrap(), "--pcap", caps.to_str().unwrap()]);
        assert_eq!(code, Some(0), "{err}");
        (caps.join("s.pcap"), caps.join("d.pcap"))
    })
}

/// Writes `from` (a classic pcap with ns timestamps, as the simulator writes) to `to` with
/// every record followed by a copy of itself 1 µs later, as `tcpdump -i any` on loopback
/// records each packet twice.
fn duplicate_every_frame(from: &Path, to: &Path) -> usize {
    let b = std::fs::read(from).unwrap();
    assert_eq!(&b[..4], &0xa1b2_3c4du32.to_le_bytes(), "a little-endian ns pcap");
    let mut out = b[..24].to_vec();
    let (mut at, mut n) = (24, 0);
    while at + 16 <= b.len() {
        let len = u32::from_le_bytes(b[at + 8..at + 12].try_into().unwrap()) as usize;
        let rec = &b[at..at + 16 + len];
        out.extend_from_slice(rec);
        let (mut sec, mut ns) = (u32::from_le_bytes(rec[..4].try_into().unwrap()), u32::from_le_bytes(rec[4..8].try_into().unwrap()) + 1000);
        if ns >= 1_000_000_000 {
            sec += 1;
            ns -= 1_000_000_000;
        }
        out.extend_from_slice(&sec.to_le_bytes());
        out.extend_from_slice(&ns.to_le_bytes());
        out.extend_from_slice(&rec[8..]);
        at += 16 + len;
        n += 1;
    }
    std::fs::write(to, out).unwrap();
    n
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Per subflow of summary.json: (name, delay, samples, losses).
fn subflows(summary: &serde_json::Value) -> Vec<(String, String, u64, u64)> {
    summary["connections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["subflows"].as_array().unwrap().iter())
        .map(|f| (f["name"].as_str().unwrap().to_string(), f["delay"].as_str().unwrap().to_string(), f["samples"].as_u64().unwrap(), f["losses"].as_u64().unwrap()))
        .collect()
}

#[test]
fn a_capture_with_every_frame_twice_gives_the_same_decisions_and_reports_the_copies() {
    let (_, receiver) = sb2();
    let dir = temp("dup");
    std::fs::create_dir_all(&dir).unwrap();
    let doubled = dir.join("doubled.pcap");
    let n = duplicate_every_frame(receiver, &doubled);
    let (code, plain, err) = pathpool(&["detect", "--pcap", receiver.to_str().unwrap(), "--out", dir.join("plain").to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let (code, twice, err) = pathpool(&["detect", "--pcap", doubled.to_str().unwrap(), "--out", dir.join("twice").to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let (a, b) = (json(&dir.join("plain/summary.json")), json(&dir.join("twice/summary.json")));
    // The simulator itself sends a few byte-identical frames (the same segment twice at one
    // instant, e.g. frames 497 and 499 of this receiver's capture, 0.6 ms apart): the copies
    // are those plus one per record.
    let own = a["duplicates_dropped"].as_u64().unwrap();
    assert!(own < 10, "{a}");
    assert_eq!(b["duplicates_dropped"].as_u64(), Some(n as u64 + own));
    assert!(twice.contains(&format!("{} duplicate frames dropped", n as u64 + own)), "{twice}");
    assert!(!plain.contains("duplicate") || own > 0, "{plain}");
    assert_eq!(b["records"].as_u64(), Some(2 * n as u64));
    // Same samples and the same losses (a copy is no retransmission), so the same decisions.
    assert_eq!(subflows(&a), subflows(&b));
    assert!(subflows(&a).iter().all(|f| f.3 > 0), "the capture has real losses to keep: {a}");
    let decisions = |d: &str| std::fs::read_to_string(dir.join(d).join("decisions.csv")).unwrap();
    assert_eq!(decisions("plain"), decisions("twice"));
    assert!(decisions("plain").lines().count() > 20);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Per subflow of summary.json that has a drift fit: (name, fit ppm, ci ppm, removed ppm).
fn drifts(summary: &serde_json::Value) -> Vec<(String, f64, f64, f64)> {
    summary["connections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["subflows"].as_array().unwrap().iter())
        .filter(|f| !f["drift_fit_ppm"].is_null())
        .map(|f| (f["name"].as_str().unwrap().to_string(), f["drift_fit_ppm"].as_f64().unwrap(), f["drift_ci999_ppm"].as_f64().unwrap(), f["drift_removed_ppm"].as_f64().unwrap()))
        .collect()
}

#[test]
fn a_simulator_capture_has_no_clock_skew_and_reports_no_drift_removed() {
    // The simulator's hosts share one clock. The TCP flow of SB-2 arrives at td0 with
    // timestamps, so its delay is one-way from TSval and its drift is fitted.
    let (_, receiver) = sb2();
    let td0 = receiver.with_file_name("td0.pcap");
    let dir = temp("drift");
    let (code, stdout, err) = pathpool(&["detect", "--pcap", td0.to_str().unwrap(), "--out", dir.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let d = drifts(&json(&dir.join("summary.json")));
    assert_eq!(d.len(), 1, "{stdout}");
    let (name, fit, ci, removed) = &d[0];
    // A fit was made and is within its own interval of zero: nothing removed.
    assert!(fit.abs() <= *ci && *ci > 0.0 && *removed == 0.0, "{name}: {fit} ± {ci}, removed {removed}");
    assert!(stdout.contains("no significant drift") && !stdout.contains("ppm removed,"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// decisions.csv rows: (time_s, subflow, delay, samples, intervals_with_samples, below_min).
fn support_rows(path: &Path) -> Vec<(f64, String, String, u64, u64, bool)> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("time_s,subflow,connection,group,delay,samples,intervals_with_samples,below_min"));
    lines
        .map(|l| {
            let c: Vec<&str> = l.split(',').collect();
            (c[0].parse().unwrap(), c[1].to_string(), c[4].to_string(), c[5].parse().unwrap(), c[6].parse().unwrap(), c[7] == "1")
        })
        .collect()
}

#[test]
fn each_decision_says_its_delay_signal_and_samples_and_flags_thin_ones() {
    let (_, receiver) = sb2();
    let dir = temp("support");
    let (code, stdout, err) = pathpool(&["detect", "--pcap", receiver.to_str().unwrap(), "--detector", "mptcp-sbd", "--out", dir.join("dense").to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let rows = support_rows(&dir.join("dense/decisions.csv"));
    let summary = json(&dir.join("dense/summary.json"));
    let flows = subflows(&summary);
    assert_eq!(summary["sample_minimum"]["window"].as_u64(), Some(50));
    for (t, sub, delay, samples, intervals, below) in &rows {
        let f = flows.iter().find(|f| f.0.starts_with(sub.as_str())).unwrap();
        assert_eq!(delay, &f.1);
        // mptcp-sbd's window is N = 50 intervals of 350 ms (17.5 s) from the first sample
        // (about 0.1 s): before it the statistics are partial and the decision is flagged.
        // After it, a subflow sampled every 5 ms that is sending has up to 3500 samples.
        if *t < 17.5 {
            assert!(*below, "{t} {sub}");
        } else if *t > 18.0 {
            assert!(!*below && *intervals == 50 && (500..=3500).contains(samples), "{t} {sub}: {samples} in {intervals}");
        }
    }
    let flagged = rows.iter().filter(|r| r.5).count() as u64;
    let in_summary: u64 = summary["connections"][0]["subflows"].as_array().unwrap().iter().map(|f| f["decisions_below_min"].as_u64().unwrap()).sum();
    assert_eq!(flagged, in_summary);
    assert!(stdout.contains("decisions rest on fewer samples than the detector's minimum"), "{stdout}");
    // One sample per 2 s: at most 9 of a window's 50 intervals hold one, below the 10 the
    // detector's correlation needs, so every decision is flagged.
    let (code, stdout, err) = pathpool(&["detect", "--pcap", receiver.to_str().unwrap(), "--detector", "mptcp-sbd", "--sample-spacing-ms", "2000", "--out", dir.join("sparse").to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let rows = support_rows(&dir.join("sparse/decisions.csv"));
    assert!(!rows.is_empty() && rows.iter().all(|r| r.5 && r.4 <= 9 && r.3 <= 9), "{rows:?}");
    let n = rows.len() / 2;
    assert!(stdout.contains(&format!("{n} of {n} decisions rest on fewer samples")), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Copies the ns pcap `from` to `to`, keeping the records `keep` accepts (given the raw IPv4
/// packet) and shifting the time of those `delay_ns` returns a lag for.
fn rewrite(from: &Path, to: &Path, keep: impl Fn(&[u8]) -> bool, delay_ns: impl Fn(&[u8]) -> u64) {
    let b = std::fs::read(from).unwrap();
    let mut out = b[..24].to_vec();
    let mut at = 24;
    while at + 16 <= b.len() {
        let len = u32::from_le_bytes(b[at + 8..at + 12].try_into().unwrap()) as usize;
        let ip = &b[at + 16..at + 16 + len];
        if keep(ip) {
            let t = u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as u64 * 1_000_000_000 + u32::from_le_bytes(b[at + 4..at + 8].try_into().unwrap()) as u64 + delay_ns(ip);
            out.extend_from_slice(&((t / 1_000_000_000) as u32).to_le_bytes());
            out.extend_from_slice(&((t % 1_000_000_000) as u32).to_le_bytes());
            out.extend_from_slice(&b[at + 8..at + 16 + len]);
        }
        at += 16 + len;
    }
    std::fs::write(to, out).unwrap();
}

/// TCP payload bytes of a raw IPv4 packet.
fn payload(ip: &[u8]) -> usize {
    let ihl = (ip[0] & 15) as usize * 4;
    u16::from_be_bytes([ip[2], ip[3]]) as usize - ihl - (ip[ihl + 12] >> 4) as usize * 4
}

/// Per subflow of summary.json: (vantage, delay).
fn vantages(summary: &serde_json::Value) -> Vec<(String, String)> {
    summary["connections"][0]["subflows"].as_array().unwrap().iter().map(|f| (f["vantage"].as_str().unwrap().to_string(), f["delay"].as_str().unwrap().to_string())).collect()
}

#[test]
fn the_capture_point_is_found_from_the_data_and_the_sender_uses_round_trip_times() {
    let (sender, receiver) = sb2();
    let dir = temp("vantage");
    std::fs::create_dir_all(&dir).unwrap();
    // At the sender the one-way delay has no spread (the packets have not met the queue):
    // MP_TIMESTAMP is there but holds no queue; the round trip from the ACKs does.
    let (code, stdout, err) = pathpool(&["detect", "--pcap", sender.to_str().unwrap(), "--out", dir.join("s").to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let s = json(&dir.join("s/summary.json"));
    assert_eq!(vantages(&s), vec![("sender".to_string(), "rtt-ts-echo".to_string()); 2], "{stdout}");
    // SB-2: both subflows behind one bottleneck; the last decision groups them.
    let last = stdout.lines().find(|l| l.starts_with("last decision")).unwrap();
    assert!(last.contains(".sf0, mptcp-") && last.contains(".sf1}"), "{stdout}");
    let (code, _, err) = pathpool(&["detect", "--pcap", receiver.to_str().unwrap(), "--out", dir.join("d").to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(vantages(&json(&dir.join("d/summary.json"))), vec![("receiver".to_string(), "owd-mp-timestamp".to_string()); 2]);
    // The receiver's capture with the ACKs 20 ms late, as a host 10 ms before the receiver
    // sees them: queueing before it, ACKs a while after: the middle.
    let middle = dir.join("middle.pcap");
    rewrite(receiver, &middle, |_| true, |ip| if payload(ip) == 0 { 20_000_000 } else { 0 });
    let (code, stdout, err) = pathpool(&["detect", "--pcap", middle.to_str().unwrap(), "--out", dir.join("m").to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(vantages(&json(&dir.join("m/summary.json"))), vec![("middle".to_string(), "owd-mp-timestamp".to_string()); 2], "{stdout}");
    // The sender's data without its ACKs: no valid signal, so no group but "cannot tell".
    let data_only = dir.join("data-only.pcap");
    rewrite(sender, &data_only, |ip| payload(ip) > 0 || ip[33] & 0x02 != 0, |_| 0);
    let (code, _, err) = pathpool(&["detect", "--pcap", data_only.to_str().unwrap(), "--out", dir.join("x").to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(err.contains("cannot tell: captured before any queue") && err.contains("without the ACKs"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_reader_that_closes_stdout_early_ends_the_command_quietly() {
    // As `pathpool detect --pcap ... | head -1`: the read end of stdout is closed before the
    // command prints its summary. The files are written; the command must not panic.
    let (_, receiver) = sb2();
    let dir = temp("pipe");
    let mut child = Command::new(env!("CARGO_BIN_EXE_pathpool"))
        .args(["detect", "--pcap", receiver.to_str().unwrap(), "--out", dir.join("o").to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let r = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(r.status.code(), Some(0), "{err}");
    assert!(dir.join("o/decisions.csv").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_connection_gets_one_answer_from_its_full_window_decisions_or_cannot_tell() {
    let (_, receiver) = sb2();
    let dir = temp("answer");
    let (code, stdout, err) = pathpool(&["detect", "--pcap", receiver.to_str().unwrap(), "--out", dir.join("a").to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let summary = json(&dir.join("a/summary.json"));
    let answer = &summary["connections"][0]["answer"];
    // Recount from decisions.csv: the decisions where no subflow is below the minimum, and how
    // many of them put both subflows in one group (the truth of SB-2).
    let rows = support_rows(&dir.join("a/decisions.csv"));
    let text = std::fs::read_to_string(dir.join("a/decisions.csv")).unwrap();
    let groups: Vec<u32> = text.lines().skip(1).map(|l| l.split(',').nth(3).unwrap().parse().unwrap()).collect();
    let (mut full, mut shared) = (0, 0);
    for (pair, g) in rows.chunks(2).zip(groups.chunks(2)) {
        if !pair[0].5 && !pair[1].5 {
            full += 1;
            shared += usize::from(g[0] != 0 && g[0] == g[1]);
        }
    }
    assert!(full >= 5, "{full} full-window decisions in 40 s");
    assert_eq!(answer["decisions"].as_u64(), Some(full as u64), "{answer}");
    assert_eq!(answer["agreeing"].as_u64(), Some(shared as u64), "{answer}");
    assert_eq!(answer["settled"], shared * 10 >= full * 9, "{answer}");
    assert!(answer["grouping"].as_str().unwrap().contains(".sf0, "), "{answer}");
    assert!(stdout.contains("answer: {") || stdout.contains("answer: cannot tell"), "{stdout}");
    assert_eq!(summary["answer_agreement"].as_f64(), Some(0.9));
    // One sample per 2 s: every decision is below the detector's minimum, so none gives an
    // answer and the tool says why.
    let (code, stdout, err) = pathpool(&["detect", "--pcap", receiver.to_str().unwrap(), "--sample-spacing-ms", "2000", "--out", dir.join("sparse").to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let answer = &json(&dir.join("sparse/summary.json"))["connections"][0]["answer"];
    assert_eq!((answer["settled"].as_bool(), answer["decisions"].as_u64()), (Some(false), Some(0)), "{answer}");
    assert!(answer["cannot_tell"].as_str().unwrap().contains("below_min"), "{answer}");
    assert!(stdout.contains("answer: cannot tell: no decision rests on"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `pathpool ARGS` killed after `secs` (a hang fails the test instead of blocking it).
fn pathpool_within(secs: u64, args: &[&str]) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pathpool")).args(args).stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped()).spawn().unwrap();
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed().as_secs() > secs {
            let _ = child.kill();
            panic!("pathpool {args:?} still running after {secs} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let r = child.wait_with_output().unwrap();
    (r.status.code(), String::from_utf8_lossy(&r.stdout).into_owned(), String::from_utf8_lossy(&r.stderr).into_owned())
}

#[test]
fn a_capture_from_a_fifo_is_read_once_and_gives_the_file_s_result_and_one_file_twice_its_copies() {
    let (_, receiver) = sb2();
    let dir = temp("fifo");
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("capture.fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    // A writer as a shell's `<(cat x.pcap)`: it writes the capture once and goes.
    let writer = Command::new("sh").arg("-c").arg(format!("cat '{}' > '{}'", receiver.display(), fifo.display())).spawn().unwrap();
    let (code, _, err) = pathpool_within(120, &["detect", "--pcap", fifo.to_str().unwrap(), "--out", dir.join("fifo").to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let _ = { writer }.wait();
    let (code, _, err) = pathpool(&["detect", "--pcap", receiver.to_str().unwrap(), "--out", dir.join("file").to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let decisions = |d: &str| std::fs::read_to_string(dir.join(d).join("decisions.csv")).unwrap();
    assert_eq!(decisions("fifo"), decisions("file"));
    // The same file given twice: every record of the second is a copy of one of the first,
    // counted as such, and the losses are the file's own.
    let r = receiver.to_str().unwrap();
    let (code, twice, err) = pathpool(&["detect", "--pcap", r, "--pcap", r, "--out", dir.join("twice").to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let (a, b) = (json(&dir.join("file/summary.json")), json(&dir.join("twice/summary.json")));
    let records = a["records"].as_u64().unwrap();
    assert_eq!(b["duplicates_across_files"].as_u64(), Some(records));
    assert!(twice.contains(&format!("{records} of them copies of a frame of another --pcap file")), "{twice}");
    assert_eq!(subflows(&a), subflows(&b));
    let _ = std::fs::remove_dir_all(&dir);
}
